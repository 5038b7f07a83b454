package identity

import (
	"context"

	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// userByEmail finds an active account by email for operator commands.
func (s *Service) userByEmail(email string) (ident.User, error) {
	norm, err := ident.NormalizeEmail("email", email)
	if err != nil {
		return ident.User{}, err
	}
	u, ok := s.dir.UserByEmail(norm)
	if !ok {
		return ident.User{}, kernel.NotFound("no account with email " + norm)
	}
	return u, nil
}

// SetPlan puts the account behind email on plan with a credit balance of
// credits (nil: keep the current balance).
func (s *Service) SetPlan(ctx context.Context, email, plan string, credits *int64) (ident.User, error) {
	if !ident.ValidPlan(plan) {
		return ident.User{}, kernel.Invalid("plan", "enum:free,basic,professional,enterprise", "plan must be free, basic, professional or enterprise")
	}
	if credits != nil && *credits < 0 {
		return ident.User{}, kernel.Invalid("credits", "min:0", "credits must not be negative")
	}
	u, err := s.userByEmail(email)
	if err != nil {
		return ident.User{}, err
	}
	ev := &ident.PlanChanged{UserID: u.ID, Plan: plan, Credits: u.Credits, At: s.clock.Now()}
	if credits != nil {
		ev.Credits = *credits
	}
	if err := s.appendUser(ctx, u.ID, eventstore.AnyVersion, ev); err != nil {
		return ident.User{}, err
	}
	u.Apply(ev)
	return u, nil
}

// SetRole gives the account behind email role (USER or ADMIN).
func (s *Service) SetRole(ctx context.Context, email, role string) (ident.User, error) {
	if !ident.ValidRole(role) {
		return ident.User{}, kernel.Invalid("role", "enum:USER,ADMIN", "role must be USER or ADMIN")
	}
	u, err := s.userByEmail(email)
	if err != nil {
		return ident.User{}, err
	}
	ev := &ident.RoleChanged{UserID: u.ID, Role: role, At: s.clock.Now()}
	if err := s.appendUser(ctx, u.ID, eventstore.AnyVersion, ev); err != nil {
		return ident.User{}, err
	}
	u.Apply(ev)
	return u, nil
}
