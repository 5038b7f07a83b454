// Package photo is the photo network's adapter: the Instagram API with
// Instagram Login (Business Login for Instagram) and the Instagram Graph
// API at graph.instagram.com.
//
// OAuth: the browser is sent to Settings.AuthURL (no PKCE); the code is
// redeemed at Settings.TokenURL for a short-lived token, which is at once
// exchanged at {APIBase}/access_token (grant_type=ig_exchange_token) for a
// long-lived one (60 days, expires_in). Instagram has no refresh token:
// Refresh renews the long-lived access token itself at
// {APIBase}/refresh_access_token (grant_type=ig_refresh_token) while it is
// still valid; an expired one cannot be renewed (Unauthorized). There is
// no revocation endpoint (connections.ErrNoRevoke).
//
// Publishing creates media containers (POST /{version}/{ig-user-id}/media:
// a reel for a video, image_url for an image, a CAROUSEL of child
// containers for several media), polls each until its status_code is
// FINISHED (ERROR or EXPIRED: Refused), then publishes with
// POST /{version}/{ig-user-id}/media_publish, the one request that creates
// the post (sent once, never repeated), and reads the permalink.
//
// Insights (GET /{version}/{ig-user-id}/insights, period=day): views,
// likes, comments and shares are asked with metric_type=total_value, one
// request per UTC day (since = the day, until = the next day), since the
// API gives these metrics only as a total over the range; follower_count
// (new followers each day, a time series; only for accounts with 100
// followers or more, last 30 days) gives FollowersGained, its value ending
// at end_time counted for the day before end_time. A metric the API leaves
// out (no data) stays nil. Mapping: views→Views, likes→Likes,
// comments→Comments, shares→Shares, follower_count→FollowersGained.
package photo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
)

// The real endpoints and the Graph API version used.
const (
	DefaultAuthURL  = "https://www.instagram.com/oauth/authorize"
	DefaultTokenURL = "https://api.instagram.com/oauth/access_token"
	DefaultAPIBase  = "https://graph.instagram.com"
	Version         = "v21.0"
	label           = "the photo network"
)

// DefaultScopes are the permissions asked for when Settings.Scopes is empty.
func DefaultScopes() []string {
	return []string{"instagram_business_basic", "instagram_business_content_publish", "instagram_business_manage_insights"}
}

// Adapter is the photo network's platforms.Platform.
type Adapter struct {
	settings connections.Settings
	client   connections.Doer
	// Now is the clock token lifetimes are counted from (time.Now).
	Now func() time.Time
	// PollInterval is the wait between container status polls.
	PollInterval time.Duration
}

var _ platforms.Platform = (*Adapter)(nil)

// New returns the adapter; empty URLs and scopes in settings get the real
// platform's defaults. client is the platform's SSRF-safe client.
func New(settings connections.Settings, client connections.Doer) *Adapter {
	settings = settings.WithDefaults(connections.Settings{AuthURL: DefaultAuthURL, TokenURL: DefaultTokenURL,
		APIBase: DefaultAPIBase, Scopes: DefaultScopes()})
	return &Adapter{settings: settings, client: client, Now: time.Now, PollInterval: 5 * time.Second}
}

// Name is platforms.PhotoNetwork.
func (a *Adapter) Name() string { return platforms.PhotoNetwork }

// Label names the platform in messages.
func (a *Adapter) Label() string { return label }

// Settings are the adapter's settings, defaults filled in.
func (a *Adapter) Settings() connections.Settings { return a.settings }

// PKCE is false: Instagram's authorization takes no code_challenge.
func (a *Adapter) PKCE() bool { return false }

// AuthCodeURL is Instagram's authorization URL (scopes comma-separated).
func (a *Adapter) AuthCodeURL(state, redirectURI, _ string) string {
	q := url.Values{"client_id": {a.settings.ClientID}, "redirect_uri": {redirectURI}, "response_type": {"code"},
		"scope": {strings.Join(a.settings.Scopes, ",")}, "state": {state}}
	return a.settings.AuthURL + "?" + q.Encode()
}

// graphProblem reads a Graph API error ({error:{message, type, code,
// error_subcode, is_transient}}) or the token endpoint's {error_type,
// code, error_message}.
func graphProblem(_ int, body []byte) connections.Problem {
	var e struct {
		Error *struct {
			Message     string `json:"message"`
			Code        int    `json:"code"`
			Subcode     int    `json:"error_subcode"`
			IsTransient bool   `json:"is_transient"`
		} `json:"error"`
		ErrorType    string `json:"error_type"`
		ErrorMessage string `json:"error_message"`
	}
	if json.Unmarshal(body, &e) != nil {
		return connections.Problem{}
	}
	if e.Error == nil {
		return connections.Problem{Code: e.ErrorType, Message: e.ErrorMessage}
	}
	code := strconv.Itoa(e.Error.Code)
	if e.Error.Subcode != 0 {
		code += "/" + strconv.Itoa(e.Error.Subcode)
	}
	return connections.Problem{Code: code, Message: e.Error.Message, Transient: e.Error.IsTransient}
}

// refine: code 190 (an invalid or expired token) and the permission codes
// (10, 200-299) are Unauthorized; the rate limits (4, 17, 32, 613) and
// is_transient make a refusal Transient.
func refine(ce *connections.CallError, p connections.Problem) {
	code, _, _ := strings.Cut(p.Code, "/")
	n, _ := strconv.Atoi(code)
	switch {
	case n == 190 || n == 10 || n >= 200 && n < 300:
		ce.Class = connections.Unauthorized
	case ce.Class == connections.Refused && (n == 4 || n == 17 || n == 32 || n == 613 || p.Transient):
		ce.Class = connections.Transient
	}
}

