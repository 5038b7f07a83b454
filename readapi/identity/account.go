package identity

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/identity"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

type handlers struct {
	svc     *cmd.Service
	auth    *Authenticator
	credits func(ctx context.Context, accountID string) (total, remaining int64, err error)
}

// creditsOf is an account's credits: from the credit ledger when the
// composition root gave it (Options.Credits), else identity's legacy
// balance (total and remaining alike).
func (h *handlers) creditsOf(ctx context.Context, u ident.User) (total, remaining int64, err error) {
	if h.credits == nil {
		return u.Credits, u.Credits, nil
	}
	return h.credits(ctx, u.ID)
}

// tokenResponse is the seed's token response; register adds id and email.
type tokenResponse struct {
	ID          string `json:"id,omitempty"`
	Email       string `json:"email,omitempty"`
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
	Message     string `json:"message,omitempty"`
}

func tokenOf(s cmd.Session) tokenResponse {
	return tokenResponse{AccessToken: s.AccessToken, TokenType: "bearer", ExpiresIn: s.ExpiresIn}
}

type message struct {
	Message string `json:"message"`
}

// fail writes err, turning a brute-force refusal into 429 with Retry-After.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	var th *cmd.Throttled
	if errors.As(err, &th) {
		err = httpx.RateLimited(th.Message, th.RetryAfter)
	}
	httpx.WriteError(w, r, err)
}

func reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	if err := httpx.WriteJSON(w, status, v); err != nil {
		httpx.WriteError(w, r, err)
	}
}

func (h *handlers) register(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email           string `json:"email"`
		Password        string `json:"password"`
		FullName        string `json:"full_name"`
		StripeSessionID string `json:"stripe_session_id"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	s, err := h.svc.Register(r.Context(), cmd.Register{Email: in.Email, Password: in.Password, FullName: in.FullName,
		StripeSessionID: in.StripeSessionID, Client: clientOf(r)})
	if err != nil {
		fail(w, r, err)
		return
	}
	out := tokenOf(s)
	out.ID, out.Email = s.User.ID, s.User.Email
	reply(w, r, http.StatusCreated, out)
}

func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (h *handlers) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	h.signIn(w, r, "email", in.Email, in.Password)
}

func (h *handlers) loginJSON(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	h.signIn(w, r, "username", in.Username, in.Password)
}

func (h *handlers) signIn(w http.ResponseWriter, r *http.Request, field, email, password string) {
	if email == "" {
		fail(w, r, kernel.Invalid(field, "required", field+" is required"))
		return
	}
	s, err := h.svc.Login(r.Context(), email, password, clientOf(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, tokenOf(s))
}

// jwtOnly authenticates a request that must carry a bearer JWT (refresh,
// logout act on the presented token itself).
func (h *handlers) jwtOnly(r *http.Request) (auth.Principal, *cmd.Claims, error) {
	tok, ok := bearer(r)
	if !ok {
		return auth.Principal{}, nil, kernel.Unauthenticated("send the access token as Authorization: Bearer <token>")
	}
	return h.auth.JWT(tok)
}

func (h *handlers) refresh(w http.ResponseWriter, r *http.Request) {
	p, _, err := h.jwtOnly(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		fail(w, r, err)
		return
	}
	s, err := h.svc.Refresh(r.Context(), p.UserID)
	if err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, tokenOf(s))
}

func (h *handlers) logout(w http.ResponseWriter, r *http.Request) {
	_, c, err := h.jwtOnly(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		fail(w, r, err)
		return
	}
	if err := h.svc.Logout(r.Context(), c); err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, message{Message: "logged out; the token is revoked"})
}

type profile struct {
	ID             string       `json:"id"`
	Email          string       `json:"email"`
	FullName       string       `json:"full_name"`
	Role           string       `json:"role"`
	Plan           string       `json:"plan"`
	Credits        int64        `json:"credits"`
	IsActive       bool         `json:"is_active"`
	EmailVerified  bool         `json:"email_verified"`
	OrganizationID string       `json:"organization_id"`
	Organization   organization `json:"organization"`
	ProjectID      string       `json:"project_id"`
	CreatedAt      time.Time    `json:"created_at"`
	// Plans are the account's plans in every product line it has one in
	// (domain/plans; beyond the seed): plan, status, source, period end.
	Plans map[string]plans.State `json:"plans"`
}

type organization struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (h *handlers) me(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.From(r.Context())
	u, ok := h.svc.Directory().User(p.UserID)
	if !ok {
		fail(w, r, kernel.Unauthenticated("the account is not active"))
		return
	}
	org, _ := h.svc.Directory().Organization(u.OrganizationID)
	_, remaining, err := h.creditsOf(r.Context(), u)
	if err != nil {
		fail(w, r, err)
		return
	}
	reply(w, r, http.StatusOK, profile{ID: u.ID, Email: u.Email, FullName: u.FullName, Role: u.Role, Plan: u.Plan,
		Credits: remaining, IsActive: u.Active, EmailVerified: u.EmailVerified, OrganizationID: u.OrganizationID,
		Organization: organization{ID: org.ID, Name: org.Name}, ProjectID: u.ProjectID, CreatedAt: u.CreatedAt,
		Plans: h.plansOf(u.ID)})
}

// plansOf is every line's plan of an account; the platform line is always
// there (the user's plan when no plans event recorded it).
func (h *handlers) plansOf(id string) map[string]plans.State {
	out := h.svc.Directory().Plans(id)
	if _, ok := out[plans.LinePlatform]; !ok {
		if s, _, ok := h.svc.Directory().Plan(id, plans.LinePlatform); ok {
			out[plans.LinePlatform] = s
		}
	}
	return out
}

func (h *handlers) jwks(w http.ResponseWriter, r *http.Request) {
	set, err := h.svc.Tokens().JWKS()
	if err != nil {
		fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	reply(w, r, http.StatusOK, set)
}
