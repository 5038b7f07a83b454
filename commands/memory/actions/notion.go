package actions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// NotionVersion is the Notion-Version every call sends.
const NotionVersion = "2022-06-28"

// Notes is the notes provider: Notion (a public integration; OAuth with
// owner=user, the token endpoint taking the client's credentials as HTTP
// Basic and a JSON body). It writes pages under a page or a database.
type Notes struct{ base }

func notionDefaults() connections.Settings {
	return connections.Settings{
		AuthURL:   "https://api.notion.com/v1/oauth/authorize",
		TokenURL:  "https://api.notion.com/v1/oauth/token",
		RevokeURL: "https://api.notion.com/v1/oauth/revoke",
		APIBase:   "https://api.notion.com",
		Env:       "STRATA_NOTES_",
	}
}

// NewNotes returns the notes provider over s (empty URLs: Notion's)
// calling through d.
func NewNotes(s connections.Settings, d connections.Doer) *Notes {
	return &Notes{base{name: ProviderNotes, label: "the notes provider (Notion)", s: s.WithDefaults(notionDefaults()), d: d}}
}

// PKCE implements connections.Provider: Notion takes none.
func (*Notes) PKCE() bool { return false }

// AuthCodeURL implements connections.Provider (Notion has no scopes: the
// founder picks the pages to share).
func (n *Notes) AuthCodeURL(state, redirectURI, _ string) string {
	return connections.AuthURL(n.s.AuthURL, url.Values{"client_id": {n.s.ClientID}, "response_type": {"code"}, "owner": {"user"},
		"redirect_uri": {redirectURI}, "state": {state}})
}

// Exchange implements connections.Provider.
func (n *Notes) Exchange(ctx context.Context, code, redirectURI, _ string) (connections.Tokens, error) {
	return n.token(ctx, map[string]string{"grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI},
		connections.Tokens{}, false)
}

// Refresh implements connections.Provider (integrations whose tokens
// expire have a refresh token; others never need one).
func (n *Notes) Refresh(ctx context.Context, t connections.Tokens) (connections.Tokens, error) {
	if t.RefreshToken == "" {
		return connections.Tokens{}, connections.NoRefresh(n.label)
	}
	return n.token(ctx, map[string]string{"grant_type": "refresh_token", "refresh_token": t.RefreshToken}, t, true)
}

func (n *Notes) token(ctx context.Context, body map[string]string, prev connections.Tokens, refresh bool) (connections.Tokens, error) {
	req, err := n.request(ctx, http.MethodPost, n.s.TokenURL, "", body)
	if err != nil {
		return connections.Tokens{}, err
	}
	req.SetBasicAuth(n.s.ClientID, n.s.ClientSecret)
	var a connections.TokenAnswer
	status, err := send(ctx, n.d, req, false, notionReason, &a)
	if err == nil && a.AccessToken == "" {
		err = connections.Fail(connections.Refused, status, "the token endpoint answered without an access token")
	}
	connections.TokenFailure(connections.AsCallError(err), refresh)
	if err != nil {
		return connections.Tokens{}, err
	}
	return a.Renewed(time.Now(), prev), nil
}

// Revoke implements connections.Provider with /v1/oauth/revoke (client
// credentials as HTTP Basic). Where the endpoint is not offered (404) it
// returns connections.ErrNoRevoke: disconnecting only forgets the token.
func (n *Notes) Revoke(ctx context.Context, t connections.Tokens) error {
	req, err := n.request(ctx, http.MethodPost, n.s.RevokeURL, "", map[string]string{"token": t.AccessToken})
	if err != nil {
		return err
	}
	req.SetBasicAuth(n.s.ClientID, n.s.ClientSecret)
	_, err = n.call(ctx, req, true, nil)
	if ce := connections.AsCallError(err); ce != nil && ce.Status == http.StatusNotFound {
		return connections.ErrNoRevoke
	}
	return err
}

// Identify implements connections.Provider with GET /v1/users/me: the
// integration's bot user, whose owner is the founder who connected it.
func (n *Notes) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	req, err := n.request(ctx, http.MethodGet, n.s.APIBase+"/v1/users/me", t.AccessToken, nil)
	if err != nil {
		return connections.Identity{}, err
	}
	var me struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Bot  struct {
			WorkspaceName string `json:"workspace_name"`
			Owner         struct {
				User struct {
					ID     string `json:"id"`
					Name   string `json:"name"`
					Person struct {
						Email string `json:"email"`
					} `json:"person"`
				} `json:"user"`
			} `json:"owner"`
		} `json:"bot"`
	}
	if _, err := n.call(ctx, req, true, &me); err != nil {
		return connections.Identity{}, err
	}
	id := connections.Identity{ID: me.ID, Handle: me.Bot.WorkspaceName,
		Extra: map[string]string{"bot_id": me.ID, "workspace_name": me.Bot.WorkspaceName}}
	if u := me.Bot.Owner.User; u.ID != "" {
		id.ID = u.ID
		who := u.Person.Email
		if who == "" {
			who = u.Name
		}
		id.Handle = who + " (" + me.Bot.WorkspaceName + ")"
	}
	return id, nil
}

