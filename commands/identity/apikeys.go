package identity

import (
	"context"
	"crypto/subtle"
	"strings"
	"time"
	"unicode/utf8"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// IssueKey is the input of the issue-key command.
type IssueKey struct {
	UserID        string
	Name          string
	ExpiresInDays *int   // nil: 90
	Environment   string // live (default) or test
	// OrganizationID and ProjectID place the key; empty: the user's default
	// workspace and project. The caller must have checked membership.
	OrganizationID string
	ProjectID      string
}

// IssuedKey is a new key: the record and the secret, shown this once.
type IssuedKey struct {
	Key    ident.Key
	Secret string // the whole key, e.g. sk_live_...
}

// IssueKey creates an API key for the given project (default: the user's
// default project). Only the key's lookup id and the SHA-256 of its secret
// are stored.
func (s *Service) IssueKey(ctx context.Context, in IssueKey) (IssuedKey, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return IssuedKey{}, kernel.Invalid("name", "required", "name is required")
	}
	if utf8.RuneCountInString(name) > 100 {
		return IssuedKey{}, kernel.Invalid("name", "max_length:100", "name is longer than 100 characters")
	}
	days := ident.DefaultKeyLifetime
	if in.ExpiresInDays != nil {
		days = *in.ExpiresInDays
	}
	if days < 1 || days > ident.MaxKeyLifetime {
		return IssuedKey{}, kernel.Invalid("expires_in_days", "range:1..3650", "expires_in_days must be between 1 and 3650")
	}
	prefix := ident.PrefixFor(in.Environment)
	if prefix == "" {
		return IssuedKey{}, kernel.Invalid("environment", "enum:live,test", "environment must be live or test")
	}
	u, ok := s.dir.User(in.UserID)
	if !ok || !u.Active {
		return IssuedKey{}, kernel.Unauthenticated("the account is not active")
	}
	if in.OrganizationID != "" && in.ProjectID != "" {
		u.OrganizationID, u.ProjectID = in.OrganizationID, in.ProjectID
	}
	now := s.clock.Now()
	return s.issueKey(ctx, u, name, prefix, now.Add(time.Duration(days)*24*time.Hour))
}

// issueKey appends the issue of a new key for u's organization and project.
func (s *Service) issueKey(ctx context.Context, u ident.User, name, prefix string, expires time.Time) (IssuedKey, error) {
	lookup, secret := randomBase62(ident.LookupLen), randomBase62(ident.SecretLen)
	ev := &ident.APIKeyIssued{KeyID: ident.KeyIDPrefix + s.cfg.NewUserID(), UserID: u.ID, OrganizationID: u.OrganizationID,
		ProjectID: u.ProjectID, Name: name, Prefix: prefix, Lookup: lookup, SecretHash: sha256Hex(secret),
		ExpiresAt: expires.UTC().Truncate(time.Second), At: s.clock.Now()}
	err := s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: ev.KeyID}, eventstore.NoStream, ev)
	})
	if err != nil {
		return IssuedKey{}, err
	}
	k, _ := s.dir.APIKey(ev.KeyID)
	return IssuedKey{Key: k, Secret: prefix + "_" + lookup + secret}, nil
}

// RevokeKey revokes one of the user's keys; it stops working from the
// response on. Another user's key, or an unknown id, is not found.
// Revoking a revoked key again changes nothing.
func (s *Service) RevokeKey(ctx context.Context, userID, keyID string) error {
	k, ok := s.dir.APIKey(keyID)
	if !ok || k.UserID != userID {
		return kernel.NotFound("API key not found")
	}
	if k.Revoked {
		return nil
	}
	ev := &ident.APIKeyRevoked{KeyID: keyID, Reason: "revoked by owner", At: s.clock.Now()}
	return s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: keyID}, eventstore.AnyVersion, ev)
	})
}

// KeyAuth is a presented API key that matched a record.
type KeyAuth struct {
	Key  ident.Key
	User ident.User
}

// AuthenticateKey checks a presented API key: its prefix and secret must
// match the record found by its lookup id (compared in constant time), the
// key must not be revoked, its owner must be active, and it must not be
// expired, except that with expiredTrial an expired tmp_ key passes (key
// verification reports it as trial_expired). A tmp_ key whose identity was
// claimed gets a *Claimed refusal (403); every other failure is the same 401.
// Use is counted in memory and recorded in the background.
func (s *Service) AuthenticateKey(presented string, expiredTrial bool) (KeyAuth, error) {
	prefix, lookup, secret, ok := ident.ParseKey(presented)
	if !ok {
		return KeyAuth{}, invalidKey()
	}
	k, u, found := s.dir.KeyByLookup(lookup)
	if !found { // perhaps created a moment ago through another process
		ctx, cancel := context.WithTimeout(context.Background(), refreshWait)
		if s.dir.Refresh(ctx) == nil {
			k, u, found = s.dir.KeyByLookup(lookup)
		}
		cancel()
	}
	stored := k.SecretHash
	if !found {
		stored = strings.Repeat("0", 64)
	}
	match := subtle.ConstantTimeCompare([]byte(sha256Hex(secret)), []byte(stored)) &
		subtle.ConstantTimeCompare([]byte(prefix), []byte(k.Prefix))
	if match != 1 || !found {
		return KeyAuth{}, invalidKey()
	}
	if k.Revoked && k.RevokedReason == reasonClaimed {
		return KeyAuth{}, s.claimedRefusal(k)
	}
	if k.Revoked || !u.Active || (k.Expired(s.clock.Now()) && !(expiredTrial && k.Temporary())) {
		return KeyAuth{}, invalidKey()
	}
	s.usage.count(k.ID, s.clock.Now())
	return KeyAuth{Key: k, User: u}, nil
}

// refreshWait bounds the catch-up a lookup that missed may wait for.
const refreshWait = 2 * time.Second

func invalidKey() error {
	return kernel.Unauthenticated("the API key is invalid, revoked or expired")
}
