package memory

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/memory/actions"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/httpx"
)

// The connections routes (/connections...) manage the accounts the
// write-back actions act with, through Config.Connections. Memory is per
// user: a user's accounts are kept under ConnectionOwner(user id). Only
// the five action kinds are served (chat, mail, calendar, issues, notes):
// another name is 404 naming them; a kind with no provider configured on
// this server is 503; Config.Connections nil is 503 on every route.
//
//   - GET /connections (read scope): {"connections": [connection, ...]}, one
//     per configured kind in the order above, not_connected ones included
//     (provider and status only).
//   - GET /connections/{provider}/connect?redirect_uri= (write scope): 302
//     to the provider's authorization page with a JSON body
//     {authorization_url, state, expires_in}; a client that accepts JSON
//     and not HTML gets that body with 200 instead. redirect_uri defaults
//     to this service's callback on the request's own host
//     (r.Host, https when the request came over TLS or X-Forwarded-Proto
//     says https, else http: http is accepted for loopback hosts only, so
//     a deployment behind a proxy must forward the protocol, or clients
//     pass redirect_uri). It must be registered with the provider.
//   - GET /connections/{provider}/callback?code=&state= (no credentials
//     needed: the state names the user; credentials, when sent, must be
//     that user's): 200 {connected: true, connection}; a tampered,
//     expired, reused or someone else's state is 400 on state; the
//     provider's error parameter is 400 on error.
//   - POST /connections/{provider} (write scope) {access_token,
//     refresh_token, expires_in}: connects with a token the user holds,
//     once the provider accepts it (400 on access_token when it does not):
//     201 {connection}.
//   - DELETE /connections/{provider} (write scope): revoked at the
//     provider where it can be, forgotten here: 200 {disconnected: true,
//     provider, revoked_at_provider}; nothing connected 404.
//
// A connection is {provider, status (connected, needs_reconnect or
// not_connected), account_id, handle, connected_at, reason (why it needs
// reconnecting)}; tokens never appear in answers.

// ConnectionOwner is the connections owner of a memory user.
func ConnectionOwner(userID string) string { return "user:" + userID }

// connectionKinds are the provider kinds the connections routes serve,
// in the order lists show them.
func connectionKinds() []string {
	return []string{actions.ProviderChat, actions.ProviderMail, actions.ProviderCalendar, actions.ProviderIssues, actions.ProviderNotes}
}

// ActionTokens adapts the connections store to the write-back actions'
// Tokens. The actions pass the memory user id as owner; the store is asked
// for ConnectionOwner(id). No connected account is actions.NotConnected
// (409, code not_connected); an account waiting to be reconnected is a
// *connections.CallError of class Unauthorized (answered 409, code
// reconnect_required). c must not be nil.
func ActionTokens(c *connections.Service) actions.Tokens { return actionTokens{c: c} }

type actionTokens struct{ c *connections.Service }

// Token implements actions.Tokens.
func (t actionTokens) Token(ctx context.Context, owner, provider string) (connections.Tokens, connections.Identity, error) {
	tok, id, err := t.c.Token(ctx, ConnectionOwner(owner), provider)
	var ke *kernel.Error
	if err == nil || !errors.As(err, &ke) || ke.Kind != kernel.KindConflict || ke.Field != "provider" {
		return tok, id, err
	}
	acc, aerr := t.c.Account(ctx, ConnectionOwner(owner), provider)
	if aerr == nil && acc.Status == domconn.StatusNeedsReconnect {
		reason := acc.Reason
		if reason == "" {
			reason = "the account must be reconnected"
		}
		return connections.Tokens{}, connections.Identity{}, connections.Fail(connections.Unauthorized, 0, reason)
	}
	return connections.Tokens{}, connections.Identity{}, actions.NotConnected(provider)
}

// Report implements actions.Tokens.
func (t actionTokens) Report(ctx context.Context, owner, provider string, err error) {
	t.c.Report(ctx, ConnectionOwner(owner), provider, err)
}

