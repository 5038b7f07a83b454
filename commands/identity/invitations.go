package identity

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// invitationPrefix starts every invitation token, so it is recognisable.
const invitationPrefix = "inv_"

// Invitation limits, counted per process (like forgot-password): an
// inviter sends at most InviteLimit invitations an hour, and one
// organization invites one address at most InviteAddressLimit times a day,
// so invitations cannot be used to flood mailboxes. The answer over a limit
// (429) is the same whether or not the address has an account.
const (
	InviteLimit        = 50
	InviteWindow       = time.Hour
	InviteAddressLimit = 3
	InviteAddressWin   = 24 * time.Hour
)

// maxDecisionRetries bounds how often a decision on an organization's
// stream is taken again after another writer appended first.
const maxDecisionRetries = 3

// Manageable checks, before anything else about the request is looked at,
// that callerID may manage orgID's members and invitations: an
// organization the caller does not belong to is not found (404, it is not
// revealed to exist), a member without the owner or admin role is
// forbidden (403).
func (s *Service) Manageable(orgID, callerID string) error { return s.manageable(orgID, callerID) }

// Invite records an invitation of email to orgID with role member or admin
// and mails the invitee a single-use token, valid for ident.InvitationTTL.
// It does the same work and gives the same answer whether or not the
// address has an account (it never looks one up); membership starts only
// when the invitee accepts.
func (s *Service) Invite(ctx context.Context, callerID, orgID, email, role string) (ident.Invitation, error) {
	if err := s.manageable(orgID, callerID); err != nil {
		return ident.Invitation{}, err
	}
	norm, err := ident.NormalizeEmail("email", email)
	if err != nil {
		return ident.Invitation{}, err
	}
	if role == "" {
		role = ident.OrgMember
	}
	if role != ident.OrgMember && role != ident.OrgAdmin {
		return ident.Invitation{}, kernel.Invalid("role", "enum:member,admin", "role must be member or admin")
	}
	if wait, ok := s.limiter.Take("invite:"+callerID, InviteLimit, InviteWindow); !ok {
		return ident.Invitation{}, &Throttled{RetryAfter: wait, Message: fmt.Sprintf("too many invitations; try again in %d seconds", int(wait.Seconds())+1)}
	}
	if wait, ok := s.limiter.Take("invite-address:"+orgID+":"+norm, InviteAddressLimit, InviteAddressWin); !ok {
		return ident.Invitation{}, &Throttled{RetryAfter: wait, Message: fmt.Sprintf("this address was invited %d times today; try again in %d seconds", InviteAddressLimit, int(wait.Seconds())+1)}
	}
	token := invitationPrefix + randomURLSafe(32)
	now := s.clock.Now()
	ev := &ident.InvitationSent{InvitationID: s.cfg.NewUserID(), OrganizationID: orgID, Email: norm, Role: role,
		TokenHash: sha256Hex(token), InvitedBy: callerID, ExpiresAt: now.Add(ident.InvitationTTL), At: now}
	if err := s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, eventstore.AnyVersion, ev)
	}); err != nil {
		return ident.Invitation{}, err
	}
	org, _ := s.dir.Organization(orgID)
	inviter, _ := s.dir.User(callerID)
	if err := s.mailer.Send(ctx, mail.Message{To: norm, Subject: "You are invited to " + org.Name + " on Strata",
		Text: fmt.Sprintf("%s invited you to join the organization %q on Strata as %s.\n\n"+
			"Sign in (or register) with this email address, then accept within 7 days:\n"+
			"POST /api/v1/organizations/invitations/accept {\"token\": \"%s\"}\n\n"+
			"The token works once. If you do not want to join, ignore this message.\n",
			inviter.Email, org.Name, role, token)}); err != nil {
		return ident.Invitation{}, kernel.Unavailable("the invitation is recorded but its mail could not be sent; revoke it and invite again", err)
	}
	return ident.Invitation{InvitationSent: *ev}, nil
}

