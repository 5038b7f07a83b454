package actiontest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/commands/connections"
)

// Google fakes Google's OAuth endpoints (/token, /revoke), the userinfo
// endpoint, Gmail (users.getProfile, users.threads.get with
// format=metadata, users.messages.send) and Calendar (events.insert) on
// one server. API errors have Google's shape ({"error": {"code",
// "message", "status", "errors": [{"reason"}]}}); a bad token is 401
// UNAUTHENTICATED, the Expired token too.
type Google struct {
	Recorder
	URL string
	// Token is the access token it accepts; Address the mailbox's.
	Token   string
	Address string
	mu      sync.Mutex
	threads map[string][]Message
	sent    []Sent
	n       int
}

// Message is one message of a fake Gmail thread: its id, labels and
// headers (name, value pairs).
type Message struct {
	ID      string
	Labels  []string
	Headers [][2]string
}

// Sent is a message users.messages.send received: its thread and the
// decoded RFC 5322 message.
type Sent struct {
	ID       string
	ThreadID string
	Raw      []byte
}

// NewGoogle starts a Google fake accepting token for the mailbox address.
func NewGoogle(t testing.TB, token, address string) *Google {
	g := &Google{Token: token, Address: address, threads: map[string][]Message{}}
	g.URL = start(t, http.HandlerFunc(g.serve)).URL
	return g
}

// Settings points the mail or calendar adapter at the fake.
func (g *Google) Settings() connections.Settings {
	return connections.Settings{ClientID: ClientID, ClientSecret: ClientSecret, AuthURL: g.URL + "/o/oauth2/v2/auth",
		TokenURL: g.URL + "/token", RevokeURL: g.URL + "/revoke", APIBase: g.URL}
}

// AddThread adds a thread of messages (oldest first).
func (g *Google) AddThread(id string, msgs ...Message) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.threads[id] = msgs
}

// Sent returns the messages sent so far.
func (g *Google) Sent() []Sent {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Sent(nil), g.sent...)
}

// GoogleError is a Google API error answer.
func GoogleError(status int, reason, message string) Failure {
	return Failure{Status: status, Body: googleError(status, reason, message)}
}

func googleError(status int, reason, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": message,
		"status": strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_")),
		"errors": []map[string]string{{"message": message, "domain": "global", "reason": reason}}}})
	return string(b)
}

func (g *Google) serve(w http.ResponseWriter, req *http.Request) {
	body, done := g.record(w, req)
	if done {
		return
	}
	switch req.URL.Path {
	case "/token":
		g.token(w, req)
		return
	case "/revoke":
		if req.ParseForm() != nil || req.PostForm.Get("token") == "" {
			reply(w, http.StatusBadRequest, `{"error":"invalid_request","error_description":"Bad Request"}`)
		} else if t := req.PostForm.Get("token"); t != g.Token && t != Refresh {
			reply(w, http.StatusBadRequest, `{"error":"invalid_token","error_description":"Token expired or revoked"}`)
		} else {
			reply(w, http.StatusOK, `{}`)
		}
		return
	}
	if bearer(req) != g.Token {
		reply(w, http.StatusUnauthorized, googleError(http.StatusUnauthorized, "authError", "Request had invalid authentication credentials."))
		return
	}
	path := req.URL.Path
	switch {
	case req.Method == http.MethodGet && path == "/oauth2/v3/userinfo":
		reply(w, http.StatusOK, fmt.Sprintf(`{"sub":"110000000000000000001","email":%q,"email_verified":true}`, g.Address))
	case req.Method == http.MethodGet && path == "/gmail/v1/users/me/profile":
		reply(w, http.StatusOK, fmt.Sprintf(`{"emailAddress":%q,"messagesTotal":10,"threadsTotal":4,"historyId":"1"}`, g.Address))
	case req.Method == http.MethodGet && strings.HasPrefix(path, "/gmail/v1/users/me/threads/"):
		g.thread(w, req, strings.TrimPrefix(path, "/gmail/v1/users/me/threads/"))
	case req.Method == http.MethodPost && path == "/gmail/v1/users/me/messages/send":
		g.send(w, req, body)
	case req.Method == http.MethodPost && strings.HasPrefix(path, "/calendar/v3/calendars/") && strings.HasSuffix(path, "/events"):
		g.event(w, req, strings.TrimSuffix(strings.TrimPrefix(path, "/calendar/v3/calendars/"), "/events"), body)
	default:
		reply(w, http.StatusNotFound, googleError(http.StatusNotFound, "notFound", "Not Found"))
	}
}

