// Package identity is the platform identity domain: accounts, organizations
// (workspaces) and their projects, API keys, password and key rules, and the
// pure decisions over them. It imports only the kernel: hashing, signing and
// storage live in commands/identity.
package identity

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the identity context.
const (
	StreamUser         = "identity.user"
	StreamOrganization = "identity.organization"
	StreamAPIKey       = "identity.api_key"
	StreamSigningKeys  = "identity.signing_keys"
)

// SigningKeysStreamID is the id of the one stream holding the JWT signing keys.
const SigningKeysStreamID = "identity-signing-keys"

// UserRegistered: an account was created (also a temporary one). A
// Provisioned account was created from a paid checkout (StripeSessionID)
// with a random password nobody knows: it awaits completion by its owner
// (AccountCompleted, or a password set with the mailed link).
type UserRegistered struct {
	UserID          string    `json:"user_id"`
	Email           string    `json:"email"` // as typed; compared case-insensitively
	FullName        string    `json:"full_name"`
	PasswordHash    string    `json:"password_hash,omitempty"` // PHC string; empty for temporary users
	Role            string    `json:"role"`
	Plan            string    `json:"plan"`
	Credits         int64     `json:"credits"`
	OrganizationID  string    `json:"organization_id"`
	ProjectID       string    `json:"project_id"`
	Temporary       bool      `json:"temporary,omitempty"`
	StripeSessionID string    `json:"stripe_session_id,omitempty"`
	EmailVerified   bool      `json:"email_verified,omitempty"` // vouched for by a social provider
	Provisioned     bool      `json:"provisioned,omitempty"`    // from a paid checkout; awaits completion
	At              time.Time `json:"at"`
}

// PasswordChanged: the owner changed the password; tokens issued before it
// (security stamp below SecurityStamp) stop working.
type PasswordChanged struct {
	UserID        string    `json:"user_id"`
	PasswordHash  string    `json:"password_hash"`
	SecurityStamp int64     `json:"security_stamp"`
	At            time.Time `json:"at"`
}

// PasswordResetRequested: a single-use reset token was issued; only its
// SHA-256 is recorded. A newer request supersedes older tokens.
type PasswordResetRequested struct {
	UserID    string    `json:"user_id"`
	TokenHash string    `json:"token_hash"`
	ExpiresAt time.Time `json:"expires_at"`
	Purpose   string    `json:"purpose,omitempty"` // PurposeSetPassword, or empty (forgot-password)
	At        time.Time `json:"at"`
}

// PasswordResetCompleted: a reset token was used to set a new password.
type PasswordResetCompleted struct {
	UserID        string    `json:"user_id"`
	TokenHash     string    `json:"token_hash"`
	PasswordHash  string    `json:"password_hash"`
	SecurityStamp int64     `json:"security_stamp"`
	At            time.Time `json:"at"`
}

// TokenRevoked: a bearer token was logged out; it is refused until it expires.
type TokenRevoked struct {
	UserID    string    `json:"user_id"`
	TokenID   string    `json:"token_id"` // the jti
	ExpiresAt time.Time `json:"expires_at"`
	At        time.Time `json:"at"`
}

// UserDeactivated: the account can no longer sign in or use its tokens.
type UserDeactivated struct {
	UserID     string    `json:"user_id"`
	Reason     string    `json:"reason"`
	MergedInto string    `json:"merged_into,omitempty"`
	At         time.Time `json:"at"`
}

// PlanChanged: the user's plan and credit balance were set.
type PlanChanged struct {
	UserID  string    `json:"user_id"`
	Plan    string    `json:"plan"`
	Credits int64     `json:"credits"`
	At      time.Time `json:"at"`
}

// RoleChanged: the user's role was set (USER, ADMIN).
type RoleChanged struct {
	UserID string    `json:"user_id"`
	Role   string    `json:"role"`
	At     time.Time `json:"at"`
}

// OrganizationCreated: a workspace was created with its first project and
// its owner as first member.
type OrganizationCreated struct {
	OrganizationID string    `json:"organization_id"`
	Name           string    `json:"name"`
	OwnerID        string    `json:"owner_id"`
	ProjectID      string    `json:"project_id"`
	ProjectName    string    `json:"project_name"`
	At             time.Time `json:"at"`
}

// APIKeyIssued: an API key was created; only its lookup id and its hash are
// recorded, never the secret.
type APIKeyIssued struct {
	KeyID          string    `json:"key_id"`
	UserID         string    `json:"user_id"`
	OrganizationID string    `json:"organization_id"`
	ProjectID      string    `json:"project_id"`
	Name           string    `json:"name"`
	Prefix         string    `json:"prefix"` // "sk_live", "sk_test", "tmp", "sdb_live"
	Lookup         string    `json:"lookup"` // public part of the key, indexes it
	SecretHash     string    `json:"secret_hash"`
	ExpiresAt      time.Time `json:"expires_at"`
	At             time.Time `json:"at"`
}

