// Package shred is crypto-shredding for personal data in event payloads.
// Each subject (a memory, an entity) has its own random 256-bit data key; a
// value sealed under it is stored in the event as a kernel.Sealed. The keys
// live in es.subject_keys, wrapped (AES-256-GCM) by a key derived from the
// master key. Shredding deletes a subject's key in the transaction that
// records the deletion, after which every copy of the sealed values (the
// events, Watermill's copies, exports, backups taken later) is unreadable,
// while the rest of each event stays readable for audit.
//
// Physical erasure of the deleted key row follows PostgreSQL's VACUUM;
// backups and WAL archives taken before the shred still hold the key, which
// is the operator's retention policy to bound.
package shred

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/strata-platform/strata/domain/kernel"
)

// ErrShredded is returned when a sealed value's key no longer exists: the
// value was shredded (or never committed).
var ErrShredded = errors.New("shred: the key of this value was destroyed")

// Querier runs queries: a *sql.DB or a *sql.Tx.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *stdsql.Row
}

// Execer runs statements: a *sql.DB or a *sql.Tx.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
}

// KeyRing creates, opens and destroys subject keys. It caches unwrapped keys
// (bounded); Shred evicts them from this process's cache, and a key deleted
// by another process is no longer found once evicted here.
type KeyRing struct {
	wrap  cipher.AEAD
	cache *lru.Cache[string, cipher.AEAD]
}

// DefaultCacheSize is how many unwrapped keys a KeyRing keeps by default.
const DefaultCacheSize = 200_000

// New returns a key ring whose keys are wrapped by wrappingKey (32 bytes,
// derived from the master key).
func New(wrappingKey []byte, cacheSize int) (*KeyRing, error) {
	aead, err := gcm(wrappingKey)
	if err != nil {
		return nil, fmt.Errorf("shred: wrapping key: %w", err)
	}
	if cacheSize <= 0 {
		cacheSize = DefaultCacheSize
	}
	cache, err := lru.New[string, cipher.AEAD](cacheSize)
	if err != nil {
		return nil, err
	}
	return &KeyRing{wrap: aead, cache: cache}, nil
}

