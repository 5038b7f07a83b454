package platformtest

import (
	"net/http"
	"strings"
	"time"
)

// Photo is the fake photo network: Instagram's Business Login token
// endpoints (code exchange, long-lived token exchange and refresh) and the
// Graph API calls the photo adapter makes (me, media containers, status,
// media_publish, permalink, account insights), with Graph error bodies.
type Photo struct {
	*Server
}

// photoContainer is a media container (or a published media).
type photoContainer struct {
	account   string
	kind      string
	caption   string
	media     []string
	children  []string
	published bool
}

// NewPhoto starts a fake photo network.
func NewPhoto() *Photo {
	p := &Photo{}
	p.Server = newServer(p, Account{ID: "17841400000000001", Handle: "founder.photos", Name: "Founder"},
		"photo-client", "photo-secret", 60*24*time.Hour)
	return p
}

func (p *Photo) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /oauth/access_token", p.code)
	mux.HandleFunc("GET /access_token", p.longLived)
	mux.HandleFunc("GET /refresh_access_token", p.longLived)
	mux.HandleFunc("GET /{version}/me", p.me)
	mux.HandleFunc("POST /{version}/{user}/media", p.media)
	mux.HandleFunc("POST /{version}/{user}/media_publish", p.publish)
	mux.HandleFunc("GET /{version}/{user}/insights", p.insights)
	mux.HandleFunc("GET /{version}/{id}", p.object)
}

// graphError answers a Graph API error body.
func graphError(w http.ResponseWriter, status, code, sub int, msg string, transient bool) {
	e := map[string]any{"message": msg, "type": "OAuthException", "code": code, "fbtrace_id": "AbCdEf"}
	if sub != 0 {
		e["error_subcode"] = sub
	}
	if transient {
		e["is_transient"] = true
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func (p *Photo) problem(w http.ResponseWriter, kind Kind, reason string) {
	switch kind {
	case Transient:
		graphError(w, http.StatusServiceUnavailable, 2, 0, "An unexpected error has occurred. Please retry your request later.", true)
	case RateLimit:
		graphError(w, http.StatusBadRequest, 4, 0, "Application request limit reached", true)
	case Expired:
		graphError(w, http.StatusBadRequest, 190, 463, "Error validating access token: Session has expired.", false)
	default:
		if reason == "" {
			reason = "Invalid parameter"
		}
		graphError(w, http.StatusBadRequest, 100, 0, reason, false)
	}
}

// tokenError answers the Instagram token endpoints' error shape.
func tokenError(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"error_type": "OAuthException", "code": 400, "error_message": msg})
}

func (p *Photo) code(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	if f.Get("grant_type") != "authorization_code" {
		tokenError(w, "Invalid grant_type")
		return
	}
	access, g, bad := p.redeem(f.Get("client_id"), f.Get("client_secret"), f.Get("code"), f.Get("redirect_uri"), "")
	if bad != "" {
		tokenError(w, "Error validating verification code ("+bad+")")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": []map[string]any{{"access_token": access, "user_id": g.account,
		"permissions": "instagram_business_basic,instagram_business_content_publish"}}})
}

// longLived serves ig_exchange_token and ig_refresh_token: the token is
// in the query, as Instagram takes it.
func (p *Photo) longLived(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	want := "ig_exchange_token"
	if r.URL.Path == "/refresh_access_token" {
		want = "ig_refresh_token"
	} else if q.Get("client_secret") != p.secret {
		graphError(w, http.StatusBadRequest, 101, 0, "Error validating client secret.", false)
		return
	}
	if q.Get("grant_type") != want {
		graphError(w, http.StatusBadRequest, 100, 0, "Unsupported grant_type", false)
		return
	}
	acct, st := p.check(q.Get("access_token"))
	if st != tokenOK {
		p.authProblem(w, st)
		return
	}
	p.mu.Lock()
	access, _ := p.issueLocked(acct.ID)
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "bearer", "expires_in": p.ttlSeconds()})
}

func (p *Photo) authProblem(w http.ResponseWriter, st tokenState) {
	switch st {
	case tokenExpired:
		p.problem(w, Expired, "")
	case tokenMissing:
		graphError(w, http.StatusBadRequest, 2500, 0, "An active access token must be used to query information about the current user.", false)
	default:
		graphError(w, http.StatusBadRequest, 190, 0, "Invalid OAuth access token - Cannot parse access token", false)
	}
}

