package identity

import (
	"context"
	"errors"
	"time"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// reasonClaimed is the revocation reason of a tmp_ key whose identity was claimed.
const reasonClaimed = "claimed"

// Claimed is the refusal of a tmp_ key after its identity was merged into a
// real account: 403, naming the workspace the data moved to and the key to
// use instead (its id and prefix, never a secret).
type Claimed struct {
	WorkspaceName string
	SuggestedID   string
	SuggestedPfx  string
}

func (c *Claimed) Error() string { return "this temporary key was claimed by an account" }

// Unwrap gives the kernel kind (forbidden) to the HTTP edge.
func (c *Claimed) Unwrap() error {
	return kernel.Forbidden("this temporary key's project now belongs to the workspace " + c.WorkspaceName +
		"; use that workspace's key (" + c.SuggestedPfx + "_...) instead")
}

// Merged is the outcome of MergeIdentity.
type Merged struct {
	TempUserID string
	ProjectIDs []string
	KeyIDs     []string
	Claimed    IssuedKey // the sdb_live_ key issued for the claimed project
}

// MergeIdentity claims the temporary identity behind tempKey for the caller:
// its projects and keys move to the caller's workspace, the temporary user
// is deactivated (its data is kept), its tmp_ keys stop working (403 naming
// the new key), and a claimed key with the sdb_live_ prefix is issued for the
// project. An expired trial can still be claimed.
func (s *Service) MergeIdentity(ctx context.Context, callerID, tempKey string) (Merged, error) {
	if tempKey == "" {
		return Merged{}, kernel.Invalid("temp_api_key", "required", "temp_api_key is required")
	}
	if p, _, _, ok := ident.ParseKey(tempKey); !ok || p != ident.PrefixTemporary {
		return Merged{}, kernel.Invalid("temp_api_key", "prefix:tmp_", "temp_api_key must be a tmp_ key")
	}
	ka, err := s.AuthenticateKey(tempKey, true)
	var claimed *Claimed
	if errors.As(err, &claimed) {
		return Merged{}, kernel.Conflict("this temporary identity was already claimed", nil)
	}
	if err != nil {
		return Merged{}, &kernel.Error{Kind: kernel.KindInvalid, Field: "temp_api_key", Rule: "valid_key", Message: "temp_api_key is not a valid temporary key"}
	}
	caller, ok := s.dir.User(callerID)
	if !ok || !caller.Active || caller.Temporary {
		return Merged{}, kernel.Forbidden("only a registered account can claim a temporary identity")
	}
	temp, err := s.loadUser(ctx, ka.User.ID)
	if err != nil {
		return Merged{}, err
	}
	if !temp.Temporary || !temp.Active {
		return Merged{}, kernel.Conflict("this temporary identity was already claimed", nil)
	}
	org, _ := s.dir.Organization(temp.OrganizationID)
	keys := s.dir.UserKeys(temp.ID)
	now := s.clock.Now()
	out := Merged{TempUserID: temp.ID}
	lookup, secret := randomBase62(ident.LookupLen), randomBase62(ident.SecretLen)
	issued := &ident.APIKeyIssued{KeyID: ident.KeyIDPrefix + s.cfg.NewUserID(), UserID: caller.ID,
		OrganizationID: caller.OrganizationID, ProjectID: temp.ProjectID, Name: "Claimed instant database",
		Prefix: ident.PrefixClaimed, Lookup: lookup, SecretHash: sha256Hex(secret),
		ExpiresAt: now.Add(ident.DefaultKeyLifetime * 24 * time.Hour).UTC().Truncate(time.Second), At: now}
	err = s.write(ctx, func(t *txn) error {
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: temp.ID}, temp.Version,
			&ident.UserDeactivated{UserID: temp.ID, Reason: "merged", MergedInto: caller.ID, At: now}); err != nil {
			return err
		}
		for _, p := range org.Projects {
			out.ProjectIDs = append(out.ProjectIDs, p.ID)
			if err := t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: org.ID}, eventstore.AnyVersion,
				&ident.ProjectMoved{ProjectID: p.ID, Name: p.Name, FromOrgID: org.ID, ToOrgID: caller.OrganizationID, At: now}); err != nil {
				return err
			}
		}
		for _, k := range keys {
			out.KeyIDs = append(out.KeyIDs, k.ID)
			evs := []kernel.Event{&ident.APIKeyMoved{KeyID: k.ID, FromUserID: temp.ID, ToUserID: caller.ID,
				OrganizationID: caller.OrganizationID, At: now}}
			if k.Temporary() && !k.Revoked {
				evs = append(evs, &ident.APIKeyRevoked{KeyID: k.ID, Reason: reasonClaimed, At: now})
			}
			if err := t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: k.ID}, eventstore.AnyVersion, evs...); err != nil {
				return err
			}
		}
		if err := t.append(ctx, eventstore.Stream{Type: ident.StreamAPIKey, ID: issued.KeyID}, eventstore.NoStream, issued); err != nil {
			return err
		}
		return t.append(ctx, eventstore.Stream{Type: ident.StreamUser, ID: caller.ID}, eventstore.AnyVersion,
			&ident.IdentityMerged{UserID: caller.ID, TempUserID: temp.ID, ProjectIDs: out.ProjectIDs, KeyIDs: out.KeyIDs,
				ClaimedKeyID: issued.KeyID, At: now})
	})
	if err != nil {
		return Merged{}, err
	}
	k, _ := s.dir.APIKey(issued.KeyID)
	out.Claimed = IssuedKey{Key: k, Secret: ident.PrefixClaimed + "_" + lookup + secret}
	return out, nil
}

// claimedRefusal is the 403 for a tmp_ key whose identity was claimed.
func (s *Service) claimedRefusal(k ident.Key) error {
	c := &Claimed{}
	if nk, ok := s.dir.ClaimedKey(k.ID); ok {
		c.SuggestedID, c.SuggestedPfx = nk.ID, nk.Prefix
		if org, ok := s.dir.Organization(nk.OrganizationID); ok {
			c.WorkspaceName = org.Name
		}
	}
	return c
}
