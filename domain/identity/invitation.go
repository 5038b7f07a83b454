package identity

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// InvitationTTL is how long an organization invitation can be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// Invitation statuses (Invitation.Status).
const (
	StatusPending  = "pending"
	StatusAccepted = "accepted"
	StatusRevoked  = "revoked"
	StatusExpired  = "expired"
)

// InvitationSent: an owner or admin invited an email address to an
// organization with a role. Only the SHA-256 of the mailed token is kept.
// It says nothing about whether the address has an account.
type InvitationSent struct {
	InvitationID   string    `json:"invitation_id"`
	OrganizationID string    `json:"organization_id"`
	Email          string    `json:"email"`
	Role           string    `json:"role"`
	TokenHash      string    `json:"token_hash"`
	InvitedBy      string    `json:"invited_by"`
	ExpiresAt      time.Time `json:"expires_at"`
	At             time.Time `json:"at"`
}

// InvitationAccepted: the invitee, signed in with the invited address,
// accepted; a MemberAdded follows in the same append.
type InvitationAccepted struct {
	InvitationID   string    `json:"invitation_id"`
	OrganizationID string    `json:"organization_id"`
	UserID         string    `json:"user_id"`
	At             time.Time `json:"at"`
}

// InvitationRevoked: an owner or admin withdrew a pending invitation.
type InvitationRevoked struct {
	InvitationID   string    `json:"invitation_id"`
	OrganizationID string    `json:"organization_id"`
	RevokedBy      string    `json:"revoked_by"`
	At             time.Time `json:"at"`
}

// EventType implementations.
func (InvitationSent) EventType() string     { return "identity.invitation_sent" }
func (InvitationAccepted) EventType() string { return "identity.invitation_accepted" }
func (InvitationRevoked) EventType() string  { return "identity.invitation_revoked" }

func invitationEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &InvitationSent{} },
		func() kernel.Event { return &InvitationAccepted{} },
		func() kernel.Event { return &InvitationRevoked{} },
	}
}

// Invitation is the fold of one invitation's events.
type Invitation struct {
	InvitationSent
	AcceptedBy string
	AcceptedAt time.Time
	RevokedAt  time.Time
}

// Apply folds one invitation event about inv (others are ignored).
func (inv *Invitation) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *InvitationSent:
		inv.InvitationSent = *ev
	case *InvitationAccepted:
		if ev.InvitationID == inv.InvitationID {
			inv.AcceptedBy, inv.AcceptedAt = ev.UserID, ev.At
		}
	case *InvitationRevoked:
		if ev.InvitationID == inv.InvitationID {
			inv.RevokedAt = ev.At
		}
	}
}

// Status is the invitation's status at now.
func (inv Invitation) Status(now time.Time) string {
	switch {
	case inv.AcceptedBy != "":
		return StatusAccepted
	case !inv.RevokedAt.IsZero():
		return StatusRevoked
	case !now.Before(inv.ExpiresAt):
		return StatusExpired
	}
	return StatusPending
}

// CanAccept says whether user may accept the invitation at now: it must be
// pending and sent to the user's (active, registered) address. An unknown,
// used, revoked or expired invitation gives the same answer.
func (inv Invitation) CanAccept(u User, now time.Time) error {
	if inv.InvitationID == "" || inv.Status(now) != StatusPending {
		return kernel.Invalid("token", "valid_invitation", "the invitation token is invalid, already used, revoked or expired; ask for a new invitation")
	}
	if !u.Active || u.Temporary {
		return kernel.Forbidden("only a registered account can accept an invitation")
	}
	if !strings.EqualFold(u.Email, inv.Email) {
		return kernel.Forbidden("the invitation was sent to another email address; sign in with the account of that address")
	}
	return nil
}
