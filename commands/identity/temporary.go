package identity

import (
	"context"
	"fmt"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// Temporary keys are handed out without authentication, so each client
// (address) may create at most TemporaryKeyLimit of them per
// TemporaryKeyWindow.
const (
	TemporaryKeyLimit  = 10
	TemporaryKeyWindow = time.Hour
)

// CreateTemporary provisions an anonymous trial identity for an
// instant-database user: a temporary user with its own workspace and
// project, and a tmp_ key valid for 72 hours. The identity can later be
// claimed by a real account (merge-identity).
func (s *Service) CreateTemporary(ctx context.Context, client string) (IssuedKey, error) {
	if wait, ok := s.limiter.Take("tmp:"+client, TemporaryKeyLimit, TemporaryKeyWindow); !ok {
		return IssuedKey{}, &Throttled{RetryAfter: wait,
			Message: fmt.Sprintf("too many temporary keys from this client; try again in %d seconds", int(wait.Seconds())+1)}
	}
	now := s.clock.Now()
	userID, orgID, projectID := s.cfg.NewUserID(), s.cfg.NewUserID(), s.cfg.NewUserID()
	reg := &ident.UserRegistered{UserID: userID, FullName: "Temporary user", Role: ident.RoleUser, Plan: ident.PlanFree,
		OrganizationID: orgID, ProjectID: projectID, Temporary: true, At: now}
	org := &ident.OrganizationCreated{OrganizationID: orgID, Name: "Trial workspace", OwnerID: userID,
		ProjectID: projectID, ProjectName: "Instant database", At: now}
	lookup, secret := randomBase62(ident.LookupLen), randomBase62(ident.SecretLen)
	key := &ident.APIKeyIssued{KeyID: ident.KeyIDPrefix + s.cfg.NewUserID(), UserID: userID, OrganizationID: orgID,
		ProjectID: projectID, Name: "Temporary key", Prefix: ident.PrefixTemporary, Lookup: lookup,
		SecretHash: sha256Hex(secret), ExpiresAt: now.Add(ident.TemporaryKeyTTL).UTC().Truncate(time.Second), At: now}
	err := s.write(ctx, func(t *txn) error {
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: userID}, eventstore.NoStream, reg); err != nil {
			return err
		}
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, eventstore.NoStream, org); err != nil {
			return err
		}
		return t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: key.KeyID}, eventstore.NoStream, key)
	})
	if err != nil {
		return IssuedKey{}, err
	}
	k, _ := s.dir.APIKey(key.KeyID)
	return IssuedKey{Key: k, Secret: ident.PrefixTemporary + "_" + lookup + secret}, nil
}
