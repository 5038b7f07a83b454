// Package videosite is the video site's adapter: Google's OAuth 2 (PKCE
// S256, offline access with a refresh token, consent prompted each time),
// the YouTube Data API v3 (channels, resumable video upload) and the
// YouTube Analytics API v2.
//
// The Analytics API lives on another host than the Data API: AnalyticsBase
// is https://youtubeanalytics.googleapis.com when Settings.APIBase is left
// to its default, and Settings.APIBase itself when APIBase is configured
// (a loopback fake serves both); set the field after New to point it
// elsewhere.
//
// Publishing opens a resumable upload session (POST
// /upload/youtube/v3/videos?uploadType=resumable, which creates no video)
// and PUTs the bytes once: that PUT is the request that creates the
// video. When its answer is lost, the session is asked (an empty PUT with
// Content-Range: bytes */N, a read): a complete upload answers the video
// resource, an incomplete one 308, which means nothing was posted.
//
// Insights: the Analytics API's reports query (ids=channel==MINE,
// dimensions=day) gives every number per day: views→Views, likes→Likes,
// comments→Comments, shares→Shares, subscribersGained→FollowersGained. A
// day without a row stays nil.
package videosite

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
)

// The real endpoints.
const (
	DefaultAuthURL       = connections.GoogleAuthURL
	DefaultTokenURL      = connections.GoogleTokenURL
	DefaultRevokeURL     = connections.GoogleRevokeURL
	DefaultAPIBase       = "https://www.googleapis.com"
	DefaultAnalyticsBase = "https://youtubeanalytics.googleapis.com"
	label                = "the video site"
)

// DefaultScopes are the scopes asked for when Settings.Scopes is empty.
func DefaultScopes() []string {
	return []string{"https://www.googleapis.com/auth/youtube.upload", "https://www.googleapis.com/auth/youtube.readonly",
		"https://www.googleapis.com/auth/yt-analytics.readonly"}
}

// Adapter is the video site's platforms.Platform.
type Adapter struct {
	settings connections.Settings
	client   connections.Doer
	// AnalyticsBase is the YouTube Analytics API's base URL (see the
	// package comment).
	AnalyticsBase string
	// Now is the clock token lifetimes are counted from (time.Now).
	Now func() time.Time
}

var _ platforms.Platform = (*Adapter)(nil)

// New returns the adapter; empty URLs and scopes in settings get the real
// platform's defaults. client is the platform's SSRF-safe client.
func New(settings connections.Settings, client connections.Doer) *Adapter {
	analytics := DefaultAnalyticsBase
	if settings.APIBase != "" {
		analytics = strings.TrimRight(settings.APIBase, "/")
	}
	settings = settings.WithDefaults(connections.Settings{AuthURL: DefaultAuthURL, TokenURL: DefaultTokenURL,
		RevokeURL: DefaultRevokeURL, APIBase: DefaultAPIBase, Scopes: DefaultScopes()})
	return &Adapter{settings: settings, client: client, AnalyticsBase: analytics, Now: time.Now}
}

// Name is platforms.VideoSite.
func (a *Adapter) Name() string { return platforms.VideoSite }

// Label names the platform in messages.
func (a *Adapter) Label() string { return label }

// Settings are the adapter's settings, defaults filled in.
func (a *Adapter) Settings() connections.Settings { return a.settings }

// PKCE is true: Google takes a code_challenge (S256).
func (a *Adapter) PKCE() bool { return true }

// oauth is Google's OAuth 2 dialect with the adapter's settings and clock;
// a refused code (or PKCE verifier) is Unauthorized.
func (a *Adapter) oauth() *connections.OAuth2 {
	o := connections.Google(a.settings, a.client, label)
	o.Idempotent, o.Refine, o.Now = true, connections.RefineOAuth, a.Now
	return o
}

// AuthCodeURL is Google's authorization URL: offline access (a refresh
// token), consent prompted, earlier grants included, PKCE S256.
func (a *Adapter) AuthCodeURL(state, redirectURI, challenge string) string {
	return a.oauth().AuthCodeURL(state, redirectURI, challenge)
}

// apiProblem reads Google's {error:{code, message, errors:[{reason}]}} or
// an OAuth error body.
func apiProblem(status int, body []byte) connections.Problem {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return connections.Problem{}
	}
	var g struct {
		Message string `json:"message"`
		Errors  []struct {
			Reason string `json:"reason"`
		} `json:"errors"`
	}
	if json.Unmarshal(e.Error, &g) != nil {
		return connections.OAuthProblem(status, body)
	}
	p := connections.Problem{Message: g.Message}
	if len(g.Errors) > 0 {
		p.Code = g.Errors[0].Reason
	}
	return p
}

// refine: authError and insufficientPermissions are Unauthorized; the rate
// limits Transient; quotaExceeded (it clears only at the next quota day)
// and uploadLimitExceeded Refused with the reason alone.
func refine(ce *connections.CallError, p connections.Problem) {
	switch p.Code {
	case "authError", "invalidCredentials", "insufficientPermissions", "youtubeSignupRequired":
		ce.Class = connections.Unauthorized
	case "rateLimitExceeded", "userRateLimitExceeded":
		if ce.Class == connections.Refused {
			ce.Class = connections.Transient
		}
	case "quotaExceeded", "uploadLimitExceeded":
		ce.Class, ce.Reason = connections.Refused, p.Code
	}
}

// Exchange redeems the code with the PKCE verifier.
func (a *Adapter) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	return a.oauth().Exchange(ctx, code, redirectURI, verifier)
}

// Refresh obtains a new access token; Google keeps the refresh token.
func (a *Adapter) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	return a.oauth().Refresh(ctx, t)
}

// Revoke revokes the grant (with the refresh token when there is one).
func (a *Adapter) Revoke(ctx context.Context, t connections.Tokens) error {
	return a.oauth().RevokeGrant(ctx, t)
}

// Identify reads the account's channel.
func (a *Adapter) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var list struct {
		Items []struct {
			ID      string `json:"id"`
			Snippet struct {
				Title     string `json:"title"`
				CustomURL string `json:"customUrl"`
			} `json:"snippet"`
		} `json:"items"`
	}
	if err := a.get(ctx, t, a.settings.APIBase+"/youtube/v3/channels?part=snippet&mine=true", &list); err != nil {
		return connections.Identity{}, err
	}
	if len(list.Items) == 0 || list.Items[0].ID == "" {
		return connections.Identity{}, connections.Fail(connections.Refused, 0, "the Google account has no YouTube channel")
	}
	c := list.Items[0]
	handle := c.Snippet.CustomURL
	if handle == "" {
		handle = c.Snippet.Title
	}
	return connections.Identity{ID: c.ID, Handle: handle, Extra: map[string]string{"channel_title": c.Snippet.Title}}, nil
}

// get GETs a URL with the bearer token into v.
func (a *Adapter) get(ctx context.Context, t connections.Tokens, target string, v any) error {
	req, err := connections.NewRequest(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	resp, err := connections.Send(ctx, a.client, connections.Bearer(req, t.AccessToken), true, apiProblem, refine)
	if err != nil {
		return err
	}
	return connections.ReadJSON(resp, v, true)
}
