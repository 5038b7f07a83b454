package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamAccount is the stream type of a cap-table account. Cap-table
// accounts are their own realm: they sign in to the cap table only, with
// their own tokens; a platform user reaches the cap table through
// platform-login, which links a cap-table account to the platform user.
const StreamAccount = "captable.account"

// Account kinds.
const (
	KindUser  = "user"
	KindAgent = "agent"
)

// Plans and their limits (calls a month, calls a minute; 0 = unlimited).
const (
	PlanFree         = "FREE"
	PlanStarter      = "STARTER"
	PlanProfessional = "PROFESSIONAL"
	PlanEnterprise   = "ENTERPRISE"
)

// PlanLimits are a plan's monthly quota and per-minute burst.
type PlanLimits struct {
	Monthly   int // 0 = unlimited
	PerMinute int
}

// Limits returns a plan's limits (the Free plan's for an unknown plan).
func Limits(plan string) PlanLimits {
	switch plan {
	case PlanStarter:
		return PlanLimits{Monthly: 10_000, PerMinute: 60}
	case PlanProfessional:
		return PlanLimits{Monthly: 100_000, PerMinute: 300}
	case PlanEnterprise:
		return PlanLimits{Monthly: 0, PerMinute: 1000}
	}
	return PlanLimits{Monthly: 1000, PerMinute: 10}
}

// ValidPlan reports whether plan is known.
func ValidPlan(plan string) bool {
	switch plan {
	case PlanFree, PlanStarter, PlanProfessional, PlanEnterprise:
		return true
	}
	return false
}

// AccountRegistered opens an account. PasswordHash is an argon2id PHC
// string (empty for agents and platform-linked accounts, which sign in
// otherwise). CompanyID is the company the account was created with.
type AccountRegistered struct {
	AccountID      string    `json:"accountId"`
	Kind           string    `json:"kind"`
	Name           string    `json:"name"`
	Email          string    `json:"email,omitempty"`
	PasswordHash   string    `json:"passwordHash,omitempty"`
	PlatformUserID string    `json:"platformUserId,omitempty"`
	CompanyID      string    `json:"companyId"`
	Plan           string    `json:"plan"`
	At             time.Time `json:"at"`
}

// AccountPlanChanged puts an account on a plan.
type AccountPlanChanged struct {
	AccountID string    `json:"accountId"`
	Plan      string    `json:"plan"`
	At        time.Time `json:"at"`
}

// PlatformLinked links an existing account to a platform user.
type PlatformLinked struct {
	AccountID      string    `json:"accountId"`
	PlatformUserID string    `json:"platformUserId"`
	At             time.Time `json:"at"`
}

// SessionStarted: a sign-in. RefreshHash is the SHA-256 of the session's
// refresh token (the token itself is never stored).
type SessionStarted struct {
	SessionID   string    `json:"sessionId"`
	RefreshHash string    `json:"refreshHash"`
	Method      string    `json:"method"` // password, platform, agent_key
	ExpiresAt   time.Time `json:"expiresAt"`
	At          time.Time `json:"at"`
}

// SessionRefreshed: the refresh token rotated.
type SessionRefreshed struct {
	SessionID   string    `json:"sessionId"`
	RefreshHash string    `json:"refreshHash"`
	ExpiresAt   time.Time `json:"expiresAt"`
	At          time.Time `json:"at"`
}

// SessionRevoked ends a session (a spent refresh token was presented again,
// which means it leaked: the whole session ends).
type SessionRevoked struct {
	SessionID string    `json:"sessionId"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
}

// AgentKeyIssued gives an agent account an API key for one company.
type AgentKeyIssued struct {
	KeyID     string    `json:"keyId"`
	KeyHash   string    `json:"keyHash"`
	CompanyID string    `json:"companyId"`
	Role      Role      `json:"role"`
	At        time.Time `json:"at"`
}

// UsageRecorded adds calls to an account's count for a month ("2026-11").
type UsageRecorded struct {
	AccountID string    `json:"accountId"`
	Month     string    `json:"month"`
	Calls     int       `json:"calls"`
	At        time.Time `json:"at"`
}

// EventType implementations.
func (AccountRegistered) EventType() string  { return "captable.account_registered" }
func (AccountPlanChanged) EventType() string { return "captable.account_plan_changed" }
func (PlatformLinked) EventType() string     { return "captable.platform_linked" }
func (SessionStarted) EventType() string     { return "captable.session_started" }
func (SessionRefreshed) EventType() string   { return "captable.session_refreshed" }
func (SessionRevoked) EventType() string     { return "captable.session_revoked" }
func (AgentKeyIssued) EventType() string     { return "captable.agent_key_issued" }
func (UsageRecorded) EventType() string      { return "captable.usage_recorded" }

// AccountEvents returns a constructor for every account event (v1).
func AccountEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &AccountRegistered{} },
		func() kernel.Event { return &AccountPlanChanged{} },
		func() kernel.Event { return &PlatformLinked{} },
		func() kernel.Event { return &SessionStarted{} },
		func() kernel.Event { return &SessionRefreshed{} },
		func() kernel.Event { return &SessionRevoked{} },
		func() kernel.Event { return &AgentKeyIssued{} },
		func() kernel.Event { return &UsageRecorded{} },
	}
}

// Account is the fold of an account's stream.
type Account struct {
	AccountRegistered
	Version  int64
	Sessions map[string]*Session
	Keys     map[string]AgentKeyIssued
}

// Session is a sign-in session's state.
type Session struct {
	RefreshHash string
	ExpiresAt   time.Time
	Revoked     bool
}

// Apply folds one account event.
func (a *Account) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *AccountRegistered:
		a.AccountRegistered = *e
		a.Sessions = map[string]*Session{}
		a.Keys = map[string]AgentKeyIssued{}
	case *AccountPlanChanged:
		a.Plan = e.Plan
	case *PlatformLinked:
		a.PlatformUserID = e.PlatformUserID
	case *SessionStarted:
		a.Sessions[e.SessionID] = &Session{RefreshHash: e.RefreshHash, ExpiresAt: e.ExpiresAt}
	case *SessionRefreshed:
		if s := a.Sessions[e.SessionID]; s != nil {
			s.RefreshHash, s.ExpiresAt = e.RefreshHash, e.ExpiresAt
		}
	case *SessionRevoked:
		if s := a.Sessions[e.SessionID]; s != nil {
			s.Revoked = true
		}
	case *AgentKeyIssued:
		a.Keys[e.KeyID] = *e
	}
}
