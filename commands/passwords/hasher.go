// Package passwords hashes and verifies passwords with argon2id, for every
// context that keeps accounts of its own (platform identity, the cap table).
package passwords

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are argon2id cost parameters.
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
	KeyLen    uint32
	SaltLen   int
}

// DefaultArgon2 is the production cost: m=7 MiB, t=5, p=1, one of the five
// equivalent configurations the OWASP Password Storage Cheat Sheet lists
// (alongside m=19 MiB t=2, m=12 MiB t=3, m=9 MiB t=4, m=46 MiB t=1). On the
// 2-core machines Strata is measured on it hashes about twice as fast as
// m=19 MiB t=2 because its memory stays closer to the CPU caches, for the
// same resistance per OWASP (docs/architecture.md). Hashes record their own
// parameters, so changing these later keeps old hashes verifiable.
func DefaultArgon2Params() Argon2Params {
	return Argon2Params{MemoryKiB: 7 * 1024, Time: 5, Threads: 1, KeyLen: 32, SaltLen: 16}
}

// Hasher hashes and verifies passwords with argon2id in the PHC string format
// ($argon2id$v=19$m=..,t=..,p=..$salt$hash). At most one hash per CPU runs at
// a time, so a burst of logins queues instead of exhausting memory.
type Hasher struct {
	p     Argon2Params
	slots chan struct{}
	dummy string // a hash of a random password, verified for unknown accounts
}

// NewHasher returns a hasher with p.
func NewHasher(p Argon2Params) *Hasher {
	h := &Hasher{p: p, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
	var pw [24]byte
	_, _ = rand.Read(pw[:])
	h.dummy, _ = h.hash(base64.RawStdEncoding.EncodeToString(pw[:]))
	return h
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Hash returns the PHC string of password with a fresh random salt.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-h.slots }()
	return h.hash(password)
}

func (h *Hasher) hash(password string) (string, error) {
	salt := make([]byte, h.p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, h.p.Time, h.p.MemoryKiB, h.p.Threads, h.p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.p.MemoryKiB, h.p.Time, h.p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether password matches the PHC string encoded, comparing
// in constant time with the parameters stored in it. An empty encoded (an
// unknown account, or one without a password) verifies against a dummy hash
// of the same cost and reports false, so the caller's timing is the same.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) (bool, error) {
	target, real := encoded, encoded != ""
	if !real {
		target = h.dummy
	}
	p, salt, want, err := decodePHC(target)
	if err != nil {
		return false, err
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	<-h.slots
	return real && subtle.ConstantTimeCompare(got, want) == 1, nil
}

func decodePHC(s string) (Argon2Params, []byte, []byte, error) {
	var p Argon2Params
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return p, nil, nil, errors.New("password hash is not an argon2id PHC string")
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, fmt.Errorf("password hash: unsupported argon2 version %q", parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, fmt.Errorf("password hash: parameters %q: %w", parts[3], err)
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return p, nil, nil, fmt.Errorf("password hash: salt: %w", err)
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) == 0 {
		return p, nil, nil, fmt.Errorf("password hash: key: %v", err)
	}
	return p, salt, key, nil
}
