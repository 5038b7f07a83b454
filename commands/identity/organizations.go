package identity

import (
	"context"
	"strings"
	"unicode/utf8"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// CreateOrganization creates a workspace owned by the caller, with a default project.
func (s *Service) CreateOrganization(ctx context.Context, callerID, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", kernel.Invalid("name", "required", "name is required")
	}
	if utf8.RuneCountInString(name) > ident.MaxNameLen {
		return "", kernel.Invalid("name", "max_length:200", "name is longer than 200 characters")
	}
	if u, ok := s.dir.User(callerID); !ok || !u.Active || u.Temporary {
		return "", kernel.Forbidden("only a registered account can create organizations")
	}
	ev := &ident.OrganizationCreated{OrganizationID: s.cfg.NewUserID(), Name: name, OwnerID: callerID,
		ProjectID: s.cfg.NewUserID(), ProjectName: "Default project", At: s.clock.Now()}
	err := s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: ev.OrganizationID}, eventstore.NoStream, ev)
	})
	return ev.OrganizationID, err
}

// manageable checks that callerID may manage orgID's members; an
// organization the caller does not belong to is not found.
func (s *Service) manageable(orgID, callerID string) error {
	role := s.dir.Role(orgID, callerID)
	if role == "" {
		return kernel.NotFound("organization not found")
	}
	if !ident.CanManageMembers(role) {
		return kernel.Forbidden("only the organization's owner or an admin can manage its members")
	}
	return nil
}

// AddMember adds the registered user with email to orgID with role member
// or admin at once, without the user's consent. Adding an existing member
// changes the member's role. No route calls it: the API invites (Invite)
// and the invitee accepts; it remains for seeding tests and benchmarks. The
// caller's right is checked before the input.
func (s *Service) AddMember(ctx context.Context, callerID, orgID, email, role string) (ident.User, error) {
	if err := s.manageable(orgID, callerID); err != nil {
		return ident.User{}, err
	}
	if role == "" {
		role = ident.OrgMember
	}
	if role != ident.OrgMember && role != ident.OrgAdmin {
		return ident.User{}, kernel.Invalid("role", "enum:member,admin", "role must be member or admin")
	}
	norm, err := ident.NormalizeEmail("email", email)
	if err != nil {
		return ident.User{}, err
	}
	u, ok := s.dir.UserByEmail(norm)
	if !ok || !u.Active || u.Temporary {
		return ident.User{}, &kernel.Error{Kind: kernel.KindNotFound, Field: "email", Rule: "registered_user",
			Message: "no registered account has this email"}
	}
	if s.dir.Role(orgID, u.ID) == ident.OrgOwner {
		return ident.User{}, kernel.Conflict("the owner's role cannot be changed", nil)
	}
	ev := &ident.MemberAdded{OrganizationID: orgID, UserID: u.ID, Role: role, AddedBy: callerID, At: s.clock.Now()}
	return u, s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, eventstore.AnyVersion, ev)
	})
}

// RemoveMember removes userID from orgID. The owner cannot be removed; a
// member may always leave.
func (s *Service) RemoveMember(ctx context.Context, callerID, orgID, userID string) error {
	if callerID != userID {
		if err := s.manageable(orgID, callerID); err != nil {
			return err
		}
	}
	switch s.dir.Role(orgID, userID) {
	case "":
		return kernel.NotFound("member not found")
	case ident.OrgOwner:
		return kernel.Conflict("the owner cannot be removed from the organization", nil)
	}
	ev := &ident.MemberRemoved{OrganizationID: orgID, UserID: userID, RemovedBy: callerID, At: s.clock.Now()}
	return s.write(ctx, func(t *txn) error {
		return t.append(ctx, eventstore.Stream{Type: ident.StreamOrganization, ID: orgID}, eventstore.AnyVersion, ev)
	})
}
