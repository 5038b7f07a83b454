// Package shortvideo is the short-video platform's adapter: TikTok Login
// Kit v2 (OAuth 2 with client_key instead of client_id, PKCE S256) and the
// Content Posting API's direct post with a FILE_UPLOAD source.
//
// Publishing queries the creator info for the privacy levels the account
// allows (PUBLIC_TO_EVERYONE when offered, else the first), initialises
// the post (POST /v2/post/publish/video/init/), PUTs the video to the
// upload URL in chunks by TikTok's rules (one chunk up to 64 MB; above,
// 10 MiB chunks, the last one taking the remainder) and polls
// /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE or FAILED. The
// last chunk is the request that makes TikTok post: once it was sent, no
// failure is reported as Transient (the post may exist); a last chunk
// whose answer was lost is settled by asking the status.
//
// Insights: TikTok reports lifetime counts per video (video.list's
// view_count, like_count, comment_count, share_count) and the account's
// current follower_count, never a figure per day; a daily number cannot
// be stated from them, so Insights returns the days asked for with every
// number nil (and makes no request).
package shortvideo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// The real endpoints.
const (
	DefaultAuthURL   = "https://www.tiktok.com/v2/auth/authorize/"
	DefaultTokenURL  = "https://open.tiktokapis.com/v2/oauth/token/"
	DefaultRevokeURL = "https://open.tiktokapis.com/v2/oauth/revoke/"
	DefaultAPIBase   = "https://open.tiktokapis.com"
	label            = "the short-video platform"
)

// DefaultScopes are the scopes asked for when Settings.Scopes is empty.
func DefaultScopes() []string {
	return []string{"user.info.basic", "video.publish", "video.list", "user.info.stats"}
}

// Adapter is the short-video platform's platforms.Platform.
type Adapter struct {
	settings connections.Settings
	client   connections.Doer
	// Now is the clock token lifetimes are counted from (time.Now).
	Now func() time.Time
	// PollInterval is the wait between publish status polls.
	PollInterval time.Duration
}

var _ platforms.Platform = (*Adapter)(nil)

// New returns the adapter; empty URLs and scopes in settings get the real
// platform's defaults. client is the platform's SSRF-safe client.
func New(settings connections.Settings, client connections.Doer) *Adapter {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&settings.AuthURL, DefaultAuthURL)
	def(&settings.TokenURL, DefaultTokenURL)
	def(&settings.RevokeURL, DefaultRevokeURL)
	def(&settings.APIBase, DefaultAPIBase)
	settings.APIBase = strings.TrimRight(settings.APIBase, "/")
	if len(settings.Scopes) == 0 {
		settings.Scopes = DefaultScopes()
	}
	return &Adapter{settings: settings, client: client, Now: time.Now, PollInterval: 2 * time.Second}
}

// Name is platforms.ShortVideo.
func (a *Adapter) Name() string { return platforms.ShortVideo }

// Label names the platform in messages.
func (a *Adapter) Label() string { return label }

// Settings are the adapter's settings, defaults filled in.
func (a *Adapter) Settings() connections.Settings { return a.settings }

// PKCE is true: TikTok takes a code_challenge (S256).
func (a *Adapter) PKCE() bool { return true }

// AuthCodeURL is TikTok's authorization URL (client_key, comma-separated
// scopes, the PKCE challenge).
func (a *Adapter) AuthCodeURL(state, redirectURI, challenge string) string {
	q := url.Values{"client_key": {a.settings.ClientID}, "response_type": {"code"}, "scope": {strings.Join(a.settings.Scopes, ",")},
		"redirect_uri": {redirectURI}, "state": {state}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	return a.settings.AuthURL + "?" + q.Encode()
}

// apiProblem reads TikTok's {error:{code, message, log_id}} envelope, or
// the OAuth endpoints' {error, error_description}.
func apiProblem(status int, body []byte) wire.Problem {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return wire.Problem{}
	}
	var env struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Error, &env) == nil {
		return wire.Problem{Code: env.Code, Message: env.Message}
	}
	return wire.OAuthProblem(status, body)
}

// refine: an invalid token or a missing scope is Unauthorized, the rate
// limit Transient; other codes (spam_risk_*, privacy_level_option_mismatch,
// ...) stay Refused.
func refine(ce *connections.CallError, p wire.Problem) {
	switch {
	case p.Code == "access_token_invalid" || p.Code == "scope_not_authorized" || p.Code == "scope_permission_missed" ||
		p.Code == "invalid_grant":
		ce.Class = connections.Unauthorized
	case p.Code == "rate_limit_exceeded":
		ce.Class = connections.Transient
	}
}

// problemIn returns the error an answered envelope carries ("" or "ok":
// none), classified as a refusal.
func problemIn(status int, p wire.Problem) error {
	if p.Code == "" || p.Code == "ok" {
		return nil
	}
	ce := connections.Fail(connections.Refused, status, p.Reason())
	refine(ce, p)
	return ce
}