// connectionJSON is a connection as the routes answer it.
type connectionJSON struct {
	Provider    string    `json:"provider"`
	Status      string    `json:"status"`
	AccountID   string    `json:"account_id,omitempty"`
	Handle      string    `json:"handle,omitempty"`
	ConnectedAt time.Time `json:"connected_at,omitzero"`
	Reason      string    `json:"reason,omitempty"`
}

const statusNotConnected = "not_connected"

func toConnection(a domconn.Account) connectionJSON {
	if !a.Live() {
		return connectionJSON{Provider: a.Provider, Status: statusNotConnected}
	}
	return connectionJSON{Provider: a.Provider, Status: a.Status, AccountID: a.ID, Handle: a.Handle,
		ConnectedAt: a.ConnectedAt.UTC(), Reason: a.Reason}
}

// connectionsOff is the answer when Config.Connections is nil.
func connectionsOff() error {
	return kernel.Unavailable("connected accounts are not configured on this server", nil)
}

// connectionKind reads {provider}: 404 for a name that is not one of the
// five kinds, 503 for a kind with no provider configured.
func connectionKind(svc *connections.Service, r *http.Request) (string, error) {
	k := mux.Vars(r)["provider"]
	if !slices.Contains(connectionKinds(), k) {
		if len(k) > 64 {
			k = k[:64] + "..."
		}
		return "", kernel.NotFound("there is no provider kind \"" + k + "\"; kinds: " + strings.Join(connectionKinds(), ", "))
	}
	if _, err := svc.Provider(k); err != nil {
		return "", kernel.Unavailable("connections of kind "+k+" are not configured on this server", nil)
	}
	return k, nil
}

// withConnections serves h with the connections store and the kind in the
// path (kinded), or answers 503 when there is no store.
func withConnections(svc *connections.Service, kinded bool, h func(w http.ResponseWriter, r *http.Request, c caller, kind string)) func(http.ResponseWriter, *http.Request, caller) {
	return func(w http.ResponseWriter, r *http.Request, c caller) {
		if svc == nil {
			httpx.WriteError(w, r, connectionsOff())
			return
		}
		kind := ""
		if kinded {
			k, err := connectionKind(svc, r)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			kind = k
		}
		h(w, r, c, kind)
	}
}

// connectionsList serves GET /connections.
func (a *API) connectionsList(svc *connections.Service) func(http.ResponseWriter, *http.Request, caller) {
	return withConnections(svc, false, func(w http.ResponseWriter, r *http.Request, c caller, _ string) {
		registered := svc.Names()
		var kinds []string
		for _, k := range connectionKinds() {
			if slices.Contains(registered, k) {
				kinds = append(kinds, k)
			}
		}
		out := []connectionJSON{}
		if len(kinds) == 0 {
			writeJSON(w, r, http.StatusOK, map[string]any{"connections": out}, nil)
			return
		}
		live, err := svc.List(r.Context(), ConnectionOwner(c.UserID), kinds)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		for _, k := range kinds {
			conn := connectionJSON{Provider: k, Status: statusNotConnected}
			for _, acc := range live {
				if acc.Provider == k {
					conn = toConnection(acc)
				}
			}
			out = append(out, conn)
		}
		writeJSON(w, r, http.StatusOK, map[string]any{"connections": out}, nil)
	})
}

// acceptsOnlyJSON reports whether the client asked for JSON and not for a
// page (no text/html, no */*).
func acceptsOnlyJSON(r *http.Request) bool {
	want := false
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "text/html", "*/*":
			return false
		case "application/json":
			want = true
		}
	}
	return want
}

// callbackURL is this service's callback for kind on the request's host.
func callbackURL(r *http.Request, kind string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	} else if p, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); strings.EqualFold(strings.TrimSpace(p), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host + Base + "/connections/" + kind + "/callback"
}

