// Package network is the professional network's adapter: LinkedIn's
// OAuth 2 (3-legged, no PKCE for web apps, client credentials in the
// form body), Sign In with LinkedIn using OpenID Connect for the identity
// (/v2/userinfo) and the versioned REST API (LinkedIn-Version: Version,
// X-Restli-Protocol-Version: 2.0.0) for posts, image and video uploads and
// member post analytics.
//
// Publishing: media are uploaded first (images: /rest/images
// initializeUpload, one PUT; a video: /rest/videos initializeUpload, a
// PUT per part, finalizeUpload), none of which creates a post; then one
// POST /rest/posts (never repeated) whose commentary has LinkedIn's
// "little text" reserved characters escaped. The post's URN comes in the
// x-restli-id header. A text-only post is allowed; several images are a
// multiImage post; a video goes alone.
//
// Insights come from memberCreatorPostAnalytics (the me finder,
// aggregation DAILY; it needs the r_member_postAnalytics permission,
// which is not among the default scopes): IMPRESSION→Views,
// REACTION→Likes, COMMENT→Comments, RESHARE→Shares, one request each.
// When the tokens' scope is known and lacks that permission, every number
// is nil (no request is made). FollowersGained is always nil: the
// documented memberFollowersCount dateRange finder says "daily followers
// count" without saying whether that is a total or a gain, so no daily
// gain is stated from it.
package network

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
)

// The real endpoints and the REST API version sent.
const (
	DefaultAuthURL   = "https://www.linkedin.com/oauth/v2/authorization"
	DefaultTokenURL  = "https://www.linkedin.com/oauth/v2/accessToken"
	DefaultRevokeURL = "https://www.linkedin.com/oauth/v2/revoke"
	DefaultAPIBase   = "https://api.linkedin.com"
	Version          = "202501"
	label            = "the professional network"
)

// DefaultScopes are the scopes asked for when Settings.Scopes is empty.
func DefaultScopes() []string { return []string{"openid", "profile", "email", "w_member_social"} }

// Adapter is the professional network's platforms.Platform.
type Adapter struct {
	settings connections.Settings
	client   connections.Doer
	// Now is the clock token lifetimes are counted from (time.Now).
	Now func() time.Time
}

var _ platforms.Platform = (*Adapter)(nil)

// New returns the adapter; empty URLs and scopes in settings get the real
// platform's defaults. client is the platform's SSRF-safe client.
func New(settings connections.Settings, client connections.Doer) *Adapter {
	settings = settings.WithDefaults(connections.Settings{AuthURL: DefaultAuthURL, TokenURL: DefaultTokenURL,
		RevokeURL: DefaultRevokeURL, APIBase: DefaultAPIBase, Scopes: DefaultScopes()})
	return &Adapter{settings: settings, client: client, Now: time.Now}
}

// Name is platforms.ProfessionalNetwork.
func (a *Adapter) Name() string { return platforms.ProfessionalNetwork }

// Label names the platform in messages.
func (a *Adapter) Label() string { return label }

// Settings are the adapter's settings, defaults filled in.
func (a *Adapter) Settings() connections.Settings { return a.settings }

// PKCE is false: LinkedIn's web flow takes no code_challenge.
func (a *Adapter) PKCE() bool { return false }

// oauth is LinkedIn's OAuth 2 dialect: the standard one, client
// credentials in the form (also to revoke), no PKCE; a refused code or
// refresh token (LinkedIn answers invalid_request or invalid_grant) is
// Unauthorized.
func (a *Adapter) oauth() *connections.OAuth2 {
	return &connections.OAuth2{Settings: a.settings, Client: a.client, Label: label, RevokeWithClient: true, Idempotent: true,
		Now: a.Now, Refine: func(ce *connections.CallError, p connections.Problem) {
			if p.Code == "invalid_request" || p.Code == "invalid_grant" {
				ce.Class = connections.Unauthorized
			}
		}}
}