func gcm(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("need a 32-byte key, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// NewKey is a fresh data key that is not stored yet: seal values with it,
// then Store it in the transaction that appends the events holding them.
type NewKey struct {
	ID, Owner string
	raw       []byte
	aead      cipher.AEAD
}

// Fresh returns a new random key for subject id, owned by owner (the user
// whose keys Preload fetches together).
func (k *KeyRing) Fresh(id, owner string) (*NewKey, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	aead, err := gcm(raw)
	if err != nil {
		return nil, err
	}
	return &NewKey{ID: id, Owner: owner, raw: raw, aead: aead}, nil
}

// Seal encrypts plain under the new key.
func (n *NewKey) Seal(plain []byte) kernel.Sealed { return seal(n.aead, n.ID, plain) }

// SealWith encrypts plain under the new key, binding it to ad as well as
// to the key id (see KeyRing.SealWith).
func (n *NewKey) SealWith(plain, ad []byte) kernel.Sealed {
	return sealAD(n.aead, n.ID, plain, withAD(n.ID, ad))
}

// Store records new keys in tx (the transaction of the append whose events
// hold values sealed under them) and caches them once stored.
func (k *KeyRing) Store(ctx context.Context, tx Execer, keys ...*NewKey) error {
	for _, n := range keys {
		wrapped := seal(k.wrap, n.ID, n.raw)
		if _, err := tx.ExecContext(ctx, `INSERT INTO es.subject_keys (key_id, owner, wrapped) VALUES ($1, $2, $3)`,
			n.ID, n.Owner, []byte(wrapped.Data)); err != nil {
			return fmt.Errorf("shred: store key %s: %w", n.ID, err)
		}
	}
	return nil
}

// Remember caches keys whose transaction committed.
func (k *KeyRing) Remember(keys ...*NewKey) {
	for _, n := range keys {
		k.cache.Add(n.ID, n.aead)
	}
}

// Seal encrypts plain under the existing key id.
func (k *KeyRing) Seal(ctx context.Context, q Querier, id string, plain []byte) (kernel.Sealed, error) {
	aead, err := k.key(ctx, q, id)
	if err != nil {
		return kernel.Sealed{}, err
	}
	return seal(aead, id, plain), nil
}

// Open decrypts a sealed value; ErrShredded when its key is gone.
func (k *KeyRing) Open(ctx context.Context, q Querier, s kernel.Sealed) ([]byte, error) {
	aead, err := k.key(ctx, q, s.Key)
	if err != nil {
		return nil, err
	}
	return open(aead, s.Key, s.Data)
}

// SealWith encrypts plain under the existing key id, binding it to the
// additional data ad as well as to the key id: the value opens only through
// OpenWith with the same ad (never through Open, and Seal's values never
// through OpenWith). ad itself is not stored; the caller rebuilds it from
// what the value belongs to (a record's owner, name and version), so a
// sealed value copied onto another record does not open.
func (k *KeyRing) SealWith(ctx context.Context, q Querier, id string, plain, ad []byte) (kernel.Sealed, error) {
	aead, err := k.key(ctx, q, id)
	if err != nil {
		return kernel.Sealed{}, err
	}
	return sealAD(aead, id, plain, withAD(id, ad)), nil
}

// OpenWith decrypts what SealWith or NewKey.SealWith sealed with the same
// ad; ErrShredded when its key is gone, an error when ad differs.
func (k *KeyRing) OpenWith(ctx context.Context, q Querier, s kernel.Sealed, ad []byte) ([]byte, error) {
	aead, err := k.key(ctx, q, s.Key)
	if err != nil {
		return nil, err
	}
	return openAD(aead, s.Data, withAD(s.Key, ad))
}

// Preload caches every key of owner in one query (a cold fold of a large
// store then opens its values without a query per key).
func (k *KeyRing) Preload(ctx context.Context, q Querier, owner string) error {
	rows, err := q.QueryContext(ctx, `SELECT key_id, wrapped FROM es.subject_keys WHERE owner = $1`, owner)
	if err != nil {
		return fmt.Errorf("shred: preload %s: %w", owner, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var wrapped []byte
		if err := rows.Scan(&id, &wrapped); err != nil {
			return err
		}
		aead, err := k.unwrap(id, wrapped)
		if err != nil {
			return err
		}
		k.cache.Add(id, aead)
	}
	return rows.Err()
}

// Shred destroys keys in tx (the transaction that records the deletion)
// and evicts them from the cache. Call Forget after the commit too, so a
// concurrent Open that re-read a key before the commit is evicted again.
func (k *KeyRing) Shred(ctx context.Context, tx Execer, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM es.subject_keys WHERE key_id = ANY($1)`, ids); err != nil {
		return fmt.Errorf("shred: delete keys: %w", err)
	}
	k.Forget(ids...)
	return nil
}

// Forget evicts keys from this process's cache.
func (k *KeyRing) Forget(ids ...string) {
	for _, id := range ids {
		k.cache.Remove(id)
	}
}

func (k *KeyRing) key(ctx context.Context, q Querier, id string) (cipher.AEAD, error) {
	if aead, ok := k.cache.Get(id); ok {
		return aead, nil
	}
	var wrapped []byte
	err := q.QueryRowContext(ctx, `SELECT wrapped FROM es.subject_keys WHERE key_id = $1`, id).Scan(&wrapped)
	if errors.Is(err, stdsql.ErrNoRows) {
		return nil, ErrShredded
	}
	if err != nil {
		return nil, fmt.Errorf("shred: read key %s: %w", id, err)
	}
	aead, err := k.unwrap(id, wrapped)
	if err != nil {
		return nil, err
	}
	k.cache.Add(id, aead)
	return aead, nil
}

func (k *KeyRing) unwrap(id string, wrapped []byte) (cipher.AEAD, error) {
	raw, err := open(k.wrap, id, string(wrapped))
	if err != nil {
		return nil, fmt.Errorf("shred: key %s does not open under this master key: %w", id, err)
	}
	return gcm(raw)
}

// seal encrypts plain with a random nonce, binding it to the key id (GCM
// additional data), and returns nonce || ciphertext in unpadded base64url.
func seal(aead cipher.AEAD, id string, plain []byte) kernel.Sealed {
	return sealAD(aead, id, plain, []byte(id))
}

func open(aead cipher.AEAD, id, data string) ([]byte, error) {
	return openAD(aead, data, []byte(id))
}

// withAD is the GCM additional data of SealWith: the key id's length (4
// bytes, big-endian), the key id, then ad. The length prefix keeps (id, ad)
// pairs apart, and the result is always longer than the key id alone
// (Seal's additional data), so neither kind of value opens as the other.
func withAD(id string, ad []byte) []byte {
	out := make([]byte, 4, 4+len(id)+len(ad))
	binary.BigEndian.PutUint32(out, uint32(len(id)))
	out = append(out, id...)
	return append(out, ad...)
}

func sealAD(aead cipher.AEAD, id string, plain, ad []byte) kernel.Sealed {
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	out := aead.Seal(nonce, nonce, plain, ad)
	return kernel.Sealed{Key: id, Data: base64.RawURLEncoding.EncodeToString(out)}
}

func openAD(aead cipher.AEAD, data string, ad []byte) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(data)
	n := aead.NonceSize()
	if err != nil || len(raw) < n {
		return nil, errors.New("shred: malformed sealed value")
	}
	plain, err := aead.Open(nil, raw[:n], raw[n:], ad)
	if err != nil {
		return nil, errors.New("shred: sealed value does not open")
	}
	return plain, nil
}