// Invitations lists orgID's invitations, newest first, for its owner or
// admins.
func (s *Service) Invitations(callerID, orgID string) ([]ident.Invitation, error) {
	if err := s.manageable(orgID, callerID); err != nil {
		return nil, err
	}
	return s.dir.Invitations(orgID), nil
}

// AcceptInvitation adds the signed-in caller to the invitation's
// organization with its role, once: the token must be pending (not used,
// revoked or expired) and the caller's account must have the invited
// address. The decision folds the organization's stream and appends at its
// version, so two concurrent uses of one token cannot both succeed.
func (s *Service) AcceptInvitation(ctx context.Context, callerID, token string) (ident.Invitation, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return ident.Invitation{}, kernel.Invalid("token", "required", "token is required (from the invitation mail)")
	}
	found, _ := s.dir.InvitationByToken(sha256Hex(token))
	u, _ := s.dir.User(callerID)
	for attempt := 0; ; attempt++ {
		inv, version, err := s.loadInvitation(ctx, found.OrganizationID, found.InvitationID)
		if err != nil {
			return ident.Invitation{}, err
		}
		now := s.clock.Now()
		if err := inv.CanAccept(u, now); err != nil {
			return ident.Invitation{}, err
		}
		if s.dir.Role(inv.OrganizationID, u.ID) == ident.OrgOwner {
			return ident.Invitation{}, kernel.Conflict("you own this organization; the owner's role cannot change", nil)
		}
		accepted := &ident.InvitationAccepted{InvitationID: inv.InvitationID, OrganizationID: inv.OrganizationID, UserID: u.ID, At: now}
		added := &ident.MemberAdded{OrganizationID: inv.OrganizationID, UserID: u.ID, Role: inv.Role, AddedBy: inv.InvitedBy, At: now}
		err = s.write(ctx, func(t *txn) error {
			return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: inv.OrganizationID}, version, accepted, added)
		})
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxDecisionRetries {
			continue
		}
		inv.Apply(accepted)
		return inv, err
	}
}

// RevokeInvitation withdraws a pending (or expired) invitation of orgID;
// revoking it again changes nothing. An accepted invitation is a conflict
// (remove the member instead); an unknown one is not found.
func (s *Service) RevokeInvitation(ctx context.Context, callerID, orgID, invitationID string) error {
	if err := s.manageable(orgID, callerID); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		inv, version, err := s.loadInvitation(ctx, orgID, invitationID)
		if err != nil {
			return err
		}
		switch {
		case inv.InvitationID == "":
			return kernel.NotFound("invitation not found")
		case inv.Status(s.clock.Now()) == ident.StatusAccepted:
			return kernel.Conflict("the invitation was accepted; remove the member instead", nil)
		case inv.Status(s.clock.Now()) == ident.StatusRevoked:
			return nil
		}
		ev := &ident.InvitationRevoked{InvitationID: invitationID, OrganizationID: orgID, RevokedBy: callerID, At: s.clock.Now()}
		err = s.write(ctx, func(t *txn) error {
			return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, version, ev)
		})
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxDecisionRetries {
			continue
		}
		return err
	}
}

// loadInvitation folds invitation id from its organization's stream and
// returns the stream's version; an unknown id gives a zero invitation.
func (s *Service) loadInvitation(ctx context.Context, orgID, id string) (ident.Invitation, int64, error) {
	if orgID == "" || id == "" {
		return ident.Invitation{}, 0, nil
	}
	envs, err := s.store.Load(ctx, orgID, eventstore.LoadOptions{})
	if err != nil {
		return ident.Invitation{}, 0, fmt.Errorf("load organization %s: %w", orgID, err)
	}
	var inv ident.Invitation
	var version int64
	for _, e := range envs {
		version = e.StreamVersion
		switch ev := e.Event.(type) {
		case *ident.InvitationSent:
			if ev.InvitationID == id {
				inv.Apply(ev)
			}
		case *ident.InvitationAccepted, *ident.InvitationRevoked:
			if inv.InvitationID != "" {
				inv.Apply(ev)
			}
		}
	}
	return inv, version, nil
}
