package actions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// Chat is the chat provider: Slack. It connects with Slack's OAuth v2 for
// a user token (user_scope chat:write by default, so messages are sent as
// the founder) and sends with chat.postMessage.
type Chat struct{ base }

// slackDefaults are Slack's real endpoints and the default user scopes.
func slackDefaults() connections.Settings {
	return connections.Settings{
		AuthURL:   "https://slack.com/oauth/v2/authorize",
		TokenURL:  "https://slack.com/api/oauth.v2.access",
		RevokeURL: "https://slack.com/api/auth.revoke",
		APIBase:   "https://slack.com",
		Scopes:    []string{"chat:write"},
		Env:       "STRATA_CHAT_",
	}
}

// NewChat returns the chat provider over s (empty URLs: Slack's) calling
// through d.
func NewChat(s connections.Settings, d connections.Doer) *Chat {
	return &Chat{base{name: ProviderChat, label: "the chat provider (Slack)", s: s.WithDefaults(slackDefaults()), d: d}}
}

// PKCE implements connections.Provider: Slack's OAuth v2 takes none.
func (*Chat) PKCE() bool { return false }

// AuthCodeURL implements connections.Provider. The scopes are user scopes
// (user_scope, comma-separated): the token acts as the founder.
func (c *Chat) AuthCodeURL(state, redirectURI, _ string) string {
	return connections.AuthURL(c.s.AuthURL, url.Values{"client_id": {c.s.ClientID}, "user_scope": {strings.Join(c.s.Scopes, ",")},
		"redirect_uri": {redirectURI}, "state": {state}})
}

// slackOAuth is oauth.v2.access's answer: the user token is under
// authed_user (a refresh of a rotating user token answers at the top).
type slackOAuth struct {
	connections.TokenAnswer
	OK         bool                    `json:"ok"`
	Err        string                  `json:"error"`
	AuthedUser connections.TokenAnswer `json:"authed_user"`
}

// Exchange implements connections.Provider.
func (c *Chat) Exchange(ctx context.Context, code, redirectURI, _ string) (connections.Tokens, error) {
	return c.token(ctx, url.Values{"code": {code}, "redirect_uri": {redirectURI}}, connections.Tokens{}, false)
}

// Refresh implements connections.Provider (workspaces with token rotation).
func (c *Chat) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	if t.RefreshToken == "" {
		return connections.Tokens{}, connections.NoRefresh(c.label)
	}
	return c.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}}, t, true)
}

func (c *Chat) token(ctx context.Context, form url.Values, prev connections.Tokens, refresh bool) (connections.Tokens, error) {
	form.Set("client_id", c.s.ClientID)
	form.Set("client_secret", c.s.ClientSecret)
	req, err := newForm(ctx, c.s.TokenURL, form)
	if err != nil {
		return connections.Tokens{}, err
	}
	var a slackOAuth
	if _, err := send(ctx, c.d, req, false, slackReason, &a); err != nil {
		return connections.Tokens{}, err
	}
	if !a.OK {
		ce := connections.Fail(slackClass(a.Err, false), http.StatusOK, a.Err)
		connections.TokenFailure(ce, refresh)
		return connections.Tokens{}, ce
	}
	if a.AuthedUser.AccessToken != "" {
		return a.AuthedUser.Renewed(time.Now(), prev), nil
	}
	if a.AccessToken == "" {
		return connections.Tokens{}, connections.Fail(connections.Refused, http.StatusOK, "no access token in the answer")
	}
	return a.TokenAnswer.Renewed(time.Now(), prev), nil
}

// Revoke implements connections.Provider with auth.revoke.
func (c *Chat) Revoke(ctx context.Context, t connections.Tokens) error {
	req, err := newForm(ctx, c.s.RevokeURL, url.Values{})
	if err != nil {
		return err
	}
	connections.Bearer(req, t.AccessToken)
	var a slackAnswer
	if err := c.slack(ctx, req, true, &a); err != nil && !revokedAlready(err) {
		return err
	}
	return nil
}

