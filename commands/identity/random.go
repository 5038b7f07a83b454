package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"math/big"
)

// newTokenID returns a random token id (jti): 16 bytes, base64url.
func newTokenID() string { return randomURLSafe(16) }

// randomURLSafe returns n random bytes in unpadded base64url.
func randomURLSafe(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the platform cannot mint secrets
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randomBase62 returns n uniformly random base62 characters.
func randomBase62(n int) string {
	out := make([]byte, n)
	max := big.NewInt(int64(len(base62Alphabet)))
	for i := range out {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		out[i] = base62Alphabet[v.Int64()]
	}
	return string(out)
}

// sha256Hex returns the hex SHA-256 of s: how reset tokens and API key
// secrets (high-entropy random values) are kept.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
