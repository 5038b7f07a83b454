package captable

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// caller is the authenticated caller of a request and the company it acts
// in, with its role there.
type caller struct {
	cmd.Caller
	Account captable.AccountRegistered
	Company string
	Role    captable.Role
}

type callerKey struct{}

func callerFrom(ctx context.Context) (caller, bool) {
	c, ok := ctx.Value(callerKey{}).(caller)
	return c, ok
}

// bearer returns the request's bearer credential.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// limit authenticates the caller when credentials are present, counts the
// call against its plan (or the client address's anonymous budget), and
// sets X-RateLimit-Limit, -Remaining and -Reset on every response; over the
// limit it answers 429 with Retry-After.
func (a *API) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q cmd.Quota
		ctx := r.Context()
		if tok := bearer(r); tok != "" {
			c, err := a.authenticate(ctx, tok)
			if err != nil {
				q = a.svc.TakeAnonymous(clientAddr(r))
				setQuota(w, q)
				httpx.WriteError(w, r, err)
				return
			}
			if q, err = a.svc.Take(ctx, c.AccountID, a.svc.PlanOf(c.AccountID, c.Account.Plan)); err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			ctx = context.WithValue(ctx, callerKey{}, c)
		} else {
			q = a.svc.TakeAnonymous(clientAddr(r))
		}
		setQuota(w, q)
		if !q.Allowed {
			wait := max(q.Reset.Sub(a.svc.Now()), time.Second)
			httpx.WriteError(w, r, httpx.RateLimited("rate limit exceeded for your plan; retry after the reset time", wait))
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func setQuota(w http.ResponseWriter, q cmd.Quota) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(q.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(q.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(q.Reset.Unix(), 10))
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// authenticate verifies an access token or an agent key and loads the
// account; an access token's session must still be live.
func (a *API) authenticate(ctx context.Context, tok string) (caller, error) {
	var c caller
	var err error
	if cmd.IsAgentKey(tok) {
		c.Caller, err = a.svc.VerifyKey(ctx, tok)
	} else {
		c.Caller, err = a.svc.VerifyAccess(tok)
	}
	if err != nil {
		return c, err
	}
	c.Account, err = a.svc.LiveAccount(ctx, c.Caller)
	return c, err
}

// signedIn requires a caller, in no particular company.
func signedIn(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := callerFrom(r.Context()); !ok {
			httpx.WriteError(w, r, kernel.Unauthenticated("Authorization: Bearer <token> is required"))
			return
		}
		next(w, r)
	})
}

// member requires a caller and resolves the company the request acts in:
// an agent key's own company; else X-Company-ID (or ?companyId=); else the
// account's own company. A company the caller does not belong to is 404.
// write additionally requires the owner or admin role (403 otherwise).
func (a *API) member(write bool, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := callerFrom(r.Context())
		if !ok {
			httpx.WriteError(w, r, kernel.Unauthenticated("Authorization: Bearer <token> is required"))
			return
		}
		company := r.Header.Get("X-Company-ID")
		if company == "" {
			company = r.URL.Query().Get("companyId")
		}
		switch {
		case c.KeyID != "" && company != "" && company != c.CompanyID:
			httpx.WriteError(w, r, kernel.NotFound("company "+company+" not found"))
			return
		case c.KeyID != "":
			company = c.CompanyID
		case company == "":
			company = c.Account.CompanyID
		}
		role, err := a.svc.Role(r.Context(), company, c.AccountID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		c.Company, c.Role = company, role
		if write && !role.CanWrite() {
			httpx.WriteError(w, r, kernel.Forbidden("your role ("+string(role)+") may read this company's cap table but not change it"))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, c)))
	})
}
