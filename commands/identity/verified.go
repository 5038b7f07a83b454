package identity

import (
	"sync"
	"time"
)

// maxVerified bounds the verified-token cache; when it is full, expired
// entries go first, and if none has expired the cache starts over.
const maxVerified = 20000

// verifiedCache remembers the claims of tokens whose signature, issuer,
// type and times were checked, until each expires, so a token presented
// again (every request of a client, every introspection) skips the RSA
// verification and JSON decoding. It is keyed by the whole token string:
// only a byte-identical token hits. Revocation, grant and security-stamp
// checks are not cached; callers make them on every use.
type verifiedCache[C any] struct {
	mu      sync.RWMutex
	entries map[string]verifiedEntry[C]
}

type verifiedEntry[C any] struct {
	claims C
	exp    time.Time
}

func (v *verifiedCache[C]) get(token string, now time.Time) (C, bool) {
	v.mu.RLock()
	e, ok := v.entries[token]
	v.mu.RUnlock()
	if !ok || !now.Before(e.exp) {
		var zero C
		return zero, false
	}
	return e.claims, true
}

func (v *verifiedCache[C]) put(token string, claims C, exp, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.entries == nil {
		v.entries = map[string]verifiedEntry[C]{}
	}
	if len(v.entries) >= maxVerified {
		for k, e := range v.entries {
			if !now.Before(e.exp) {
				delete(v.entries, k)
			}
		}
		if len(v.entries) >= maxVerified {
			v.entries = map[string]verifiedEntry[C]{}
		}
	}
	v.entries[token] = verifiedEntry[C]{claims: claims, exp: exp}
}
