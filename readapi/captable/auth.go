package captable

import (
	"errors"
	"net/http"

	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/commands/signin"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

type userBody struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	Kind  string `json:"kind"`
	Plan  string `json:"plan"`
}

type companyBody struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

type sessionBody struct {
	User    userBody    `json:"user"`
	Company companyBody `json:"company"`
	Created bool        `json:"created,omitempty"`
	cmd.Tokens
}

func (a *API) session(w http.ResponseWriter, r *http.Request, status int, reg cmd.Registered, created bool) {
	acct, err := a.svc.Account(r.Context(), reg.AccountID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, status, sessionBody{User: userBody{ID: acct.AccountID, Name: acct.Name, Email: acct.Email, Kind: acct.Kind, Plan: a.svc.PlanOf(acct.AccountID, acct.Plan)},
		Company: companyBody{ID: acct.CompanyID}, Created: created, Tokens: reg.Tokens})
}

func (a *API) register(w http.ResponseWriter, r *http.Request) {
	var in cmd.RegisterInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reg, err := a.svc.Register(r.Context(), in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.session(w, r, http.StatusCreated, reg, true)
}

func (a *API) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	t, account, err := a.svc.Login(r.Context(), in.Email, in.Password, clientAddr(r))
	var th *signin.Throttled
	if errors.As(err, &th) {
		err = httpx.RateLimited(th.Message, th.RetryAfter)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.session(w, r, http.StatusOK, cmd.Registered{AccountID: account, Tokens: t}, false)
}

func (a *API) refresh(w http.ResponseWriter, r *http.Request) {
	var in struct {
		RefreshToken string `json:"refreshToken"`
	}
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	t, err := a.svc.Refresh(r.Context(), in.RefreshToken)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, t)
}

func (a *API) platformLogin(w http.ResponseWriter, r *http.Request) {
	var in cmd.PlatformLoginInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reg, created, err := a.svc.PlatformLogin(r.Context(), in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	a.session(w, r, status, reg, created)
}

// logout ends the caller's session (204): its access and refresh tokens
// stop working at once.
func (a *API) logout(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	if err := a.svc.Logout(r.Context(), c.Caller); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) me(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	companies, err := proj.Companies(r.Context(), a.db, c.AccountID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]any{
		"id": c.AccountID, "name": c.Account.Name, "email": c.Account.Email, "kind": c.Account.Kind, "plan": a.svc.PlanOf(c.AccountID, c.Account.Plan),
		"companyId": c.Company, "role": c.Role, "companies": companies,
	})
}

// onboard registers an agent; with credentials, the caller's standing in
// the company is checked before the body is read (404 outside it, 403 for
// a viewer), so an outsider learns nothing from a validation error.
func (a *API) onboard(w http.ResponseWriter, r *http.Request) {
	var who *cmd.Caller
	company := ""
	if c, ok := callerFrom(r.Context()); ok {
		who = &c.Caller
		company = r.Header.Get("X-Company-ID")
		if company == "" {
			company = c.Account.CompanyID
		}
		if err := a.svc.MayOnboard(r.Context(), c.Caller, company); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	var in cmd.OnboardInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	o, err := a.svc.Onboard(r.Context(), in, who, company)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusCreated, map[string]any{
		"agentId": o.AgentID, "companyId": o.CompanyID, "role": o.Role, "apiKey": o.APIKey,
		"accessToken": o.Tokens.AccessToken, "refreshToken": o.Tokens.RefreshToken, "tokenType": "Bearer",
		"expiresIn": o.Tokens.ExpiresIn,
		"usage":     "send the apiKey as Authorization: Bearer <apiKey>; it acts only in companyId",
	})
}