// revokedAlready: a token Slack no longer knows is as good as revoked.
func revokedAlready(err error) bool {
	ce := connections.AsCallError(err)
	return ce != nil && ce.Class == connections.Unauthorized
}

// Identify implements connections.Provider with auth.test.
func (c *Chat) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	req, err := newForm(ctx, c.s.APIBase+"/api/auth.test", url.Values{})
	if err != nil {
		return connections.Identity{}, err
	}
	connections.Bearer(req, t.AccessToken)
	var a struct {
		slackAnswer
		User   string `json:"user"`
		UserID string `json:"user_id"`
		Team   string `json:"team"`
		TeamID string `json:"team_id"`
		URL    string `json:"url"`
	}
	if err := c.slack(ctx, req, true, &a); err != nil {
		return connections.Identity{}, err
	}
	return connections.Identity{ID: a.UserID, Handle: "@" + a.User + " (" + a.Team + ")",
		Extra: map[string]string{"team_id": a.TeamID, "team": a.Team, "url": a.URL}}, nil
}

// Send posts in.Message to in.Channel (an id, or a name with or without
// '#', which Slack's chat.postMessage resolves itself), in in.ThreadTS's
// thread when set. It answers what Slack answered: the message's ts, the
// channel id and the message text as Slack stored it.
func (c *Chat) Send(ctx context.Context, t connections.Tokens, in ChatSend) (ChatSent, error) {
	body := map[string]string{"channel": in.Channel, "text": in.Message}
	if in.ThreadTS != "" {
		body["thread_ts"] = in.ThreadTS
	}
	req, err := newJSON(ctx, http.MethodPost, c.s.APIBase+"/api/chat.postMessage", t.AccessToken, body)
	if err != nil {
		return ChatSent{}, err
	}
	var a struct {
		slackAnswer
		Channel string `json:"channel"`
		TS      string `json:"ts"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
	}
	if err := c.slack(ctx, req, false, &a); err != nil {
		return ChatSent{}, err
	}
	if a.TS == "" {
		return ChatSent{}, connections.Fail(connections.Unconfirmed, http.StatusOK, "the answer has no message ts")
	}
	return ChatSent{TS: a.TS, Channel: a.Channel, Message: a.Message.Text}, nil
}

// slackAnswer is the envelope of every Slack Web API answer.
type slackAnswer struct {
	OK     bool   `json:"ok"`
	Err    string `json:"error"`
	Needed string `json:"needed"`
}

func (a *slackAnswer) answer() *slackAnswer { return a }

// slack sends a Web API call and turns {"ok":false,"error":...} (which
// Slack answers with HTTP 200) into a classified *CallError.
func (c *Chat) slack(ctx context.Context, req *http.Request, idempotent bool, out interface{ answer() *slackAnswer }) error {
	status, err := send(ctx, c.d, req, idempotent, slackReason, out)
	if err != nil {
		return err
	}
	if a := out.answer(); !a.OK {
		reason := a.Err
		if a.Needed != "" {
			reason += " (needs " + a.Needed + ")"
		}
		if reason == "" {
			reason = "ok is false"
		}
		return connections.Fail(slackClass(a.Err, idempotent), status, reason)
	}
	return nil
}

// slackReason reads the error code of a non-2xx Slack answer.
func slackReason(_ int, body []byte) string {
	var a slackAnswer
	if json.Unmarshal(body, &a) != nil {
		return ""
	}
	return a.Err
}

// slackClass classifies a Slack error code.
func slackClass(code string, idempotent bool) connections.Class {
	switch code {
	case "token_revoked", "token_expired", "invalid_auth", "not_authed", "account_inactive", "missing_scope",
		"invalid_refresh_token", "not_allowed_token_type", "two_factor_setup_required", "ekm_access_denied":
		return connections.Unauthorized
	case "ratelimited", "rate_limited", "service_unavailable", "team_added_to_org":
		return connections.Transient
	case "internal_error", "fatal_error", "request_timeout":
		if idempotent {
			return connections.Transient
		}
		return connections.Unconfirmed
	}
	return connections.Refused
}
