package identity

import "github.com/strata-platform/strata/commands/passwords"

// Argon2Params, Hasher and their constructors live in commands/passwords,
// shared with the other contexts that keep accounts; these names keep the
// identity package's API as it was.
type (
	Argon2Params = passwords.Argon2Params
	Hasher       = passwords.Hasher
)

// DefaultArgon2Params is passwords.DefaultArgon2Params.
func DefaultArgon2Params() Argon2Params { return passwords.DefaultArgon2Params() }

// NewHasher is passwords.NewHasher.
func NewHasher(p Argon2Params) *Hasher { return passwords.NewHasher(p) }