// auth checks the bearer token (or access_token parameter).
func (p *Photo) auth(w http.ResponseWriter, r *http.Request) (Account, bool) {
	tok := bearerToken(r)
	if tok == "" {
		tok = r.URL.Query().Get("access_token")
	}
	acct, st := p.check(tok)
	if st != tokenOK {
		p.authProblem(w, st)
		return acct, false
	}
	return acct, true
}

func (p *Photo) me(w http.ResponseWriter, r *http.Request) {
	acct, ok := p.auth(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user_id": acct.ID, "username": acct.Handle, "id": acct.ID})
}

// own checks that the path's user is the token's account.
func (p *Photo) own(w http.ResponseWriter, r *http.Request) (Account, bool) {
	acct, ok := p.auth(w, r)
	if ok && r.PathValue("user") != acct.ID {
		graphError(w, http.StatusBadRequest, 100, 33, "Unsupported post request. Object with ID '"+r.PathValue("user")+"' does not exist or cannot be loaded due to missing permissions.", false)
		return acct, false
	}
	return acct, ok
}

func (p *Photo) media(w http.ResponseWriter, r *http.Request) {
	acct, ok := p.own(w, r)
	if !ok {
		return
	}
	_ = r.ParseForm()
	f := r.Form
	c := &photoContainer{account: acct.ID, kind: f.Get("media_type"), caption: f.Get("caption")}
	switch c.kind {
	case "REELS", "VIDEO", "STORIES":
		c.media = []string{f.Get("video_url")}
	case "CAROUSEL":
		for _, id := range strings.Split(f.Get("children"), ",") {
			v, ok := p.load("c:" + id)
			if !ok || v.(*photoContainer).account != acct.ID {
				graphError(w, http.StatusBadRequest, 100, 2207028, "The carousel item "+id+" is not a valid container", false)
				return
			}
			c.media = append(c.media, v.(*photoContainer).media...)
			c.children = append(c.children, id)
		}
		if len(c.children) < 2 || len(c.children) > 10 {
			graphError(w, http.StatusBadRequest, 100, 2207028, "A carousel takes 2 to 10 items", false)
			return
		}
	case "", "IMAGE":
		c.kind = "IMAGE"
		c.media = []string{f.Get("image_url")}
	default:
		graphError(w, http.StatusBadRequest, 100, 0, "Invalid media_type", false)
		return
	}
	if len(c.media) == 0 || c.media[0] == "" {
		graphError(w, http.StatusBadRequest, 100, 0, "The parameter video_url or image_url is required", false)
		return
	}
	id := p.next("c")[2:] + "0001"
	p.store("c:"+id, c)
	writeJSON(w, http.StatusOK, map[string]any{"id": id})
}

func (p *Photo) object(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.auth(w, r); !ok {
		return
	}
	id := r.PathValue("id")
	if _, ok := p.load("m:" + id); ok {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "permalink": "https://www.instagram.com/p/" + id + "/"})
		return
	}
	v, ok := p.load("c:" + id)
	if !ok {
		graphError(w, http.StatusBadRequest, 100, 33, "Object with ID '"+id+"' does not exist", false)
		return
	}
	c := v.(*photoContainer)
	status, detail := "IN_PROGRESS", "In Progress"
	if done, fail := p.processState(id); done && fail != "" {
		status, detail = "ERROR", fail
	} else if done {
		status, detail = "FINISHED", "Finished"
	}
	p.mu.Lock()
	if c.published {
		status, detail = "PUBLISHED", "Published"
	}
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "status_code": status, "status": detail})
}

func (p *Photo) publish(w http.ResponseWriter, r *http.Request) {
	acct, ok := p.own(w, r)
	if !ok {
		return
	}
	_ = r.ParseForm()
	id := r.Form.Get("creation_id")
	v, ok := p.load("c:" + id)
	if !ok || v.(*photoContainer).account != acct.ID {
		graphError(w, http.StatusBadRequest, 100, 0, "Invalid creation_id", false)
		return
	}
	c := v.(*photoContainer)
	polls, fail := p.processing()
	p.mu.Lock()
	n, published := p.pollCount[id], c.published
	ready := !published && (polls == 0 || n > polls) && fail == ""
	c.published = c.published || ready
	p.mu.Unlock()
	if !ready {
		graphError(w, http.StatusBadRequest, 9007, 2207027, "Media ID is not available", false)
		return
	}
	mid := p.addPost(Post{Account: acct.ID, Text: c.caption, Media: c.media})
	p.store("m:"+mid, c)
	writeJSON(w, http.StatusOK, map[string]any{"id": mid})
}
