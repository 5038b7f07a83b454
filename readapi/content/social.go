package content

import (
	"mime"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/content"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// platformVar reads {platform}: 404 for a name that is not a platform.
func platformVar(r *http.Request) (string, error) {
	p := mux.Vars(r)["platform"]
	if !content.ValidPlatform(p) {
		return "", kernel.NotFound("there is no platform " + trim(p) + "; platforms: " + strings.Join(content.Platforms, ", "))
	}
	return p, nil
}

// wantsJSON reports whether the client asked for JSON and not for a page.
func wantsJSON(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && (mt == "text/html" || mt == "*/*") {
			return false
		}
	}
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// connect serves GET /social/connect/{platform}?redirect_uri=: a redirect
// (302) to the platform's authorization page, with a state bound to the
// caller and PKCE where the platform takes it. A client that accepts only
// JSON gets 200 {authorization_url, state, expires_in} instead. The
// redirect_uri (default: this server's callback) must be registered with
// the platform; whoever receives the code passes it, with the state, to
// /social/callback/{platform}.
func (a *API) connect(w http.ResponseWriter, r *http.Request, c caller) {
	p, err := platformVar(r)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	redirect := r.URL.Query().Get("redirect_uri")
	if redirect == "" {
		redirect = strings.TrimRight(a.cfg.BaseURL, "/") + Base + "/social/callback/" + p
	}
	auth, err := a.cfg.Connections.Begin(r.Context(), c.actor.Owner, p, redirect)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, auth, nil)
		return
	}
	w.Header().Set("Location", auth.URL)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, r, http.StatusFound, auth, nil)
}

// accountJSON is a connected account.
type accountJSON struct {
	ID          string `json:"id"`
	Platform    string `json:"platform"`
	Handle      string `json:"handle"`
	ConnectedAt string `json:"connected_at"`
	Status      string `json:"status"`
	Reason      string `json:"reason,omitempty"`
}

func toAccount(acc domconn.Account) accountJSON {
	return accountJSON{ID: acc.ID, Platform: acc.Provider, Handle: acc.Handle, ConnectedAt: ts(acc.ConnectedAt), Status: acc.Status,
		Reason: acc.Reason}
}

// callback serves GET /social/callback/{platform}?code=&state=: the code
// is exchanged and the tokens stored sealed. The state alone says whose
// account it is (a browser arriving from the platform carries no
// credentials); a request that does carry credentials must be the same
// owner's. A tampered, expired or reused state is 400.
func (a *API) callback(w http.ResponseWriter, r *http.Request) {
	p, err := platformVar(r)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		writeErr(w, r, kernel.Invalid("error", "authorized", "the platform did not authorize the connection: "+trim(e)+" "+trim(q.Get("error_description"))))
		return
	}
	caller := ""
	if r.Header.Get("Authorization") != "" || r.Header.Get("X-API-Key") != "" {
		pr, err := a.cfg.Auth.Authenticate(r)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		caller = cmd.OwnerOf(pr.OrganizationID, pr.UserID)
	}
	acc, err := a.cfg.Connections.Complete(r.Context(), caller, p, q.Get("code"), q.Get("state"))
	if err != nil {
		writeErr(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"connected": true, "account": toAccount(acc)}, nil)
}

// accounts serves GET /social/accounts: {accounts: [...]}, the owner's
// connected social accounts (status connected or needs_reconnect).
func (a *API) accounts(w http.ResponseWriter, r *http.Request, c caller) {
	list, err := a.cfg.Connections.List(r.Context(), c.actor.Owner, content.Platforms)
	out := []accountJSON{}
	for _, acc := range list {
		out = append(out, toAccount(acc))
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"accounts": out}, err)
}

// disconnect serves DELETE /social/disconnect/{platform}: revoked at the
// platform where it can be, tokens forgotten; nothing connected: 404.
func (a *API) disconnect(w http.ResponseWriter, r *http.Request, c caller) {
	p, err := platformVar(r)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	revoked, err := a.cfg.Connections.Disconnect(r.Context(), c.actor.Owner, c.UserID, p)
	writeJSON(w, r, http.StatusOK, map[string]any{"disconnected": true, "platform": p, "revoked_at_platform": revoked}, err)
}