// APIKeyRevoked: the key stops working from this event on.
type APIKeyRevoked struct {
	KeyID  string    `json:"key_id"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// APIKeyUsed aggregates the use of a key over a flush interval: Count more
// requests, the last at LastUsedAt.
type APIKeyUsed struct {
	KeyID      string    `json:"key_id"`
	Count      int64     `json:"count"`
	LastUsedAt time.Time `json:"last_used_at"`
}

// MemberAdded: a user joined an organization with a role (member, admin).
type MemberAdded struct {
	OrganizationID string    `json:"organization_id"`
	UserID         string    `json:"user_id"`
	Role           string    `json:"role"`
	AddedBy        string    `json:"added_by"`
	At             time.Time `json:"at"`
}

// MemberRemoved: a user left an organization.
type MemberRemoved struct {
	OrganizationID string    `json:"organization_id"`
	UserID         string    `json:"user_id"`
	RemovedBy      string    `json:"removed_by"`
	At             time.Time `json:"at"`
}

// ProjectMoved: a project left one organization for another (a claimed
// temporary identity's project joins the claimer's workspace).
type ProjectMoved struct {
	ProjectID string    `json:"project_id"`
	Name      string    `json:"name"`
	FromOrgID string    `json:"from_organization_id"`
	ToOrgID   string    `json:"to_organization_id"`
	At        time.Time `json:"at"`
}

// APIKeyMoved: a key changed owner (identity merge); it keeps its project.
type APIKeyMoved struct {
	KeyID          string    `json:"key_id"`
	FromUserID     string    `json:"from_user_id"`
	ToUserID       string    `json:"to_user_id"`
	OrganizationID string    `json:"organization_id"`
	At             time.Time `json:"at"`
}

// IdentityMerged: the user claimed a temporary identity: its projects and
// keys moved to the user, the tmp_ key was replaced by ClaimedKeyID.
type IdentityMerged struct {
	UserID       string    `json:"user_id"`
	TempUserID   string    `json:"temp_user_id"`
	ProjectIDs   []string  `json:"project_ids"`
	KeyIDs       []string  `json:"key_ids"`
	ClaimedKeyID string    `json:"claimed_key_id"`
	At           time.Time `json:"at"`
}

// SigningKeyAdded: a JWT signing key pair was generated. The private key is
// sealed with the server's master key (AES-256-GCM); the public key is
// published in the JWKS. The newest key signs; older ones keep verifying.
type SigningKeyAdded struct {
	KeyID         string    `json:"kid"`
	Algorithm     string    `json:"alg"`
	PublicKeyDER  []byte    `json:"public_key_der"` // PKIX
	SealedPrivate []byte    `json:"sealed_private"` // AES-GCM(nonce || ciphertext) of PKCS#8
	MasterKeyID   string    `json:"master_key_id"`  // which master key sealed it
	At            time.Time `json:"at"`
}

// EventType implementations: the stable names the events are stored under.
func (UserRegistered) EventType() string         { return "identity.user_registered" }
func (PasswordChanged) EventType() string        { return "identity.password_changed" }
func (PasswordResetRequested) EventType() string { return "identity.password_reset_requested" }
func (PasswordResetCompleted) EventType() string { return "identity.password_reset_completed" }
func (TokenRevoked) EventType() string           { return "identity.token_revoked" }
func (UserDeactivated) EventType() string        { return "identity.user_deactivated" }
func (PlanChanged) EventType() string            { return "identity.plan_changed" }
func (RoleChanged) EventType() string            { return "identity.role_changed" }
func (OrganizationCreated) EventType() string    { return "identity.organization_created" }
func (APIKeyIssued) EventType() string           { return "identity.api_key_issued" }
func (APIKeyRevoked) EventType() string          { return "identity.api_key_revoked" }
func (APIKeyUsed) EventType() string             { return "identity.api_key_used" }
func (SigningKeyAdded) EventType() string        { return "identity.signing_key_added" }
func (ProjectMoved) EventType() string           { return "identity.project_moved" }
func (APIKeyMoved) EventType() string            { return "identity.api_key_moved" }
func (IdentityMerged) EventType() string         { return "identity.identity_merged" }
func (MemberAdded) EventType() string            { return "identity.member_added" }
func (MemberRemoved) EventType() string          { return "identity.member_removed" }

// Events returns a zero value constructor for every identity event, for
// registration in cmd/strata (all at schema version 1).
func Events() []func() kernel.Event {
	return append([]func() kernel.Event{
		func() kernel.Event { return &UserRegistered{} },
		func() kernel.Event { return &PasswordChanged{} },
		func() kernel.Event { return &PasswordResetRequested{} },
		func() kernel.Event { return &PasswordResetCompleted{} },
		func() kernel.Event { return &TokenRevoked{} },
		func() kernel.Event { return &UserDeactivated{} },
		func() kernel.Event { return &PlanChanged{} },
		func() kernel.Event { return &RoleChanged{} },
		func() kernel.Event { return &OrganizationCreated{} },
		func() kernel.Event { return &APIKeyIssued{} },
		func() kernel.Event { return &APIKeyRevoked{} },
		func() kernel.Event { return &APIKeyUsed{} },
		func() kernel.Event { return &SigningKeyAdded{} },
		func() kernel.Event { return &ProjectMoved{} },
		func() kernel.Event { return &APIKeyMoved{} },
		func() kernel.Event { return &IdentityMerged{} },
		func() kernel.Event { return &MemberAdded{} },
		func() kernel.Event { return &MemberRemoved{} },
	}, append(append(oauthEvents(), invitationEvents()...), checkoutEvents()...)...)
}
