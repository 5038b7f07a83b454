package identity

import (
	"net/mail"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Roles. The seed shows USER; ADMIN may read the event log.
const (
	RoleUser  = "USER"
	RoleAdmin = "ADMIN"
)

// Plans a user can be on. Free is the default; the others are paid tiers.
const (
	PlanFree         = "free"
	PlanBasic        = "basic"
	PlanProfessional = "professional"
	PlanEnterprise   = "enterprise"
)

// Lifetimes from the seed.
const (
	AccessTokenTTL     = 28800 * time.Second
	DefaultKeyLifetime = 90 // days
	MaxKeyLifetime     = 3650
	TemporaryKeyTTL    = 72 * time.Hour
	ResetTokenTTL      = time.Hour
	MaxEmailLen        = 254
	MaxNameLen         = 200
)

// Organization roles. The creator is the owner; owners and admins manage members.
const (
	OrgOwner  = "owner"
	OrgAdmin  = "admin"
	OrgMember = "member"
)

// CanManageMembers reports whether an organization role may add and remove members.
func CanManageMembers(role string) bool { return role == OrgOwner || role == OrgAdmin }

// ValidPlan reports whether p names a plan.
func ValidPlan(p string) bool {
	switch p {
	case PlanFree, PlanBasic, PlanProfessional, PlanEnterprise:
		return true
	}
	return false
}

// ValidRole reports whether r names a role.
func ValidRole(r string) bool { return r == RoleUser || r == RoleAdmin }

// NormalizeEmail returns the comparison form of an email (trimmed, lower
// case) after checking it is a single bare address.
func NormalizeEmail(field, email string) (string, error) {
	e := strings.TrimSpace(email)
	if e == "" {
		return "", kernel.Invalid(field, "required", field+" is required")
	}
	if len(e) > MaxEmailLen {
		return "", kernel.Invalid(field, "max_length:254", field+" is longer than 254 characters")
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndexByte(e, '@')+1:], ".") {
		return "", kernel.Invalid(field, "email", field+" must be an email address like name@example.com")
	}
	return strings.ToLower(e), nil
}

// User is the state of one account, folded from its stream.
type User struct {
	ID             string
	Email          string
	FullName       string
	PasswordHash   string
	Role           string
	Plan           string
	Credits        int64
	OrganizationID string
	ProjectID      string
	Temporary      bool
	EmailVerified  bool
	Active         bool
	MergedInto     string
	SecurityStamp  int64
	CreatedAt      time.Time
	// Reset is the newest reset token, if one is outstanding.
	Reset struct {
		TokenHash string
		ExpiresAt time.Time
		Used      bool
	}
	// AwaitingCompletion: provisioned from a checkout and not yet taken
	// over by its owner (no name or password of their own).
	AwaitingCompletion bool
	Version            int64
}

// Apply folds one event of the user's stream into u.
func (u *User) Apply(e kernel.Event) {
	u.Version++
	switch ev := e.(type) {
	case *UserRegistered:
		*u = User{ID: ev.UserID, Email: ev.Email, FullName: ev.FullName, PasswordHash: ev.PasswordHash,
			Role: ev.Role, Plan: ev.Plan, Credits: ev.Credits, OrganizationID: ev.OrganizationID,
			ProjectID: ev.ProjectID, Temporary: ev.Temporary, EmailVerified: ev.EmailVerified, Active: true,
			AwaitingCompletion: ev.Provisioned, CreatedAt: ev.At, Version: u.Version}
	case *SocialIdentityLinked:
		if ev.EmailVerified && strings.EqualFold(ev.Email, u.Email) {
			u.EmailVerified = true
		}
	case *PasswordChanged:
		u.PasswordHash, u.SecurityStamp = ev.PasswordHash, ev.SecurityStamp
		u.Reset.Used = true // a reset link mailed before the change no longer works
	case *PasswordResetRequested:
		u.Reset.TokenHash, u.Reset.ExpiresAt, u.Reset.Used = ev.TokenHash, ev.ExpiresAt, false
	case *PasswordResetCompleted:
		u.PasswordHash, u.SecurityStamp, u.Reset.Used = ev.PasswordHash, ev.SecurityStamp, true
		u.AwaitingCompletion = false // the owner chose a password with the mailed link
	case *AccountCompleted:
		u.FullName, u.PasswordHash, u.SecurityStamp = ev.FullName, ev.PasswordHash, ev.SecurityStamp
		u.AwaitingCompletion, u.Reset.Used = false, true
	case *UserDeactivated:
		u.Active, u.MergedInto = false, ev.MergedInto
	case *PlanChanged:
		u.Plan, u.Credits = ev.Plan, ev.Credits
	case *RoleChanged:
		u.Role = ev.Role
	}
}

// CanReset decides whether tokenHash resets u's password at now: it must be
// the newest token issued, unused and unexpired. Every refusal is the same
// error, so a caller learns nothing about which check failed.
func (u *User) CanReset(tokenHash string, now time.Time) error {
	bad := kernel.Invalid("token", "valid_reset_token", "the reset token is invalid or has expired; request a new one")
	if !u.Active || u.Reset.TokenHash == "" || u.Reset.Used || u.Reset.TokenHash != tokenHash || !now.Before(u.Reset.ExpiresAt) {
		return bad
	}
	return nil
}
