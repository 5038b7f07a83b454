package accounts

import (
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// inviteState is the directory's fold of organization invitations.
type inviteState struct {
	byID    map[string]*identity.Invitation
	byToken map[string]string   // token hash -> invitation id
	byOrg   map[string][]string // organization id -> invitation ids, oldest first
}

func newInviteState() inviteState {
	return inviteState{byID: map[string]*identity.Invitation{}, byToken: map[string]string{}, byOrg: map[string][]string{}}
}

// applyInvitation folds an invitation event (d.mu held) and reports
// whether e was one.
func (d *Directory) applyInvitation(e eventstore.Envelope) bool {
	switch ev := e.Event.(type) {
	case *identity.InvitationSent:
		inv := &identity.Invitation{}
		inv.Apply(ev)
		d.invites.byID[ev.InvitationID] = inv
		d.invites.byToken[ev.TokenHash] = ev.InvitationID
		d.invites.byOrg[ev.OrganizationID] = append(d.invites.byOrg[ev.OrganizationID], ev.InvitationID)
	case *identity.InvitationAccepted:
		d.applyInvite(ev.InvitationID, ev)
	case *identity.InvitationRevoked:
		d.applyInvite(ev.InvitationID, ev)
	default:
		return false
	}
	return true
}

func (d *Directory) applyInvite(id string, ev interface{ EventType() string }) {
	if inv := d.invites.byID[id]; inv != nil {
		inv.Apply(ev)
		delete(d.invites.byToken, inv.TokenHash) // single use: a used or revoked token finds nothing
	}
}

// Invitation returns an invitation by id.
func (d *Directory) Invitation(id string) (identity.Invitation, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	inv, ok := d.invites.byID[id]
	if !ok {
		return identity.Invitation{}, false
	}
	return *inv, true
}

// InvitationByToken returns the unused, unrevoked invitation whose token
// has SHA-256 hash (it may have expired).
func (d *Directory) InvitationByToken(hash string) (identity.Invitation, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	inv, ok := d.invites.byID[d.invites.byToken[hash]]
	if !ok {
		return identity.Invitation{}, false
	}
	return *inv, true
}

// Invitations returns an organization's invitations, newest first.
func (d *Directory) Invitations(orgID string) []identity.Invitation {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ids := d.invites.byOrg[orgID]
	out := make([]identity.Invitation, 0, len(ids))
	for i := len(ids) - 1; i >= 0; i-- {
		out = append(out, *d.invites.byID[ids[i]])
	}
	return out
}
