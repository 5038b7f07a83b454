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

// GitHub fakes GitHub's OAuth (login/oauth/access_token, answering errors
// with HTTP 200 {"error"} as GitHub does; DELETE
// /applications/{client_id}/grant with Basic credentials) and the REST
// API's GET /user and POST /repos/{owner}/{repo}/issues, which need
// Accept application/vnd.github+json and X-GitHub-Api-Version 2022-11-28.
// Errors are {"message", "documentation_url"}: 401 Bad credentials, 404
// Not Found for an unknown repository, 422 Validation Failed.
type GitHub struct {
	Recorder
	URL   string
	Token string
	mu    sync.Mutex
	repos map[string]int // owner/repo -> last issue number
}

// NewGitHub starts a GitHub fake accepting token, with the repositories
// repos ("owner/repo").
func NewGitHub(t testing.TB, token string, repos ...string) *GitHub {
	g := &GitHub{Token: token, repos: map[string]int{}}
	for _, r := range repos {
		g.repos[r] = 0
	}
	g.URL = start(t, http.HandlerFunc(g.serve)).URL
	return g
}

// Settings points the issues adapter at the fake.
func (g *GitHub) Settings() connections.Settings {
	return connections.Settings{ClientID: ClientID, ClientSecret: ClientSecret, AuthURL: g.URL + "/login/oauth/authorize",
		TokenURL: g.URL + "/login/oauth/access_token", RevokeURL: g.URL + "/applications/" + ClientID + "/grant", APIBase: g.URL}
}

// GitHubError is a REST API error answer.
func GitHubError(status int, message string) Failure {
	return Failure{Status: status, Body: fmt.Sprintf(`{"message":%q,"documentation_url":"https://docs.github.com/rest"}`, message)}
}

func (g *GitHub) serve(w http.ResponseWriter, req *http.Request) {
	body, done := g.record(w, req)
	if done {
		return
	}
	path := req.URL.Path
	if path == "/login/oauth/access_token" {
		g.token(w, req)
		return
	}
	if path == "/applications/"+ClientID+"/grant" && req.Method == http.MethodDelete {
		if u, p, ok := req.BasicAuth(); !ok || u != ClientID || p != ClientSecret {
			reply(w, http.StatusUnauthorized, `{"message":"Requires authentication"}`)
			return
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if req.Header.Get("Accept") != "application/vnd.github+json" || req.Header.Get("X-GitHub-Api-Version") != "2022-11-28" {
		reply(w, http.StatusBadRequest, `{"message":"missing Accept or X-GitHub-Api-Version"}`)
		return
	}
	if bearer(req) != g.Token {
		reply(w, http.StatusUnauthorized, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`)
		return
	}
	switch {
	case req.Method == http.MethodGet && path == "/user":
		reply(w, http.StatusOK, `{"login":"ana","id":583231,"name":"Ana"}`)
	case req.Method == http.MethodPost && strings.HasPrefix(path, "/repos/") && strings.HasSuffix(path, "/issues"):
		g.issue(w, req, strings.TrimSuffix(strings.TrimPrefix(path, "/repos/"), "/issues"), body)
	default:
		reply(w, http.StatusNotFound, `{"message":"Not Found"}`)
	}
}

func (g *GitHub) token(w http.ResponseWriter, req *http.Request) {
	if req.Header.Get("Accept") != "application/json" {
		w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
		_, _ = w.Write([]byte("error=not_json"))
		return
	}
	if req.ParseForm() != nil || req.PostForm.Get("client_id") != ClientID || req.PostForm.Get("client_secret") != ClientSecret {
		reply(w, http.StatusOK, `{"error":"incorrect_client_credentials","error_description":"The client_id and/or client_secret passed are incorrect."}`)
		return
	}
	switch f := req.PostForm; {
	case f.Get("code") == Code:
		reply(w, http.StatusOK, fmt.Sprintf(`{"access_token":%q,"token_type":"bearer","scope":"repo"}`, g.Token))
	case f.Get("grant_type") == "refresh_token" && f.Get("refresh_token") == Refresh:
		reply(w, http.StatusOK, fmt.Sprintf(`{"access_token":%q,"expires_in":28800,"refresh_token":%q,"token_type":"bearer","scope":""}`,
			g.Token, Refresh))
	case f.Get("grant_type") == "refresh_token":
		reply(w, http.StatusOK, `{"error":"bad_refresh_token","error_description":"The refresh token passed is incorrect or expired."}`)
	default:
		reply(w, http.StatusOK, `{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}`)
	}
}

func (g *GitHub) issue(w http.ResponseWriter, req *http.Request, repo string, body []byte) {
	var in struct {
		Title  string   `json:"title"`
		Body   string   `json:"body"`
		Labels []string `json:"labels"`
	}
	if !isJSON(req) || json.Unmarshal(body, &in) != nil {
		reply(w, http.StatusBadRequest, `{"message":"Problems parsing JSON"}`)
		return
	}
	g.mu.Lock()
	n, ok := g.repos[repo]
	if ok && in.Title != "" {
		n++
		g.repos[repo] = n
	}
	g.mu.Unlock()
	switch {
	case !ok:
		reply(w, http.StatusNotFound, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/issues#create-an-issue","status":"404"}`)
	case in.Title == "":
		reply(w, http.StatusUnprocessableEntity, `{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing_field","field":"title"}]}`)
	default:
		reply(w, http.StatusCreated, fmt.Sprintf(`{"id":%d,"number":%d,"html_url":"https://github.com/%s/issues/%d","title":%q,"state":"open"}`,
			1000+n, n, repo, n, in.Title))
	}
}
