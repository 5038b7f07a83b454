package actions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// Issues is the issues provider: GitHub (an OAuth app or a GitHub App's
// user authorization, scope repo by default, with PKCE). It opens issues
// with the REST API's issues.create.
type Issues struct{ base }

// githubAPIVersion is the REST API version every call asks for.
const githubAPIVersion = "2022-11-28"

func githubDefaults(clientID string) connections.Settings {
	return connections.Settings{
		AuthURL:   "https://github.com/login/oauth/authorize",
		TokenURL:  "https://github.com/login/oauth/access_token",
		RevokeURL: "https://api.github.com/applications/" + url.PathEscape(clientID) + "/grant",
		APIBase:   "https://api.github.com",
		Scopes:    []string{"repo"},
		Env:       "STRATA_ISSUES_",
	}
}

// NewIssues returns the issues provider over s (empty URLs: GitHub's)
// calling through d.
func NewIssues(s connections.Settings, d connections.Doer) *Issues {
	return &Issues{base{name: ProviderIssues, label: "the issues provider (GitHub)", s: s.WithDefaults(githubDefaults(s.ClientID)), d: d}}
}

// oauth is GitHub's OAuth 2 dialect: the standard one with PKCE, no
// sign-up offered, client credentials in the form; GitHub answers token
// errors with HTTP 200 ({"error": "bad_verification_code"}: Refused).
func (g *Issues) oauth() *connections.OAuth2 {
	return &connections.OAuth2{Settings: g.s, Client: g.d, Label: g.label, PKCE: true,
		AuthParams: url.Values{"allow_signup": {"false"}}}
}

// PKCE implements connections.Provider (GitHub accepts S256).
func (*Issues) PKCE() bool { return true }

// AuthCodeURL implements connections.Provider.
func (g *Issues) AuthCodeURL(state, redirectURI, challenge string) string {
	return g.oauth().AuthCodeURL(state, redirectURI, challenge)
}

// Exchange implements connections.Provider.
func (g *Issues) Exchange(ctx context.Context, code, redirectURI, verifier string) (connections.Tokens, error) {
	return g.oauth().Exchange(ctx, code, redirectURI, verifier)
}

// Refresh implements connections.Provider (GitHub Apps' expiring user
// tokens; OAuth apps' tokens do not expire and have no refresh token).
func (g *Issues) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	return g.oauth().Refresh(ctx, t)
}

// Revoke implements connections.Provider: DELETE the app's grant for the
// token, with the app's credentials (HTTP Basic). A 404 (the token is
// already gone) counts as revoked.
func (g *Issues) Revoke(ctx context.Context, t connections.Tokens) error {
	req, err := g.request(ctx, http.MethodDelete, g.s.RevokeURL, "", map[string]string{"access_token": t.AccessToken})
	if err != nil {
		return err
	}
	req.SetBasicAuth(g.s.ClientID, g.s.ClientSecret)
	err = g.call(req, true, nil)
	if ce := connections.AsCallError(err); ce != nil && ce.Status == http.StatusNotFound {
		return nil
	}
	return err
}

// Identify implements connections.Provider with GET /user.
func (g *Issues) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	req, err := g.request(ctx, http.MethodGet, g.s.APIBase+"/user", t.AccessToken, nil)
	if err != nil {
		return connections.Identity{}, err
	}
	var u struct {
		ID    int64  `json:"id"`
		Login string `json:"login"`
	}
	if err := g.call(req, true, &u); err != nil {
		return connections.Identity{}, err
	}
	return connections.Identity{ID: strconv.FormatInt(u.ID, 10), Handle: "@" + u.Login, Extra: map[string]string{"login": u.Login}}, nil
}

// Create opens the issue in (checked).
func (g *Issues) Create(ctx context.Context, t connections.Tokens, in Issue) (IssueCreated, error) {
	body := map[string]any{"title": in.Title}
	if in.Body != "" {
		body["body"] = in.Body
	}
	if len(in.Labels) > 0 {
		body["labels"] = in.Labels
	}
	u := g.s.APIBase + "/repos/" + url.PathEscape(in.owner) + "/" + url.PathEscape(in.repo) + "/issues"
	req, err := g.request(ctx, http.MethodPost, u, t.AccessToken, body)
	if err != nil {
		return IssueCreated{}, err
	}
	var out struct {
		Number  int    `json:"number"`
		HTMLURL string `json:"html_url"`
	}
	if err := g.call(req, false, &out); err != nil {
		return IssueCreated{}, err
	}
	if out.Number == 0 {
		return IssueCreated{}, connections.Fail(connections.Unconfirmed, http.StatusCreated, "the answer has no issue number")
	}
	return IssueCreated{Number: out.Number, HTMLURL: out.HTMLURL,
		Message: "issue #" + strconv.Itoa(out.Number) + " opened in " + in.Repo}, nil
}

// request builds a REST API request with GitHub's media type and version.
func (g *Issues) request(ctx context.Context, method, u, token string, body any) (*http.Request, error) {
	req, err := newJSON(ctx, method, u, token, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", githubAPIVersion)
	return req, nil
}

// call sends a REST API request: a 403 or 429 with the rate limit spent
// is Transient (retry at its reset or Retry-After).
func (g *Issues) call(req *http.Request, idempotent bool, out any) error {
	var limited time.Duration
	reason := func(status int, body []byte) string { return githubReason(body) }
	resp, err := connections.Call(req.Context(), &limitWatch{d: g.d, after: &limited}, req, idempotent, reason)
	if ce := connections.AsCallError(err); ce != nil {
		if limited > 0 && (ce.Status == http.StatusForbidden || ce.Status == http.StatusTooManyRequests) {
			ce.Class = connections.Transient
			if ce.RetryAfter == 0 {
				ce.RetryAfter = limited
			}
		}
		return err
	}
	if err != nil {
		return err
	}
	return connections.ReadJSON(resp, out, idempotent)
}

// retryAfterHeader reads a Retry-After of seconds.
func retryAfterHeader(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// githubReason reads {"message": ..., "errors": [...]} of a REST error.
func githubReason(body []byte) string {
	var e struct {
		Message string `json:"message"`
		Errors  []struct {
			Field   string `json:"field"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	r := e.Message
	for _, x := range e.Errors {
		switch {
		case x.Message != "":
			r += "; " + x.Message
		case x.Field != "":
			r += "; " + x.Field + " " + x.Code
		}
	}
	return r
}

// limitWatch notes when an answer says the rate limit is spent
// (x-ratelimit-remaining: 0 with x-ratelimit-reset, or a Retry-After on a
// secondary limit).
type limitWatch struct {
	d     connections.Doer
	after *time.Duration
}

func (l *limitWatch) Do(req *http.Request) (*http.Response, error) {
	resp, err := l.d.Do(req)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	if resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		if reset, e := strconv.ParseInt(resp.Header.Get("X-Ratelimit-Reset"), 10, 64); e == nil {
			*l.after = max(time.Until(time.Unix(reset, 0)), time.Second)
		} else {
			*l.after = time.Minute
		}
	} else if d := retryAfterHeader(resp.Header.Get("Retry-After")); d > 0 {
		*l.after = d
	}
	return resp, nil
}
