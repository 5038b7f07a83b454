package migrations

import "io/fs"

// Files returns the embedded migration files (*.sql at the root of the
// returned file system), read-only, for callers that need their contents
// without applying them, such as pgtest's template-database hash.
func Files() fs.FS { return files }
