package pgcluster

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// serverBinaries are the programs a private cluster needs, all in one directory.
var serverBinaries = []string{"initdb", "pg_ctl", "postgres"}

// FindBinaries returns the directory that holds initdb, pg_ctl and postgres.
// It looks first in PATH (the directory of initdb, if pg_ctl and postgres sit
// next to it), then in the usual install directories:
// /usr/lib/postgresql/<highest major version>/bin, /usr/local/pgsql/bin,
// /usr/pgsql-*/bin, /opt/homebrew/opt/postgresql*/bin and
// /usr/local/opt/postgresql*/bin (highest version first where there are
// several). When none holds all three programs the error names the package to
// install.
func FindBinaries() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if dir := filepath.Dir(p); hasBinaries(dir) {
			return dir, nil
		}
	}
	var candidates []string
	candidates = append(candidates, globByVersion("/usr/lib/postgresql/*/bin", "/usr/lib/postgresql/")...)
	candidates = append(candidates, "/usr/local/pgsql/bin")
	candidates = append(candidates, globByVersion("/usr/pgsql-*/bin", "/usr/pgsql-")...)
	candidates = append(candidates, globByVersion("/opt/homebrew/opt/postgresql*/bin", "/opt/homebrew/opt/postgresql")...)
	candidates = append(candidates, globByVersion("/usr/local/opt/postgresql*/bin", "/usr/local/opt/postgresql")...)
	for _, dir := range candidates {
		if hasBinaries(dir) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("PostgreSQL server binaries (%s) not found (looked in PATH and /usr/lib/postgresql/*/bin, "+
		"/usr/local/pgsql/bin, /usr/pgsql-*/bin, /opt/homebrew/opt/postgresql*/bin, /usr/local/opt/postgresql*/bin): "+
		"install them, e.g. `apt-get install postgresql` on Debian/Ubuntu, `dnf install postgresql-server` on Fedora/RHEL, "+
		"`brew install postgresql` on macOS, or set DATABASE_URL to use an existing server",
		strings.Join(serverBinaries, ", "))
}

// hasBinaries reports whether dir holds every program in serverBinaries as an
// executable regular file.
func hasBinaries(dir string) bool {
	for _, name := range serverBinaries {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	return true
}

// globByVersion expands pattern and orders the matches by the version number
// that follows prefix, highest first ("/usr/lib/postgresql/16/bin" before
// ".../9.6/bin"); matches without a number come last, in name order.
func globByVersion(pattern, prefix string) []string {
	matches, _ := filepath.Glob(pattern) // the only possible error is a bad pattern
	version := func(p string) []int {
		rest := strings.TrimPrefix(p, prefix)
		rest = strings.TrimLeft(rest, "@-")
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[:i]
		}
		var v []int
		for _, part := range strings.Split(rest, ".") {
			n, err := strconv.Atoi(part)
			if err != nil {
				break
			}
			v = append(v, n)
		}
		return v
	}
	sort.SliceStable(matches, func(i, j int) bool {
		vi, vj := version(matches[i]), version(matches[j])
		for k := 0; k < len(vi) && k < len(vj); k++ {
			if vi[k] != vj[k] {
				return vi[k] > vj[k]
			}
		}
		if len(vi) != len(vj) {
			return len(vi) > len(vj)
		}
		return matches[i] < matches[j]
	})
	return matches
}
