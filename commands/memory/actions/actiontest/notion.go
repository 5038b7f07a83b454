package actiontest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/strata-platform/strata/commands/connections"
)

// Notion fakes Notion's OAuth (POST /v1/oauth/token and /v1/oauth/revoke
// with HTTP Basic client credentials and JSON bodies) and the API calls
// GET /v1/users/me, GET /v1/databases/{id}, POST /v1/pages and PATCH
// /v1/blocks/{id}/children, which need Notion-Version 2022-06-28. It
// checks Notion's limits (100 children per request, 2000 characters per
// rich text object) and answers Notion's error shape ({"object": "error",
// "status", "code", "message"}).
type Notion struct {
	Recorder
	URL   string
	Token string
	mu    sync.Mutex
	// pages and databases known to the integration (ids without hyphens);
	// a database maps to its title property's name.
	pages     map[string][]map[string]any
	databases map[string]string
	n         int
}

// NewNotion starts a Notion fake accepting token.
func NewNotion(t testing.TB, token string) *Notion {
	n := &Notion{Token: token, pages: map[string][]map[string]any{}, databases: map[string]string{}}
	n.URL = start(t, http.HandlerFunc(n.serve)).URL
	return n
}

// Settings points the notes adapter at the fake.
func (n *Notion) Settings() connections.Settings {
	return connections.Settings{ClientID: ClientID, ClientSecret: ClientSecret, AuthURL: n.URL + "/v1/oauth/authorize",
		TokenURL: n.URL + "/v1/oauth/token", RevokeURL: n.URL + "/v1/oauth/revoke", APIBase: n.URL}
}

// AddPage shares a page with the integration.
func (n *Notion) AddPage(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pages[plainID(id)] = nil
}

// AddDatabase shares a database whose title property is titleProp.
func (n *Notion) AddDatabase(id, titleProp string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.databases[plainID(id)] = titleProp
}

// Children returns the blocks of a page created through the fake.
func (n *Notion) Children(id string) []map[string]any {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.pages[plainID(id)]
}

// NotionError is a Notion API error answer.
func NotionError(status int, code, message string) Failure {
	return Failure{Status: status, Body: notionError(status, code, message)}
}

func notionError(status int, code, message string) string {
	b, _ := json.Marshal(map[string]any{"object": "error", "status": status, "code": code, "message": message})
	return string(b)
}

func plainID(id string) string { return strings.ToLower(strings.ReplaceAll(id, "-", "")) }

