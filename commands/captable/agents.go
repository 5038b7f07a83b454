package captable

import (
	"context"
	stdsql "database/sql"
	"strings"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// OnboardInput is the body of POST /agents/onboard.
type OnboardInput struct {
	AgentName   string `json:"agentName"`
	CompanyName string `json:"companyName"` // without a caller: the new company the agent acts for
	Role        string `json:"role"`        // with a caller: admin (default) or viewer
}

// Onboarded is an onboarded agent: its account, the one company its key
// acts for, its role there, and the key (shown once).
type Onboarded struct {
	AgentID   string
	CompanyID string
	Role      captable.Role
	APIKey    string
	Tokens    Tokens
}

// Onboard registers an AI agent. Without a caller it is zero-friction: a
// new company is created with the agent as its owner. With a caller (an
// owner or admin of companyID), the agent joins that company with role
// admin or viewer. Either way the agent gets an API key limited to that
// one company, usable as a Bearer credential.
func (s *Service) Onboard(ctx context.Context, in OnboardInput, caller *Caller, companyID string) (Onboarded, error) {
	if caller != nil {
		if err := s.MayOnboard(ctx, *caller, companyID); err != nil {
			return Onboarded{}, err
		}
	}
	name := strings.TrimSpace(in.AgentName)
	if name == "" {
		return Onboarded{}, kernel.Invalid("agentName", "required", "agentName is required")
	}
	if len(name) > 200 {
		return Onboarded{}, kernel.Invalid("agentName", "max_length", "agentName must be at most 200 characters")
	}
	if caller == nil {
		if in.Role != "" {
			return Onboarded{}, kernel.Invalid("role", "not_allowed", "role applies when an owner or admin onboards an agent into an existing company")
		}
		reg, err := s.open(ctx, captable.AccountRegistered{Kind: captable.KindAgent, Name: name}, in.CompanyName, "agent_key")
		if err != nil {
			return Onboarded{}, err
		}
		return s.issueKey(ctx, reg.AccountID, reg.CompanyID, captable.RoleOwner, reg.Tokens)
	}
	if in.CompanyName != "" {
		return Onboarded{}, kernel.Invalid("companyName", "not_allowed", "an agent onboarded by a member joins the member's company; companyName is for onboarding without credentials")
	}
	role := captable.Role(in.Role)
	if role == "" {
		role = captable.RoleAdmin
	}
	if role != captable.RoleAdmin && role != captable.RoleViewer {
		return Onboarded{}, kernel.Invalid("role", "one_of", "role must be admin or viewer")
	}
	now := s.clock.Now()
	agent := &captable.AccountRegistered{AccountID: s.ids.NewID(), Kind: captable.KindAgent, Name: name,
		CompanyID: companyID, Plan: captable.PlanFree, At: now}
	if err := s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		_, err := s.store.AppendTx(ctx, tx, eventstore.Stream{Type: captable.StreamAccount, ID: agent.AccountID}, eventstore.NoStream, agent)
		return err
	}); err != nil {
		return Onboarded{}, err
	}
	if _, err := s.Do(ctx, companyID, func(c *captable.Company) ([]kernel.Event, error) {
		if !c.Members[caller.AccountID].CanWrite() {
			return nil, kernel.Forbidden("only an owner or admin can onboard an agent into the company")
		}
		return c.AddMember(agent.AccountID, role, now)
	}); err != nil {
		return Onboarded{}, err
	}
	t, err := s.startSession(ctx, agent.AccountID, "agent_key")
	if err != nil {
		return Onboarded{}, err
	}
	return s.issueKey(ctx, agent.AccountID, companyID, role, t)
}

func (s *Service) issueKey(ctx context.Context, account, company string, role captable.Role, t Tokens) (Onboarded, error) {
	kid, secret := s.ids.NewID(), newSecret()
	app, err := s.onAccount(ctx, account, func(*captable.Account) ([]kernel.Event, error) {
		return []kernel.Event{&captable.AgentKeyIssued{KeyID: kid, KeyHash: sha256Hex(secret), CompanyID: company, Role: role, At: s.clock.Now()}}, nil
	})
	if err != nil {
		return Onboarded{}, err
	}
	if err := s.wait(ctx, app.Last); err != nil {
		return Onboarded{}, err
	}
	return Onboarded{AgentID: account, CompanyID: company, Role: role, APIKey: opaque(keyPrefix, account, kid, secret), Tokens: t}, nil
}

// MayOnboard checks that caller may onboard an agent into companyID, before
// anything about the request is validated or written: a company the caller
// does not belong to (or, for an agent key, not its key's company) is not
// found, and only an owner or admin may (403 otherwise).
func (s *Service) MayOnboard(ctx context.Context, caller Caller, companyID string) error {
	if caller.KeyID != "" && companyID != caller.CompanyID {
		return kernel.NotFound("company " + companyID + " not found")
	}
	role, err := s.Role(ctx, companyID, caller.AccountID)
	if err != nil {
		return err
	}
	if !role.CanWrite() {
		return kernel.Forbidden("only an owner or admin can onboard an agent into the company")
	}
	return nil
}

var errBadKey = kernel.Unauthenticated("the API key is invalid")

// VerifyKey checks an agent key and returns its caller, limited to the
// key's company and role.
func (s *Service) VerifyKey(ctx context.Context, key string) (Caller, error) {
	account, kid, secret, ok := parseOpaque(keyPrefix, key)
	if !ok {
		return Caller{}, errBadKey
	}
	e := s.accounts.get(account)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.catchUpAccount(ctx, account, e); err != nil {
		return Caller{}, err
	}
	if e.account.AccountID == "" {
		s.accounts.forget(account)
		return Caller{}, errBadKey
	}
	k, found := e.account.Keys[kid]
	if !found || !sameHash(k.KeyHash, sha256Hex(secret)) {
		return Caller{}, errBadKey
	}
	return Caller{AccountID: account, KeyID: kid, CompanyID: k.CompanyID, Role: string(k.Role)}, nil
}