// Exchange redeems the code and exchanges the short-lived token for a
// long-lived one.
func (a *Adapter) Exchange(ctx context.Context, code, redirectURI, _ string) (connections.Tokens, error) {
	form := url.Values{"client_id": {a.settings.ClientID}, "client_secret": {a.settings.ClientSecret},
		"grant_type": {"authorization_code"}, "redirect_uri": {redirectURI}, "code": {code}}
	req, err := connections.NewRequest(ctx, http.MethodPost, a.settings.TokenURL, form)
	if err != nil {
		return connections.Tokens{}, err
	}
	resp, err := connections.Send(ctx, a.client, req, true, graphProblem, func(ce *connections.CallError, p connections.Problem) {
		if ce.Class == connections.Refused && strings.Contains(strings.ToLower(p.Message), "code") {
			ce.Class = connections.Unauthorized
		}
	})
	if err != nil {
		return connections.Tokens{}, err
	}
	var short struct {
		Data []struct {
			AccessToken string `json:"access_token"`
			Permissions string `json:"permissions"`
		} `json:"data"`
		AccessToken string `json:"access_token"`
		Permissions any    `json:"permissions"`
	}
	if err := connections.ReadJSON(resp, &short, true); err != nil {
		return connections.Tokens{}, err
	}
	tok, scope := short.AccessToken, ""
	if len(short.Data) > 0 {
		tok, scope = short.Data[0].AccessToken, short.Data[0].Permissions
	}
	if tok == "" {
		return connections.Tokens{}, connections.Fail(connections.Transient, 0, "the code exchange answered no access token")
	}
	q := url.Values{"grant_type": {"ig_exchange_token"}, "client_secret": {a.settings.ClientSecret}, "access_token": {tok}}
	t, err := a.longLived(ctx, "/access_token?"+q.Encode())
	t.Scope = scope
	return t, err
}

// longLived GETs a long-lived token (exchange or refresh).
func (a *Adapter) longLived(ctx context.Context, path string) (connections.Tokens, error) {
	req, err := connections.NewRequest(ctx, http.MethodGet, a.settings.APIBase+path, nil)
	if err != nil {
		return connections.Tokens{}, err
	}
	resp, err := connections.Send(ctx, a.client, req, true, graphProblem, refine)
	if err != nil {
		return connections.Tokens{}, err
	}
	var ans connections.TokenAnswer
	if err := connections.ReadJSON(resp, &ans, true); err != nil {
		return connections.Tokens{}, err
	}
	if ans.AccessToken == "" {
		return connections.Tokens{}, connections.Fail(connections.Transient, 0, "no long-lived access token in the answer")
	}
	return ans.Tokens(a.Now()), nil
}

// Refresh renews the long-lived access token (Instagram has no refresh
// token: the access token renews itself while it is valid).
func (a *Adapter) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	if t.AccessToken == "" {
		return connections.Tokens{}, connections.NoRefresh(label)
	}
	if !t.Expiry.IsZero() && !a.Now().Before(t.Expiry) {
		return connections.Tokens{}, connections.Fail(connections.Unauthorized, 0, "the long-lived token has expired and cannot be renewed: reconnect the account")
	}
	q := url.Values{"grant_type": {"ig_refresh_token"}, "access_token": {t.AccessToken}}
	nt, err := a.longLived(ctx, "/refresh_access_token?"+q.Encode())
	if err == nil && nt.Scope == "" {
		nt.Scope = t.Scope
	}
	return nt, err
}

// Revoke: Instagram has no token revocation.
func (a *Adapter) Revoke(context.Context, connections.Tokens) error { return connections.ErrNoRevoke }

// Identify reads the professional account's id and username.
func (a *Adapter) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var me struct {
		UserID   json.Number `json:"user_id"`
		ID       string      `json:"id"`
		Username string      `json:"username"`
	}
	if err := a.get(ctx, t, "/"+Version+"/me?fields=user_id,username", &me); err != nil {
		return connections.Identity{}, err
	}
	id := me.UserID.String()
	if id == "" {
		id = me.ID
	}
	if id == "" {
		return connections.Identity{}, connections.Fail(connections.Transient, 0, "the account has no user_id in the answer")
	}
	return connections.Identity{ID: id, Handle: "@" + me.Username, Extra: map[string]string{"ig_user_id": id}}, nil
}

// get GETs an API path with the bearer token into v.
func (a *Adapter) get(ctx context.Context, t connections.Tokens, path string, v any) error {
	req, err := connections.NewRequest(ctx, http.MethodGet, a.settings.APIBase+path, nil)
	if err != nil {
		return err
	}
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), true, graphProblem, refine)
	if err != nil {
		return err
	}
	return connections.ReadJSON(resp, v, true)
}

// post POSTs a form to an API path; idempotent false for every call that
// creates something.
func (a *Adapter) post(ctx context.Context, t connections.Tokens, path string, form url.Values, v any) error {
	req, err := connections.NewRequest(ctx, http.MethodPost, a.settings.APIBase+path, form)
	if err != nil {
		return err
	}
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), false, graphProblem, refine)
	if err != nil {
		return err
	}
	return connections.ReadJSON(resp, v, false)
}

// userID is the account's Instagram user id.
func userID(acct connections.Identity) string {
	if id := acct.Extra["ig_user_id"]; id != "" {
		return id
	}
	return acct.ID
}