// token POSTs to the token endpoint.
func (a *Adapter) token(ctx context.Context, form url.Values) (connections.Tokens, error) {
	form.Set("client_key", a.settings.ClientID)
	form.Set("client_secret", a.settings.ClientSecret)
	req, err := wire.NewRequest(ctx, http.MethodPost, a.settings.TokenURL, form)
	if err != nil {
		return connections.Tokens{}, err
	}
	resp, err := wire.Send(ctx, a.client, req, true, wire.OAuthProblem, wire.RefineOAuth)
	if err != nil {
		return connections.Tokens{}, err
	}
	var ans struct {
		wire.TokenAnswer
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if err := wire.ReadJSON(resp, &ans, true); err != nil {
		return connections.Tokens{}, err
	}
	if ans.Error != "" { // TikTok may answer an OAuth error with 200
		ce := connections.Fail(connections.Refused, resp.StatusCode, wire.Problem{Code: ans.Error, Message: ans.Description}.Reason())
		wire.RefineOAuth(ce, wire.Problem{Code: ans.Error})
		return connections.Tokens{}, ce
	}
	if ans.AccessToken == "" {
		return connections.Tokens{}, connections.Fail(connections.Transient, 0, "the token endpoint answered no access token")
	}
	return ans.Tokens(a.Now()), nil
}

// Exchange redeems the code with the PKCE verifier.
func (a *Adapter) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	return a.token(ctx, url.Values{"code": {code}, "grant_type": {"authorization_code"}, "redirect_uri": {redirectURI},
		"code_verifier": {verifier}})
}

// Refresh obtains new tokens with the refresh token.
func (a *Adapter) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	if t.RefreshToken == "" {
		return connections.Tokens{}, wire.NoRefresh(label)
	}
	nt, err := a.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}})
	if err == nil && nt.RefreshToken == "" {
		nt.RefreshToken, nt.RefreshExpiry = t.RefreshToken, t.RefreshExpiry
	}
	return nt, err
}

// Revoke revokes the access token.
func (a *Adapter) Revoke(ctx context.Context, t connections.Tokens) error {
	form := url.Values{"client_key": {a.settings.ClientID}, "client_secret": {a.settings.ClientSecret}, "token": {t.AccessToken}}
	req, err := wire.NewRequest(ctx, http.MethodPost, a.settings.RevokeURL, form)
	if err != nil {
		return err
	}
	resp, err := wire.Send(ctx, a.client, req, true, apiProblem, nil)
	if err != nil {
		return err
	}
	var ans struct {
		Error string `json:"error"`
	}
	_ = wire.ReadJSON(resp, &ans, true)
	if ans.Error != "" {
		return connections.Fail(connections.Refused, resp.StatusCode, ans.Error)
	}
	return nil
}

// Identify reads the user's open_id and names.
func (a *Adapter) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var data struct {
		User struct {
			OpenID      string `json:"open_id"`
			UnionID     string `json:"union_id"`
			DisplayName string `json:"display_name"`
			Username    string `json:"username"`
		} `json:"user"`
	}
	if err := a.call(ctx, t, http.MethodGet, "/v2/user/info/?fields=open_id,union_id,display_name,username", nil, true, &data); err != nil {
		return connections.Identity{}, err
	}
	u := data.User
	if u.OpenID == "" {
		return connections.Identity{}, connections.Fail(connections.Transient, 0, "user info answered no open_id")
	}
	id := connections.Identity{ID: u.OpenID, Handle: u.DisplayName, Extra: map[string]string{}}
	if u.Username != "" {
		id.Handle = "@" + u.Username
		id.Extra["username"] = u.Username
	}
	if u.UnionID != "" {
		id.Extra["union_id"] = u.UnionID
	}
	return id, nil
}

// call sends an API request with the bearer token and decodes the
// envelope's data into v.
func (a *Adapter) call(ctx context.Context, t connections.Tokens, method, path string, body any, idempotent bool, v any) error {
	req, err := wire.NewRequest(ctx, method, a.settings.APIBase+path, body)
	if err != nil {
		return err
	}
	resp, err := wire.Send(ctx, a.client, wire.Bearer(req, t.AccessToken), idempotent, apiProblem, refine)
	if err != nil {
		return err
	}
	var env struct {
		Data  json.RawMessage `json:"data"`
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := wire.ReadJSON(resp, &env, idempotent); err != nil {
		return err
	}
	if err := problemIn(resp.StatusCode, wire.Problem{Code: env.Error.Code, Message: env.Error.Message}); err != nil {
		return err
	}
	if v != nil && len(env.Data) > 0 {
		if err := json.Unmarshal(env.Data, v); err != nil {
			class := connections.Unconfirmed
			if idempotent {
				class = connections.Transient
			}
			return connections.Fail(class, resp.StatusCode, "answer data is not the expected JSON")
		}
	}
	return nil
}

// Insights returns the days with every number nil: TikTok gives no daily
// figures (see the package comment).
func (a *Adapter) Insights(_ context.Context, _ connections.Tokens, _ connections.Identity, from, to time.Time) ([]platforms.Day, error) {
	days := wire.Days(from, to)
	out := make([]platforms.Day, len(days))
	for i, d := range days {
		out[i].Date = d
	}
	return out, nil
}