// Create writes the page in (checked) under its parent: a database when
// GET /v1/databases/{id} finds one (the title goes to the database's
// title property), a page otherwise. The first 100 blocks go with the
// page, the rest are appended 100 at a time; a failed append leaves the
// page created, and the failure says so (with the page's id and URL).
func (n *Notes) Create(ctx context.Context, t connections.Tokens, in Page) (PageCreated, error) {
	parent, titleProp, err := n.parent(ctx, t, in.ParentID)
	if err != nil {
		return PageCreated{}, err
	}
	blocks := in.blocks
	first := blocks[:min(len(blocks), MaxBlocksPerRequest)]
	body := map[string]any{"parent": parent,
		"properties": map[string]any{titleProp: map[string]any{"title": RichText(in.Title)}}}
	if len(first) > 0 {
		body["children"] = first
	}
	req, err := n.request(ctx, http.MethodPost, n.s.APIBase+"/v1/pages", t.AccessToken, body)
	if err != nil {
		return PageCreated{}, err
	}
	var page struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if _, err := n.call(ctx, req, false, &page); err != nil {
		return PageCreated{}, err
	}
	out := PageCreated{ID: page.ID, URL: page.URL, Message: "page created with " + strconv.Itoa(len(blocks)) + " block(s)"}
	for sent := len(first); sent < len(blocks); sent += MaxBlocksPerRequest {
		part := blocks[sent:min(len(blocks), sent+MaxBlocksPerRequest)]
		req, err := n.request(ctx, http.MethodPatch, n.s.APIBase+"/v1/blocks/"+url.PathEscape(page.ID)+"/children",
			t.AccessToken, map[string]any{"children": part})
		if err == nil {
			_, err = n.call(ctx, req, false, nil)
		}
		if ce := connections.AsCallError(err); ce != nil {
			ce.Reason = "page " + page.ID + " (" + page.URL + ") was created, but only " + strconv.Itoa(sent) + " of " +
				strconv.Itoa(len(blocks)) + " blocks were added: " + ce.Reason
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// parent looks id up as a database; not one (404, or 400 for a page id):
// a page, whose title property is "title".
func (n *Notes) parent(ctx context.Context, t connections.Tokens, id string) (map[string]string, string, error) {
	req, err := n.request(ctx, http.MethodGet, n.s.APIBase+"/v1/databases/"+url.PathEscape(id), t.AccessToken, nil)
	if err != nil {
		return nil, "", err
	}
	var db struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	_, err = n.call(ctx, req, true, &db)
	if ce := connections.AsCallError(err); ce != nil && (ce.Status == http.StatusNotFound || ce.Status == http.StatusBadRequest) {
		return map[string]string{"page_id": id}, "title", nil
	}
	if err != nil {
		return nil, "", err
	}
	for name, p := range db.Properties {
		if p.Type == "title" {
			return map[string]string{"database_id": id}, name, nil
		}
	}
	return nil, "", connections.Fail(connections.Refused, http.StatusOK, "the database has no title property")
}

// request builds a Notion API request (JSON, Notion-Version).
func (n *Notes) request(ctx context.Context, method, u, token string, body any) (*http.Request, error) {
	req, err := newJSON(ctx, method, u, token, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Notion-Version", NotionVersion)
	return req, nil
}

// call sends a Notion request: a 409 conflict_error (nothing was written)
// is Transient; a 403 restricted_resource stays Refused (the page is not
// shared with the integration).
func (n *Notes) call(ctx context.Context, req *http.Request, idempotent bool, out any) (int, error) {
	status, err := send(ctx, n.d, req, idempotent, notionReason, out)
	if ce := connections.AsCallError(err); ce != nil && ce.Status == http.StatusConflict {
		ce.Class = connections.Transient
	}
	return status, err
}

// notionReason reads a Notion error ({"object":"error","code","message"})
// or an OAuth one ({"error","error_description"}).
func notionReason(status int, body []byte) string {
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && e.Code != "" {
		return connections.JoinReason(e.Code, e.Message)
	}
	if r := oauthReason(status, body); r != "" {
		return r
	}
	return ""
}
