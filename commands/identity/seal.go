package identity

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/hkdf"
)

// MasterKey seals secrets kept in the event store (JWT signing keys) with
// AES-256-GCM. Its ID (a hash prefix) is recorded next to each sealed value,
// so a server started with another master key says so instead of failing
// with an opaque decryption error.
type MasterKey struct {
	id   string
	aead cipher.AEAD
	raw  []byte
}

// NewMasterKey builds a master key from 32 raw bytes.
func NewMasterKey(raw []byte) (*MasterKey, error) {
	if len(raw) != 32 {
		return nil, fmt.Errorf("master key: need 32 bytes, got %d", len(raw))
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(append([]byte("strata master key id:"), raw...))
	return &MasterKey{id: hex.EncodeToString(sum[:8]), aead: aead, raw: append([]byte(nil), raw...)}, nil
}

// LoadMasterKey returns the master key from value (base64 of 32 bytes, the
// STRATA_MASTER_KEY setting) when set; otherwise from the file at path,
// creating it (mode 0600) with a fresh random key on first start.
func LoadMasterKey(value, path string) (*MasterKey, error) {
	if v := strings.TrimSpace(value); v != "" {
		raw, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, fmt.Errorf("STRATA_MASTER_KEY: not base64: %w", err)
		}
		return NewMasterKey(raw)
	}
	if data, err := os.ReadFile(path); err == nil {
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
		if err != nil {
			return nil, fmt.Errorf("master key file %s: not base64: %w", path, err)
		}
		return NewMasterKey(raw)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("master key file: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("master key file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) { // another process created it first
		return LoadMasterKey("", path)
	}
	if err != nil {
		return nil, fmt.Errorf("master key file: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(base64.StdEncoding.EncodeToString(raw) + "\n"); err != nil {
		return nil, fmt.Errorf("master key file: %w", err)
	}
	return NewMasterKey(raw)
}

// ID identifies the key without revealing it.
func (m *MasterKey) ID() string { return m.id }

// Seal encrypts plain; the result is nonce || ciphertext.
func (m *MasterKey) Seal(plain []byte) ([]byte, error) {
	nonce := make([]byte, m.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return m.aead.Seal(nonce, nonce, plain, []byte(m.id)), nil
}

// Open decrypts what Seal produced.
func (m *MasterKey) Open(sealed []byte) ([]byte, error) {
	n := m.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed value is too short")
	}
	return m.aead.Open(nil, sealed[:n], sealed[n:], []byte(m.id))
}

// Derive returns a 32-byte key for one purpose (HKDF-SHA256 of the master
// key with purpose as info): every process with the same master key derives
// the same key, and keys for different purposes are independent.
func (m *MasterKey) Derive(purpose string) []byte {
	out := make([]byte, 32)
	if _, err := io.ReadFull(hkdf.New(sha256.New, m.raw, nil, []byte("strata:"+purpose)), out); err != nil {
		panic("hkdf: " + err.Error()) // cannot happen for 32 bytes
	}
	return out
}
