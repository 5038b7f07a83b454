package hackathon

import (
	"slices"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// InvitationTTL is how long a judge invitation can be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// Joiner is who asks to join: their user id, their account's email (lower
// case) and, to join as judge, the SHA-256 of the invitation token.
type Joiner struct {
	UserID, Email, TokenHash string
}

// invitation returns the pending invitation behind a token hash for email.
func (h *Hackathon) invitation(tokenHash, email string, at time.Time) (JudgeInvited, bool) {
	inv, ok := h.Invitations[tokenHash]
	if !ok || tokenHash == "" || inv.Email != email || h.Accepted[inv.InvitationID] || !at.Before(inv.ExpiresAt) {
		return JudgeInvited{}, false
	}
	return inv, true
}

// Join decides giving a user a role: builders and mentors join a LIVE
// hackathon; judges join with a pending invitation mailed to their address
// (organisers need none), in DRAFT or LIVE. Builders count against
// max_participants. Holding the role already changes nothing.
func (h *Hackathon) Join(j Joiner, role string, at time.Time) ([]kernel.Event, error) {
	if !slices.Contains(Roles(), role) {
		return nil, kernel.Invalid("role", "enum:builder,judge,mentor", "role is required: one of builder, judge, mentor")
	}
	inv, invited := h.invitation(j.TokenHash, j.Email, at)
	if !h.VisibleTo(j.UserID) && !(invited && role == RoleJudge) {
		return nil, NotFound(h.ID)
	}
	if err := h.open("joining"); err != nil {
		return nil, err
	}
	if h.HasRole(j.UserID, role) {
		return nil, nil
	}
	ev := &ParticipantJoined{UserID: j.UserID, Role: role, At: at}
	switch role {
	case RoleJudge:
		if !h.IsOrganizer(j.UserID) {
			if !invited {
				return nil, kernel.Forbidden("joining as judge needs a pending invitation mailed to your account's address (invitation_token)")
			}
			ev.InvitationID = inv.InvitationID
		}
	default:
		if h.Status != StatusLive {
			return nil, kernel.Conflict("the hackathon is "+h.Status+": builders and mentors join once it is LIVE", nil)
		}
	}
	if role == RoleBuilder && h.Details.MaxParticipants != nil && h.Builders >= *h.Details.MaxParticipants {
		return nil, kernel.Conflict("the hackathon is full: max_participants is "+strconv.Itoa(*h.Details.MaxParticipants), nil)
	}
	return []kernel.Event{ev}, nil
}

// Invite is one judge invitation the command layer prepared: an id, the
// address and the SHA-256 of the token it mails.
type Invite struct {
	InvitationID, Email, TokenHash string
}

// InviteJudges decides inviting addresses to judge, by an organiser,
// before COMPLETED: 1 to MaxInvites distinct addresses.
func (h *Hackathon) InviteJudges(by string, invites []Invite, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "invite judges"); err != nil {
		return nil, err
	}
	if err := h.open("inviting judges"); err != nil {
		return nil, err
	}
	if len(invites) == 0 {
		return nil, kernel.Invalid("emails", "required", "emails must list at least one address")
	}
	if len(invites) > MaxInvites {
		return nil, kernel.Invalid("emails", "max_items:"+strconv.Itoa(MaxInvites), "emails must list at most "+strconv.Itoa(MaxInvites)+" addresses")
	}
	evs := make([]kernel.Event, 0, len(invites))
	seen := map[string]bool{}
	for i, inv := range invites {
		email, err := NormalizeEmail("emails["+strconv.Itoa(i)+"]", inv.Email)
		if err != nil {
			return nil, err
		}
		if _, taken := h.Invitations[inv.TokenHash]; taken || inv.TokenHash == "" || seen[inv.TokenHash] {
			return nil, kernel.Invalid("emails", "token", "each invitation needs a new token")
		}
		seen[inv.TokenHash] = true
		if seen["email:"+email] {
			continue
		}
		seen["email:"+email] = true
		inv.Email = email
		evs = append(evs, &JudgeInvited{InvitationID: inv.InvitationID, Email: inv.Email, TokenHash: inv.TokenHash,
			ExpiresAt: at.Add(InvitationTTL), By: by, At: at})
	}
	return evs, nil
}

// NotFound is the error for a hackathon that does not exist or that the
// caller may not see.
func NotFound(id string) error { return kernel.NotFound("hackathon " + id + " not found") }