// AuthCodeURL is LinkedIn's authorization URL (scopes space-separated).
func (a *Adapter) AuthCodeURL(state, redirectURI, challenge string) string {
	return a.oauth().AuthCodeURL(state, redirectURI, challenge)
}

// apiProblem reads LinkedIn's {status, serviceErrorCode, code, message}
// (or an OAuth error body).
func apiProblem(status int, body []byte) connections.Problem {
	var e struct {
		ServiceErrorCode int    `json:"serviceErrorCode"`
		Code             string `json:"code"`
		Message          string `json:"message"`
		Error            string `json:"error"`
		Description      string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil {
		return connections.Problem{}
	}
	if e.Error != "" {
		return connections.Problem{Code: e.Error, Message: e.Description}
	}
	code := e.Code
	if code == "" && e.ServiceErrorCode != 0 {
		code = strconv.Itoa(e.ServiceErrorCode)
	}
	return connections.Problem{Code: code, Message: e.Message}
}

// refine: an expired, revoked or invalid token (or a missing permission)
// is Unauthorized; a duplicate post is Refused with the reason
// "duplicate".
func refine(ce *connections.CallError, p connections.Problem) {
	switch p.Code {
	case "EXPIRED_ACCESS_TOKEN", "REVOKED_ACCESS_TOKEN", "INVALID_ACCESS_TOKEN", "EMPTY_ACCESS_TOKEN", "ACCESS_DENIED",
		"65600", "65601", "65602", "65604":
		ce.Class = connections.Unauthorized
	case "DUPLICATE_POST":
		ce.Class, ce.Reason = connections.Refused, "duplicate"
	}
}

// Exchange redeems the code.
func (a *Adapter) Exchange(ctx context.Context, code, redirectURI, _ string) (connections.Tokens, error) {
	return a.oauth().Exchange(ctx, code, redirectURI, "")
}

// Refresh obtains new tokens with the refresh token (LinkedIn issues
// refresh tokens to approved applications only).
func (a *Adapter) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	return a.oauth().Refresh(ctx, t)
}

// Revoke revokes the access token.
func (a *Adapter) Revoke(ctx context.Context, t connections.Tokens) error {
	return a.oauth().Revoke(ctx, t.AccessToken)
}

// Identify reads the OIDC userinfo: the member's sub gives the person URN.
func (a *Adapter) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var u struct {
		Sub   string `json:"sub"`
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	if err := a.do(ctx, t, http.MethodGet, a.settings.APIBase+"/v2/userinfo", nil, true, &u, nil); err != nil {
		return connections.Identity{}, err
	}
	if u.Sub == "" {
		return connections.Identity{}, connections.Fail(connections.Transient, 0, "userinfo answered no sub")
	}
	handle := u.Email
	if handle == "" {
		handle = u.Name
	}
	return connections.Identity{ID: u.Sub, Handle: handle, Extra: map[string]string{"person_urn": "urn:li:person:" + u.Sub}}, nil
}

// do sends a request with the bearer token and the REST headers, decodes
// the answer into v (when not nil) and gives the response headers to hdr.
func (a *Adapter) do(ctx context.Context, t connections.Tokens, method, target string, body any, idempotent bool, v any, hdr func(http.Header)) error {
	req, err := connections.NewRequest(ctx, method, target, body)
	if err != nil {
		return err
	}
	connections.Bearer(req, t.AccessToken)
	req.Header.Set("LinkedIn-Version", Version)
	req.Header.Set("X-Restli-Protocol-Version", "2.0.0")
	resp, err := connections.Send(ctx, a.client, req, idempotent, apiProblem, refine)
	if err != nil {
		return err
	}
	if hdr != nil {
		hdr(resp.Header)
	}
	if v == nil {
		connections.Drain(resp)
		return nil
	}
	return connections.ReadJSON(resp, v, idempotent)
}

// personURN is the account's author URN.
func personURN(acct connections.Identity) string {
	if u := acct.Extra["person_urn"]; u != "" {
		return u
	}
	return "urn:li:person:" + acct.ID
}
