package identity

import "strings"

// ProfileClaims are the OpenID Connect claims about a user that the scopes
// release (seed 000, "Userinfo claims"): email and email_verified with
// email; name, given_name, family_name and plan with profile.
type ProfileClaims struct {
	Email         string `json:"email,omitempty"`
	EmailVerified *bool  `json:"email_verified,omitempty"`
	Name          string `json:"name,omitempty"`
	GivenName     string `json:"given_name,omitempty"`
	FamilyName    string `json:"family_name,omitempty"`
	Plan          string `json:"plan,omitempty"`
}

// Profile returns the claims scope releases about u. A full name is split
// at its first space: given name before, family name after (a one-word
// name has no family name).
func Profile(u User, scope string) ProfileClaims {
	var p ProfileClaims
	if HasScope(scope, "email") {
		v := u.EmailVerified
		p.Email, p.EmailVerified = u.Email, &v
	}
	if HasScope(scope, "profile") {
		p.Name = strings.TrimSpace(u.FullName)
		p.GivenName, p.FamilyName, _ = strings.Cut(p.Name, " ")
		p.FamilyName = strings.TrimSpace(p.FamilyName)
		p.Plan = u.Plan
	}
	return p
}
