// Package sealed encrypts small values that leave the server and come back
// (cookies, state values) or that are stored but must stay unreadable
// (tokens kept for a session): AES-256-GCM with a random nonce, the result
// in unpadded base64url. Each value is bound to a purpose (the GCM
// additional data), so a value sealed for one purpose never opens as another.
package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
)

// Box seals and opens values under one 32-byte key.
type Box struct{ aead cipher.AEAD }

// New returns a box for a 32-byte key (derive one per use from the master key).
func New(key []byte) (*Box, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("sealed: need a 32-byte key, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plain for purpose.
func (b *Box) Seal(plain []byte, purpose string) string {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b.aead.Seal(nonce, nonce, plain, []byte(purpose)))
}

// ErrInvalid is the one answer to a value that is malformed, forged,
// altered or sealed for another purpose.
var ErrInvalid = errors.New("sealed value is invalid")

// Open decrypts what Seal produced for the same purpose.
func (b *Box) Open(value, purpose string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	n := b.aead.NonceSize()
	if err != nil || len(raw) < n {
		return nil, ErrInvalid
	}
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], []byte(purpose))
	if err != nil {
		return nil, ErrInvalid
	}
	return plain, nil
}
