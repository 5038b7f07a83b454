package accounts

import (
	"strings"

	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
)

// apply folds one resolved identity event into the directory (d.mu held).
func (d *Directory) apply(e eventstore.Envelope) {
	if d.applyOAuth(e) || d.applyInvitation(e) || d.applyCheckout(e) {
		return
	}
	switch ev := e.Event.(type) {
	case *plans.PlanChanged:
		d.applyPlan(ev)
	case *identity.UserRegistered:
		u := &identity.User{}
		u.Apply(ev)
		d.users[ev.UserID] = u
		d.byEmail[strings.ToLower(ev.Email)] = ev.UserID
	case *identity.PasswordResetRequested:
		if u := d.users[ev.UserID]; u != nil {
			if u.Reset.TokenHash != "" {
				delete(d.resets, u.Reset.TokenHash) // a newer token supersedes the old one
			}
			u.Apply(ev)
			d.resets[ev.TokenHash] = ev.UserID
		}
	case *identity.PasswordResetCompleted:
		delete(d.resets, ev.TokenHash)
		d.applyUser(ev.UserID, ev)
	case *identity.PasswordChanged:
		if u := d.users[ev.UserID]; u != nil && u.Reset.TokenHash != "" {
			delete(d.resets, u.Reset.TokenHash)
		}
		d.applyUser(ev.UserID, ev)
	case *identity.UserDeactivated:
		d.applyUser(ev.UserID, ev)
	case *identity.PlanChanged:
		d.applyUser(ev.UserID, ev)
	case *identity.RoleChanged:
		d.applyUser(ev.UserID, ev)
	case *identity.TokenRevoked:
		d.revoked[ev.TokenID] = ev.ExpiresAt
		d.applyUser(ev.UserID, ev) // keeps the user's version equal to its stream's
	case *identity.OrganizationCreated:
		d.orgs[ev.OrganizationID] = &Organization{ID: ev.OrganizationID, Name: ev.Name, OwnerID: ev.OwnerID,
			Members: map[string]string{ev.OwnerID: identity.OrgOwner}, CreatedAt: ev.At,
			Projects: []Project{{ID: ev.ProjectID, Name: ev.ProjectName}}}
		d.userOrgs[ev.OwnerID] = append(d.userOrgs[ev.OwnerID], ev.OrganizationID)
	case *identity.MemberAdded:
		if o := d.orgs[ev.OrganizationID]; o != nil {
			if _, already := o.Members[ev.UserID]; !already {
				d.userOrgs[ev.UserID] = append(d.userOrgs[ev.UserID], ev.OrganizationID)
			}
			o.Members[ev.UserID] = ev.Role
		}
	case *identity.MemberRemoved:
		if o := d.orgs[ev.OrganizationID]; o != nil {
			delete(o.Members, ev.UserID)
		}
	case *identity.APIKeyIssued:
		d.keys[ev.KeyID] = &identity.Key{ID: ev.KeyID, UserID: ev.UserID, OrganizationID: ev.OrganizationID,
			ProjectID: ev.ProjectID, Name: ev.Name, Prefix: ev.Prefix, Lookup: ev.Lookup, SecretHash: ev.SecretHash,
			ExpiresAt: ev.ExpiresAt, CreatedAt: ev.At}
		d.byLookup[ev.Lookup] = ev.KeyID
		d.userKeys[ev.UserID] = append(d.userKeys[ev.UserID], ev.KeyID)
	case *identity.APIKeyRevoked:
		if k := d.keys[ev.KeyID]; k != nil {
			k.Revoked, k.RevokedReason = true, ev.Reason
		}
	case *identity.APIKeyUsed:
		if k := d.keys[ev.KeyID]; k != nil {
			k.UsageCount += ev.Count
			if ev.LastUsedAt.After(k.LastUsedAt) {
				k.LastUsedAt = ev.LastUsedAt
			}
		}
	case *identity.ProjectMoved:
		d.moveProject(ev)
	case *identity.APIKeyMoved:
		if k := d.keys[ev.KeyID]; k != nil {
			k.UserID, k.OrganizationID = ev.ToUserID, ev.OrganizationID
			d.userKeys[ev.ToUserID] = append(d.userKeys[ev.ToUserID], ev.KeyID)
		}
	case *identity.IdentityMerged:
		d.applyUser(ev.UserID, ev)
		for _, kid := range ev.KeyIDs {
			d.claims[kid] = ev.ClaimedKeyID
		}
	case *identity.SigningKeyAdded:
		d.signing = append(d.signing, *ev)
	}
}

func (d *Directory) applyUser(id string, ev interface{ EventType() string }) {
	if u := d.users[id]; u != nil {
		u.Apply(ev)
	}
}

func (d *Directory) moveProject(ev *identity.ProjectMoved) {
	if from := d.orgs[ev.FromOrgID]; from != nil {
		kept := from.Projects[:0]
		for _, p := range from.Projects {
			if p.ID != ev.ProjectID {
				kept = append(kept, p)
			}
		}
		from.Projects = kept
	}
	if to := d.orgs[ev.ToOrgID]; to != nil {
		to.Projects = append(to.Projects, Project{ID: ev.ProjectID, Name: ev.Name})
	}
}