func (n *Notion) serve(w http.ResponseWriter, req *http.Request) {
	body, done := n.record(w, req)
	if done {
		return
	}
	path := req.URL.Path
	if path == "/v1/oauth/token" || path == "/v1/oauth/revoke" {
		n.oauth(w, req, body)
		return
	}
	if req.Header.Get("Notion-Version") != "2022-06-28" {
		reply(w, http.StatusBadRequest, notionError(400, "missing_version", "Notion-Version header failed validation."))
		return
	}
	if bearer(req) != n.Token {
		reply(w, http.StatusUnauthorized, notionError(401, "unauthorized", "API token is invalid."))
		return
	}
	switch {
	case req.Method == http.MethodGet && path == "/v1/users/me":
		reply(w, http.StatusOK, `{"object":"user","id":"b0b0b0b0-0000-4000-8000-000000000001","name":"Strata","type":"bot",`+
			`"bot":{"owner":{"type":"user","user":{"object":"user","id":"a1a1a1a1-0000-4000-8000-000000000002","name":"Ana",`+
			`"type":"person","person":{"email":"ana@acme.test"}}},"workspace_name":"Acme"}}`)
	case req.Method == http.MethodGet && strings.HasPrefix(path, "/v1/databases/"):
		n.database(w, strings.TrimPrefix(path, "/v1/databases/"))
	case req.Method == http.MethodPost && path == "/v1/pages":
		n.page(w, req, body)
	case req.Method == http.MethodPatch && strings.HasPrefix(path, "/v1/blocks/") && strings.HasSuffix(path, "/children"):
		n.append(w, req, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/blocks/"), "/children"), body)
	default:
		reply(w, http.StatusBadRequest, notionError(400, "invalid_request_url", "Invalid request URL."))
	}
}

func (n *Notion) oauth(w http.ResponseWriter, req *http.Request, body []byte) {
	if u, p, ok := req.BasicAuth(); !ok || u != ClientID || p != ClientSecret {
		reply(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"Invalid client credentials."}`)
		return
	}
	var in map[string]string
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, `{"error":"invalid_request","error_description":"body must be JSON"}`)
		return
	}
	switch {
	case req.URL.Path == "/v1/oauth/revoke":
		reply(w, http.StatusOK, `{"request_id":"3c90c3cc-0d44-4b50-8888-8dd25736052a"}`)
	case in["grant_type"] == "authorization_code" && in["code"] == Code:
		reply(w, http.StatusOK, fmt.Sprintf(`{"access_token":%q,"token_type":"bearer","bot_id":"b0b0b0b0-0000-4000-8000-000000000001",`+
			`"workspace_id":"c2c2c2c2-0000-4000-8000-000000000003","workspace_name":"Acme","owner":{"type":"user",`+
			`"user":{"object":"user","id":"a1a1a1a1-0000-4000-8000-000000000002"}}}`, n.Token))
	default:
		reply(w, http.StatusBadRequest, `{"error":"invalid_grant","error_description":"Invalid code."}`)
	}
}

func (n *Notion) database(w http.ResponseWriter, id string) {
	n.mu.Lock()
	title, isDB := n.databases[plainID(id)]
	_, isPage := n.pages[plainID(id)]
	n.mu.Unlock()
	switch {
	case isDB:
		b, _ := json.Marshal(map[string]any{"object": "database", "id": id, "properties": map[string]any{
			title:  map[string]any{"id": "title", "type": "title", "title": map[string]any{}},
			"Tags": map[string]any{"id": "tg", "type": "multi_select", "multi_select": map[string]any{}}}})
		reply(w, http.StatusOK, string(b))
	case isPage:
		reply(w, http.StatusBadRequest, notionError(400, "validation_error", "Provided ID "+id+" is a page, not a database."))
	default:
		reply(w, http.StatusNotFound, notionError(404, "object_not_found", "Could not find database with ID: "+id+"."))
	}
}

func (n *Notion) page(w http.ResponseWriter, req *http.Request, body []byte) {
	var in struct {
		Parent     map[string]string                     `json:"parent"`
		Properties map[string]map[string]json.RawMessage `json:"properties"`
		Children   []map[string]any                      `json:"children"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, notionError(400, "invalid_json", "Error parsing JSON body."))
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	titleProp := "title"
	if db, ok := in.Parent["database_id"]; ok {
		if titleProp, ok = n.databases[plainID(db)]; !ok {
			reply(w, http.StatusNotFound, notionError(404, "object_not_found", "Could not find database with ID: "+db+"."))
			return
		}
	} else if _, ok := n.pages[plainID(in.Parent["page_id"])]; !ok {
		reply(w, http.StatusNotFound, notionError(404, "object_not_found", "Could not find page with ID: "+in.Parent["page_id"]+"."))
		return
	}
	if _, ok := in.Properties[titleProp]["title"]; !ok || len(in.Properties) != 1 {
		reply(w, http.StatusBadRequest, notionError(400, "validation_error", "body.properties should have the title property "+titleProp+"."))
		return
	}
	if msg := checkChildren(in.Children); msg != "" {
		reply(w, http.StatusBadRequest, notionError(400, "validation_error", msg))
		return
	}
	n.n++
	id := fmt.Sprintf("d3d3d3d3-0000-4000-8000-%012d", n.n)
	n.pages[plainID(id)] = in.Children
	reply(w, http.StatusOK, fmt.Sprintf(`{"object":"page","id":%q,"url":"https://www.notion.so/Page-%s"}`, id, plainID(id)))
}

func (n *Notion) append(w http.ResponseWriter, req *http.Request, id string, body []byte) {
	var in struct {
		Children []map[string]any `json:"children"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, notionError(400, "invalid_json", "Error parsing JSON body."))
		return
	}
	if msg := checkChildren(in.Children); msg != "" {
		reply(w, http.StatusBadRequest, notionError(400, "validation_error", msg))
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	cur, ok := n.pages[plainID(id)]
	if !ok {
		reply(w, http.StatusNotFound, notionError(404, "object_not_found", "Could not find block with ID: "+id+"."))
		return
	}
	n.pages[plainID(id)] = append(cur, in.Children...)
	reply(w, http.StatusOK, `{"object":"list","results":[]}`)
}

// checkChildren applies Notion's limits to children ("" when they hold).
func checkChildren(children []map[string]any) string {
	if len(children) > 100 {
		return fmt.Sprintf("body.children.length should be ≤ 100, instead was %d.", len(children))
	}
	for i, c := range children {
		kind, _ := c["type"].(string)
		inner, _ := c[kind].(map[string]any)
		if kind == "" || inner == nil {
			return fmt.Sprintf("body.children[%d] should be a block with its type's object.", i)
		}
		rich, _ := inner["rich_text"].([]any)
		if len(rich) > 100 {
			return fmt.Sprintf("body.children[%d].%s.rich_text.length should be ≤ 100.", i, kind)
		}
		for j, r := range rich {
			text, _ := r.(map[string]any)["text"].(map[string]any)
			content, _ := text["content"].(string)
			if l := len(utf16.Encode([]rune(content))); l > 2000 {
				return fmt.Sprintf("body.children[%d].%s.rich_text[%d].text.content.length should be ≤ 2000, instead was %d.", i, kind, j, l)
			}
		}
	}
	return ""
}
