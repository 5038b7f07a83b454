package actiontest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/commands/connections"
)

// Credentials every fake's token endpoint accepts.
const (
	ClientID     = "client-id"
	ClientSecret = "client-secret"
	// Code is the authorization code the token endpoints redeem.
	Code = "good-code"
	// Refresh is the refresh token the token endpoints accept.
	Refresh = "refresh-token"
	// Expired is an access token every fake answers as expired, in its
	// provider's own way.
	Expired = "expired-token"
)

// Slack fakes Slack's Web API: oauth.v2.access, auth.revoke, auth.test
// and chat.postMessage (JSON body). Every Web API error is HTTP 200 with
// {"ok": false, "error": code}, as Slack answers: not_authed,
// invalid_auth, token_expired (the Expired token), channel_not_found,
// no_text.
type Slack struct {
	Recorder
	URL string
	// Token is the access token it accepts.
	Token string
	mu    sync.Mutex
	// channels maps names (without '#') to ids.
	channels map[string]string
	n        int
}

// NewSlack starts a Slack fake accepting token, with the channels
// "general" (C0GENERAL) and "random" (C0RANDOM).
func NewSlack(t testing.TB, token string) *Slack {
	s := &Slack{Token: token, channels: map[string]string{"general": "C0GENERAL", "random": "C0RANDOM"}}
	s.URL = start(t, http.HandlerFunc(s.serve)).URL
	return s
}

// Settings points the chat adapter at the fake.
func (s *Slack) Settings() connections.Settings {
	return connections.Settings{ClientID: ClientID, ClientSecret: ClientSecret, AuthURL: s.URL + "/oauth/v2/authorize",
		TokenURL: s.URL + "/api/oauth.v2.access", RevokeURL: s.URL + "/api/auth.revoke", APIBase: s.URL}
}

// SlackError is Slack's error answer for code.
func SlackError(code string) Failure {
	return Failure{Status: http.StatusOK, Body: `{"ok":false,"error":"` + code + `"}`}
}

func (s *Slack) serve(w http.ResponseWriter, req *http.Request) {
	body, done := s.record(w, req)
	if done {
		return
	}
	if req.Method != http.MethodPost {
		reply(w, http.StatusMethodNotAllowed, `{"ok":false,"error":"method_not_supported_for_channel_type"}`)
		return
	}
	if req.URL.Path == "/api/oauth.v2.access" {
		s.oauth(w, req)
		return
	}
	switch tok := bearer(req); {
	case tok == "":
		reply(w, http.StatusOK, `{"ok":false,"error":"not_authed"}`)
		return
	case tok == Expired:
		reply(w, http.StatusOK, `{"ok":false,"error":"token_expired"}`)
		return
	case tok != s.Token:
		reply(w, http.StatusOK, `{"ok":false,"error":"invalid_auth"}`)
		return
	}
	switch req.URL.Path {
	case "/api/auth.revoke":
		reply(w, http.StatusOK, `{"ok":true,"revoked":true}`)
	case "/api/auth.test":
		reply(w, http.StatusOK, `{"ok":true,"url":"https://acme.slack.com/","team":"Acme","user":"ana","team_id":"T0ACME","user_id":"U0ANA"}`)
	case "/api/chat.postMessage":
		s.post(w, req, body)
	default:
		reply(w, http.StatusNotFound, `{"ok":false,"error":"unknown_method"}`)
	}
}

func (s *Slack) oauth(w http.ResponseWriter, req *http.Request) {
	if req.ParseForm() != nil || req.PostForm.Get("client_id") != ClientID || req.PostForm.Get("client_secret") != ClientSecret {
		reply(w, http.StatusOK, `{"ok":false,"error":"invalid_client_id"}`)
		return
	}
	switch {
	case req.PostForm.Get("code") == Code:
		reply(w, http.StatusOK, fmt.Sprintf(`{"ok":true,"app_id":"A0APP","access_token":"xoxb-bot","token_type":"bot",`+
			`"authed_user":{"id":"U0ANA","scope":"chat:write","access_token":%q,"token_type":"user","refresh_token":%q,"expires_in":43200},`+
			`"team":{"id":"T0ACME","name":"Acme"}}`, s.Token, Refresh))
	case req.PostForm.Get("grant_type") == "refresh_token" && req.PostForm.Get("refresh_token") == Refresh:
		reply(w, http.StatusOK, fmt.Sprintf(`{"ok":true,"access_token":%q,"refresh_token":%q,"token_type":"user","expires_in":43200}`,
			s.Token, Refresh))
	case req.PostForm.Get("grant_type") == "refresh_token":
		reply(w, http.StatusOK, `{"ok":false,"error":"invalid_refresh_token"}`)
	default:
		reply(w, http.StatusOK, `{"ok":false,"error":"invalid_code"}`)
	}
}

func (s *Slack) post(w http.ResponseWriter, req *http.Request, body []byte) {
	var in struct {
		Channel  string `json:"channel"`
		Text     string `json:"text"`
		ThreadTS string `json:"thread_ts"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusOK, `{"ok":false,"error":"invalid_json"}`)
		return
	}
	s.mu.Lock()
	id := ""
	for name, cid := range s.channels {
		if in.Channel == cid || strings.TrimPrefix(in.Channel, "#") == name {
			id = cid
		}
	}
	s.n++
	ts := fmt.Sprintf("1700000000.%06d", s.n)
	s.mu.Unlock()
	switch {
	case id == "":
		reply(w, http.StatusOK, `{"ok":false,"error":"channel_not_found"}`)
		return
	case strings.TrimSpace(in.Text) == "":
		reply(w, http.StatusOK, `{"ok":false,"error":"no_text"}`)
		return
	}
	// Slack stores &, < and > escaped and answers the stored text.
	stored := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(in.Text)
	msg := map[string]any{"type": "message", "user": "U0ANA", "text": stored, "ts": ts}
	if in.ThreadTS != "" {
		msg["thread_ts"] = in.ThreadTS
	}
	out, _ := json.Marshal(map[string]any{"ok": true, "channel": id, "ts": ts, "message": msg})
	reply(w, http.StatusOK, string(out))
}