func (g *Google) token(w http.ResponseWriter, req *http.Request) {
	if req.ParseForm() != nil || req.PostForm.Get("client_id") != ClientID || req.PostForm.Get("client_secret") != ClientSecret {
		reply(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"Unauthorized"}`)
		return
	}
	f := req.PostForm
	switch {
	case f.Get("grant_type") == "authorization_code" && f.Get("code") == Code && f.Get("code_verifier") != "":
		reply(w, http.StatusOK, fmt.Sprintf(`{"access_token":%q,"expires_in":3599,"refresh_token":%q,"scope":"s","token_type":"Bearer"}`,
			g.Token, Refresh))
	case f.Get("grant_type") == "refresh_token" && f.Get("refresh_token") == Refresh:
		reply(w, http.StatusOK, fmt.Sprintf(`{"access_token":%q,"expires_in":3599,"scope":"s","token_type":"Bearer"}`, g.Token))
	default:
		reply(w, http.StatusBadRequest, `{"error":"invalid_grant","error_description":"Bad Request"}`)
	}
}

func (g *Google) thread(w http.ResponseWriter, req *http.Request, id string) {
	q := req.URL.Query()
	if q.Get("format") != "metadata" {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "invalidArgument", "format must be metadata here"))
		return
	}
	g.mu.Lock()
	msgs, ok := g.threads[id]
	g.mu.Unlock()
	if !ok {
		reply(w, http.StatusNotFound, googleError(http.StatusNotFound, "notFound", "Requested entity was not found."))
		return
	}
	var out []map[string]any
	for _, m := range msgs {
		var hs []map[string]string
		for _, h := range m.Headers {
			for _, want := range q["metadataHeaders"] {
				if strings.EqualFold(want, h[0]) {
					hs = append(hs, map[string]string{"name": h[0], "value": h[1]})
				}
			}
		}
		out = append(out, map[string]any{"id": m.ID, "threadId": id, "labelIds": m.Labels,
			"payload": map[string]any{"mimeType": "text/plain", "headers": hs}})
	}
	b, _ := json.Marshal(map[string]any{"id": id, "historyId": "1", "messages": out})
	reply(w, http.StatusOK, string(b))
}

func (g *Google) send(w http.ResponseWriter, req *http.Request, body []byte) {
	var in struct {
		Raw      string `json:"raw"`
		ThreadID string `json:"threadId"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "parseError", "Parse Error"))
		return
	}
	raw, err := base64.URLEncoding.DecodeString(in.Raw)
	if err != nil {
		raw, err = base64.RawURLEncoding.DecodeString(in.Raw)
	}
	var msg *mail.Message
	if err == nil {
		msg, err = mail.ReadMessage(strings.NewReader(string(raw)))
	}
	if err != nil || msg.Header.Get("To") == "" {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "invalidArgument", "Invalid To header"))
		return
	}
	if from, err := mail.ParseAddress(msg.Header.Get("From")); err != nil || !strings.EqualFold(from.Address, g.Address) {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "invalidArgument", "Invalid From header"))
		return
	}
	g.mu.Lock()
	_, known := g.threads[in.ThreadID]
	g.n++
	id := fmt.Sprintf("18c%013x", g.n)
	if known {
		g.sent = append(g.sent, Sent{ID: id, ThreadID: in.ThreadID, Raw: raw})
	}
	g.mu.Unlock()
	if !known {
		reply(w, http.StatusNotFound, googleError(http.StatusNotFound, "notFound", "Requested entity was not found."))
		return
	}
	reply(w, http.StatusOK, fmt.Sprintf(`{"id":%q,"threadId":%q,"labelIds":["SENT"]}`, id, in.ThreadID))
}

func (g *Google) event(w http.ResponseWriter, req *http.Request, calendar string, body []byte) {
	var in struct {
		Summary string `json:"summary"`
		Start   struct {
			DateTime string `json:"dateTime"`
			Date     string `json:"date"`
		} `json:"start"`
		End struct {
			DateTime string `json:"dateTime"`
			Date     string `json:"date"`
		} `json:"end"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "parseError", "Parse Error"))
		return
	}
	if calendar != "primary" && calendar != g.Address {
		reply(w, http.StatusNotFound, googleError(http.StatusNotFound, "notFound", "Not Found"))
		return
	}
	if (in.Start.DateTime == "" && in.Start.Date == "") || (in.End.DateTime == "" && in.End.Date == "") {
		reply(w, http.StatusBadRequest, googleError(http.StatusBadRequest, "required", "Missing end time."))
		return
	}
	g.mu.Lock()
	g.n++
	id := fmt.Sprintf("evt%06d", g.n)
	g.mu.Unlock()
	reply(w, http.StatusOK, fmt.Sprintf(`{"kind":"calendar#event","id":%q,"status":"confirmed","htmlLink":%q,"summary":%q}`,
		id, "https://www.google.com/calendar/event?eid="+id, in.Summary))
}
