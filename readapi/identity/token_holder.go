package identity

import (
	"context"
	"fmt"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
)

// TokenHolder is the account a platform access token names, as the
// directory knows it now.
type TokenHolder struct {
	UserID        string
	Email         string
	EmailVerified bool
	FullName      string
}

// tokenHolderPath is the platform route an OAuth access token must be good
// for to sign in elsewhere: the caller's own profile (GET /api/v1/auth/me).
const tokenHolderPath = "/api/v1/auth/me"

// VerifyToken verifies a platform access token outside a platform request
// (the cap table's platform sign-in), with every check a platform route
// makes: signature under a current key, issuer, expiry, not logged out, the
// security stamp a password change or reset raised, the OAuth grant still
// active (an OAuth token must be good for GET /api/v1/auth/me), and an
// active account. It first catches the directory up with the store, so a
// logout or password change recorded by any process counts at once. API
// keys are not access tokens and are refused.
func (a *Authenticator) VerifyToken(ctx context.Context, token string) (TokenHolder, error) {
	if ident.LooksLikeKey(token) {
		return TokenHolder{}, kernel.Unauthenticated("an API key is not an access token")
	}
	dir := a.svc.Directory()
	if err := dir.CatchUp(ctx); err != nil {
		return TokenHolder{}, fmt.Errorf("verify platform token: %w", err)
	}
	var p auth.Principal
	var err error
	if cmd.IsAccessToken(token) {
		p, err = a.OAuth(token, tokenHolderPath)
	} else {
		p, _, err = a.JWT(token)
	}
	if err != nil {
		return TokenHolder{}, err
	}
	u, ok := dir.User(p.UserID)
	if !ok {
		return TokenHolder{}, kernel.Unauthenticated("the access token names no account")
	}
	return TokenHolder{UserID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified, FullName: u.FullName}, nil
}
