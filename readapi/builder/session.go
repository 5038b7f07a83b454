package builder

import (
	"context"
	stdsql "database/sql"
	"errors"
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/projections/foundersessions"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Cookies: the founder session, and the short-lived one that carries a
// sign-in from /auth/login to /auth/callback.
const (
	sessionCookie = "strata_founder"
	loginCookie   = "strata_founder_login"
)

// Founders serves founder sessions and authenticates the builder's
// session endpoints.
type Founders struct {
	sessions *cmd.Sessions
	db       *stdsql.DB
	clock    kernel.Clock
	secure   bool
}

type founderKey struct{}

// Founder returns the signed-in founder of a request that passed Require.
func Founder(ctx context.Context) (foundersessions.Session, bool) {
	s, ok := ctx.Value(founderKey{}).(foundersessions.Session)
	return s, ok
}

// Require answers 401 unless the request carries a live founder session
// cookie, and otherwise serves next with the session in its context.
func (f *Founders) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := f.session(r)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), founderKey{}, s)))
	})
}

func (f *Founders) session(r *http.Request) (foundersessions.Session, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return foundersessions.Session{}, kernel.Unauthenticated("no founder session: sign in at /auth/login")
	}
	s, ok, err := foundersessions.Lookup(r.Context(), f.db, cmd.HashCookie(c.Value), f.clock.Now())
	if err != nil {
		return foundersessions.Session{}, err
	}
	if !ok {
		return foundersessions.Session{}, kernel.Unauthenticated("the founder session has ended or expired: sign in at /auth/login")
	}
	return s, nil
}

func (f *Founders) cookie(w http.ResponseWriter, name, value, path string, expires time.Time) {
	c := &http.Cookie{Name: name, Value: value, Path: path, HttpOnly: true, Secure: f.secure, SameSite: http.SameSiteLaxMode}
	if value == "" {
		c.MaxAge = -1
	} else {
		c.Expires = expires
	}
	http.SetCookie(w, c)
}

// login is GET /auth/login[?return_to=/path]: it redirects to the
// platform's authorization endpoint with PKCE, state and nonce.
func (f *Founders) login(w http.ResponseWriter, r *http.Request) {
	authURL, value, exp := f.sessions.Begin(r.URL.Query().Get("return_to"))
	f.cookie(w, loginCookie, value, "/auth", exp)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, authURL, http.StatusFound)
}

// callback is GET /auth/callback: it completes the sign-in, sets the
// session cookie and sends the browser on (303).
func (f *Founders) callback(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(loginCookie)
	value := ""
	if err == nil {
		value = c.Value
	}
	signed, err := f.sessions.Complete(r.Context(), value, r.URL.Query())
	f.cookie(w, loginCookie, "", "/auth", time.Time{}) // single use, whatever happened
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f.cookie(w, sessionCookie, signed.Cookie, "/", signed.ExpiresAt)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, signed.ReturnTo, http.StatusSeeOther)
}

// logout is POST /auth/logout: 204, the session ended and its refresh token
// revoked; without a session it is 204 too (nothing to end).
func (f *Founders) logout(w http.ResponseWriter, r *http.Request) {
	s, err := f.session(r)
	if err == nil {
		err = f.sessions.End(r.Context(), s.ID, s.SealedTokens)
	} else if kernel.KindOf(err) == kernel.KindUnauthenticated {
		err = nil
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f.cookie(w, sessionCookie, "", "/", time.Time{})
	w.WriteHeader(http.StatusNoContent)
}

type sessionView struct {
	User struct {
		ID    string `json:"id"`
		Email string `json:"email"`
		Name  string `json:"name"`
	} `json:"user"`
	Scope      string    `json:"scope"`
	SignedInAt time.Time `json:"signed_in_at"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// current is GET /api/session: the signed-in founder.
func (f *Founders) current(w http.ResponseWriter, r *http.Request) {
	s, ok := Founder(r.Context())
	if !ok {
		httpx.WriteError(w, r, errors.New("founder session missing from a Require'd route"))
		return
	}
	var v sessionView
	v.User.ID, v.User.Email, v.User.Name = s.UserID, s.Email, s.Name
	v.Scope, v.SignedInAt, v.ExpiresAt = s.Scope, s.SignedInAt.UTC(), s.ExpiresAt.UTC()
	w.Header().Set("Cache-Control", "no-store")
	if err := httpx.WriteJSON(w, http.StatusOK, v); err != nil {
		httpx.WriteError(w, r, err)
	}
}