// connectionConnect serves GET /connections/{provider}/connect.
func (a *API) connectionConnect(svc *connections.Service) func(http.ResponseWriter, *http.Request, caller) {
	return withConnections(svc, true, func(w http.ResponseWriter, r *http.Request, c caller, kind string) {
		redirect := r.URL.Query().Get("redirect_uri")
		if redirect == "" {
			redirect = callbackURL(r, kind)
		}
		au, err := svc.Begin(r.Context(), ConnectionOwner(c.UserID), kind, redirect)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		if acceptsOnlyJSON(r) {
			writeJSON(w, r, http.StatusOK, au, nil)
			return
		}
		w.Header().Set("Location", au.URL)
		writeJSON(w, r, http.StatusFound, au, nil)
	})
}

// connectionCallback serves GET /connections/{provider}/callback, without
// requiring credentials (a browser coming back from the provider has
// none): the sealed state names the user.
func (a *API) connectionCallback(svc *connections.Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if svc == nil {
			httpx.WriteError(w, r, connectionsOff())
			return
		}
		kind, err := connectionKind(svc, r)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		q := r.URL.Query()
		if e := q.Get("error"); e != "" {
			msg := strings.TrimSpace(clip(e) + " " + clip(q.Get("error_description")))
			httpx.WriteError(w, r, kernel.Invalid("error", "authorized", "the provider did not authorize the connection: "+msg))
			return
		}
		rid := httpx.RequestID(r.Context())
		md := eventstore.Metadata{RequestID: rid, CorrelationID: rid}
		owner := ""
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-API-Key") != "" {
			p, err := a.auth.Authenticate(r)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			owner = ConnectionOwner(p.UserID)
			md.Actor, md.Tenant = p.UserID, p.OrganizationID
		}
		acc, err := svc.Complete(eventstore.WithMetadata(r.Context(), md), owner, kind, q.Get("code"), q.Get("state"))
		writeJSON(w, r, http.StatusOK, map[string]any{"connected": true, "connection": toConnection(acc)}, err)
	})
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// connectTokenBody is POST /connections/{provider}'s body.
type connectTokenBody struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    *int64 `json:"expires_in"`
}

// maxExpiresIn bounds expires_in (ten years, in seconds).
const maxExpiresIn = 10 * 365 * 24 * 3600

// connectionToken serves POST /connections/{provider}.
func (a *API) connectionToken(svc *connections.Service) func(http.ResponseWriter, *http.Request, caller) {
	return withConnections(svc, true, func(w http.ResponseWriter, r *http.Request, c caller, kind string) {
		var b connectTokenBody
		if err := httpx.DecodeJSON(r, &b); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		t := connections.Tokens{AccessToken: strings.TrimSpace(b.AccessToken), RefreshToken: strings.TrimSpace(b.RefreshToken)}
		if b.ExpiresIn != nil {
			if *b.ExpiresIn < 0 || *b.ExpiresIn > maxExpiresIn {
				httpx.WriteError(w, r, kernel.Invalid("expires_in", "range:0-315360000",
					"expires_in must be a whole number of seconds from 0 to 315360000"))
				return
			}
			if *b.ExpiresIn > 0 {
				t.Expiry = a.now().Add(time.Duration(*b.ExpiresIn) * time.Second)
			}
		}
		owner := ConnectionOwner(c.UserID)
		acc, err := svc.ConnectToken(r.Context(), owner, owner, kind, t)
		writeJSON(w, r, http.StatusCreated, map[string]any{"connection": toConnection(acc)}, err)
	})
}

// connectionDelete serves DELETE /connections/{provider}.
func (a *API) connectionDelete(svc *connections.Service) func(http.ResponseWriter, *http.Request, caller) {
	return withConnections(svc, true, func(w http.ResponseWriter, r *http.Request, c caller, kind string) {
		revoked, err := svc.Disconnect(r.Context(), ConnectionOwner(c.UserID), ConnectionOwner(c.UserID), kind)
		writeJSON(w, r, http.StatusOK, map[string]any{"disconnected": true, "provider": kind, "revoked_at_provider": revoked}, err)
	})
}

// now is the memory service's clock (the wall clock without one).
func (a *API) now() time.Time {
	if a.svc != nil {
		return a.svc.Now()
	}
	return time.Now().UTC()
}
