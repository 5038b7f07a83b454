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
	settings = settings.WithDefaults(connections.Settings{AuthURL: DefaultAuthURL, TokenURL: DefaultTokenURL,
		RevokeURL: DefaultRevokeURL, APIBase: DefaultAPIBase, Scopes: DefaultScopes()})
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

// oauth is TikTok's OAuth 2 dialect: the standard one with client_key
// for client_id, comma-separated scopes, PKCE S256 and the client's
// credentials on revocation; TikTok may answer an OAuth error with 200.
func (a *Adapter) oauth() *connections.OAuth2 {
	return &connections.OAuth2{Settings: a.settings, Client: a.client, Label: label, PKCE: true, ClientIDParam: "client_key",
		ScopeSep: ",", RevokeWithClient: true, Idempotent: true, Parse: apiProblem, Refine: connections.RefineOAuth, Now: a.Now}
}

// AuthCodeURL is TikTok's authorization URL (client_key, comma-separated
// scopes, the PKCE challenge).
func (a *Adapter) AuthCodeURL(state, redirectURI, challenge string) string {
	return a.oauth().AuthCodeURL(state, redirectURI, challenge)
}

// apiProblem reads TikTok's {error:{code, message, log_id}} envelope, or
// the OAuth endpoints' {error, error_description}.
func apiProblem(status int, body []byte) connections.Problem {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return connections.Problem{}
	}
	var env struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Error, &env) == nil {
		return connections.Problem{Code: env.Code, Message: env.Message}
	}
	return connections.OAuthProblem(status, body)
}

// refine: an invalid token or a missing scope is Unauthorized, the rate
// limit Transient; other codes (spam_risk_*, privacy_level_option_mismatch,
// ...) stay Refused.
func refine(ce *connections.CallError, p connections.Problem) {
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
func problemIn(status int, p connections.Problem) error {
	if p.Code == "" || p.Code == "ok" {
		return nil
	}
	ce := connections.Fail(connections.Refused, status, p.Reason())
	refine(ce, p)
	return ce
}

// Exchange redeems the code with the PKCE verifier.
func (a *Adapter) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	return a.oauth().Exchange(ctx, code, redirectURI, verifier)
}

// Refresh obtains new tokens with the refresh token.
func (a *Adapter) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	return a.oauth().Refresh(ctx, t)
}

// Revoke revokes the access token.
func (a *Adapter) Revoke(ctx context.Context, t connections.Tokens) error {
	return a.oauth().Revoke(ctx, t.AccessToken)
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
	req, err := connections.NewRequest(ctx, method, a.settings.APIBase+path, body)
	if err != nil {
		return err
	}
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), idempotent, apiProblem, refine)
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
	if err := connections.ReadJSON(resp, &env, idempotent); err != nil {
		return err
	}
	if err := problemIn(resp.StatusCode, connections.Problem{Code: env.Error.Code, Message: env.Error.Message}); err != nil {
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
