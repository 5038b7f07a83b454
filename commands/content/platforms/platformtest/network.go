package platformtest

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Network is the fake professional network: LinkedIn's OAuth 2 token and
// revoke endpoints, OIDC userinfo, and the versioned REST API's posts,
// images and videos (initializeUpload, PUT, finalizeUpload) and member
// post analytics, with LinkedIn's {status, serviceErrorCode, code,
// message} error body. It refuses a post repeating the author's earlier
// commentary with 422 DUPLICATE_POST, as LinkedIn does.
type Network struct {
	*Server
}

// linkedinAsset is an image or video being uploaded.
type linkedinAsset struct {
	owner    string
	size     int64
	received int64
	final    bool
}

// NewNetwork starts a fake professional network.
func NewNetwork() *Network {
	n := &Network{}
	n.Server = newServer(n, Account{ID: "AbCdEf123", Handle: "founder@example.com", Name: "Ada Founder", Email: "founder@example.com"},
		"network-client", "network-secret", 60*24*time.Hour)
	return n
}

func (n *Network) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /oauth/v2/accessToken", n.token)
	mux.HandleFunc("POST /oauth/v2/revoke", n.revoke)
	mux.HandleFunc("GET /v2/userinfo", n.userinfo)
	mux.HandleFunc("POST /rest/posts", n.rest(n.post))
	mux.HandleFunc("POST /rest/images", n.rest(n.initUpload))
	mux.HandleFunc("POST /rest/videos", n.rest(n.initUpload))
	mux.HandleFunc("PUT /upload/{id}", n.upload)
	mux.HandleFunc("GET /rest/memberCreatorPostAnalytics", n.rest(n.analytics))
}

// liError answers LinkedIn's error body.
func liError(w http.ResponseWriter, status, service int, code, msg string) {
	writeJSON(w, status, map[string]any{"status": status, "serviceErrorCode": service, "code": code, "message": msg})
}

func (n *Network) problem(w http.ResponseWriter, kind Kind, reason string) {
	switch kind {
	case Transient:
		liError(w, http.StatusServiceUnavailable, 0, "SERVICE_UNAVAILABLE", "Service Unavailable")
	case RateLimit:
		liError(w, http.StatusTooManyRequests, 101, "TOO_MANY_REQUESTS", "Resource level throttle limit for calls to this resource is reached.")
	case Expired:
		liError(w, http.StatusUnauthorized, 65600, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired")
	default:
		if reason == "" || reason == "DUPLICATE_POST" {
			liError(w, http.StatusUnprocessableEntity, 0, "DUPLICATE_POST", "Content is a duplicate of urn:li:share:1")
			return
		}
		liError(w, http.StatusUnprocessableEntity, 0, reason, "The request was refused: "+reason)
	}
}

func (n *Network) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	var access, bad string
	var g *grant
	switch f.Get("grant_type") {
	case "authorization_code":
		access, g, bad = n.redeem(f.Get("client_id"), f.Get("client_secret"), f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"))
	case "refresh_token":
		access, g, bad = n.renew(f.Get("client_id"), f.Get("client_secret"), f.Get("refresh_token"))
	default:
		bad = "unsupported_grant_type"
	}
	if bad == "redirect_uri_mismatch" || bad == "invalid_grant" {
		bad = "invalid_request" // LinkedIn's answer for a bad, used or mismatched code
	}
	if bad != "" {
		status := http.StatusBadRequest
		if bad == "invalid_client" {
			status = http.StatusUnauthorized
		}
		writeJSON(w, status, map[string]any{"error": bad, "error_description": "The request was refused: " + bad})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "expires_in": n.ttlSeconds(), "refresh_token": g.refresh,
		"refresh_token_expires_in": 31536000, "scope": "email,openid,profile,w_member_social", "token_type": "Bearer"})
}

func (n *Network) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	if bad := n.revokeFor(f.Get("client_id"), f.Get("client_secret"), f.Get("token")); bad != "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": bad, "error_description": "The token cannot be revoked"})
		return
	}
	w.WriteHeader(http.StatusOK)
}

// auth checks the bearer token.
func (n *Network) auth(w http.ResponseWriter, r *http.Request) (Account, bool) {
	acct, st := n.check(bearerToken(r))
	switch st {
	case tokenOK:
		return acct, true
	case tokenExpired:
		n.problem(w, Expired, "")
	case tokenInvalid:
		liError(w, http.StatusUnauthorized, 65601, "REVOKED_ACCESS_TOKEN", "The token used in the request has been revoked by the user")
	default:
		liError(w, http.StatusUnauthorized, 65604, "EMPTY_ACCESS_TOKEN", "Empty oauth2 access token")
	}
	return acct, false
}

var versionRE = regexp.MustCompile(`^20\d{4}$`)

// rest wraps a /rest handler: the token, LinkedIn-Version and the Rest.li
// protocol version are required.
func (n *Network) rest(h func(http.ResponseWriter, *http.Request, Account)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		acct, ok := n.auth(w, r)
		if !ok {
			return
		}
		if !versionRE.MatchString(r.Header.Get("LinkedIn-Version")) {
			liError(w, http.StatusBadRequest, 0, "VERSION_MISSING", "A version must be present. Please specify a version by adding the LinkedIn-Version header.")
			return
		}
		if r.Header.Get("X-Restli-Protocol-Version") != "2.0.0" {
			liError(w, http.StatusBadRequest, 0, "ILLEGAL_ARGUMENT", "X-Restli-Protocol-Version 2.0.0 is required")
			return
		}
		h(w, r, acct)
	}
}

func (n *Network) userinfo(w http.ResponseWriter, r *http.Request) {
	acct, ok := n.auth(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sub": acct.ID, "name": acct.Name, "email": acct.Email, "email_verified": true, "locale": "en_US"})
}

var unescapeRE = regexp.MustCompile(`\\([|{}@\[\]()<>#\\*_~])`)

func (n *Network) post(w http.ResponseWriter, r *http.Request, acct Account) {
	var in struct {
		Author       string `json:"author"`
		Commentary   string `json:"commentary"`
		Visibility   string `json:"visibility"`
		Distribution struct {
			FeedDistribution string `json:"feedDistribution"`
		} `json:"distribution"`
		Content *struct {
			Media *struct {
				ID    string `json:"id"`
				Title string `json:"title"`
			} `json:"media"`
			MultiImage *struct {
				Images []struct {
					ID string `json:"id"`
				} `json:"images"`
			} `json:"multiImage"`
		} `json:"content"`
		LifecycleState string `json:"lifecycleState"`
	}
	if !decode(r, &in) || in.Author != "urn:li:person:"+acct.ID || in.Visibility == "" ||
		in.Distribution.FeedDistribution != "MAIN_FEED" || in.LifecycleState != "PUBLISHED" {
		liError(w, http.StatusUnprocessableEntity, 0, "UNPROCESSABLE_ENTITY", "author, visibility, distribution or lifecycleState is wrong")
		return
	}
	text := unescapeRE.ReplaceAllString(in.Commentary, "$1")
	p := Post{Account: acct.ID, Text: text}
	var ids []string
	if c := in.Content; c != nil && c.Media != nil {
		ids, p.Title = []string{c.Media.ID}, c.Media.Title
	} else if c != nil && c.MultiImage != nil {
		for _, im := range c.MultiImage.Images {
			ids = append(ids, im.ID)
		}
	}
	for _, id := range ids {
		x, ok := n.load("li:" + id)
		a, _ := x.(*linkedinAsset)
		if !ok || a.owner != in.Author || a.received != a.size || strings.HasPrefix(id, "urn:li:video:") && !a.final {
			liError(w, http.StatusUnprocessableEntity, 0, "UNPROCESSABLE_ENTITY", "media "+id+" is not uploaded")
			return
		}
		p.Media = append(p.Media, id)
	}
	for _, old := range n.Posts() {
		if old.Account == acct.ID && old.Text == text {
			n.problem(w, Refuse, "DUPLICATE_POST")
			return
		}
	}
	id := "urn:li:share:" + n.addPost(p)
	w.Header().Set("x-restli-id", id)
	w.WriteHeader(http.StatusCreated)
}

func (n *Network) initUpload(w http.ResponseWriter, r *http.Request, acct Account) {
	action := r.URL.Query().Get("action")
	video := r.URL.Path == "/rest/videos"
	if video && action == "finalizeUpload" {
		var in struct {
			Req struct {
				Video   string   `json:"video"`
				PartIDs []string `json:"uploadedPartIds"`
			} `json:"finalizeUploadRequest"`
		}
		decoded := decode(r, &in)
		x, ok := n.load("li:" + in.Req.Video)
		a, _ := x.(*linkedinAsset)
		if !decoded || !ok || a.received != a.size || len(in.Req.PartIDs) == 0 {
			liError(w, http.StatusBadRequest, 0, "ILLEGAL_ARGUMENT", "the video's parts are not all uploaded")
			return
		}
		n.mu.Lock()
		a.final = true
		n.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{})
		return
	}
	var in struct {
		Req struct {
			Owner string `json:"owner"`
			Size  int64  `json:"fileSizeBytes"`
		} `json:"initializeUploadRequest"`
	}
	if action != "initializeUpload" || !decode(r, &in) || in.Req.Owner != "urn:li:person:"+acct.ID || video && in.Req.Size <= 0 {
		liError(w, http.StatusBadRequest, 0, "ILLEGAL_ARGUMENT", "initializeUploadRequest.owner (and fileSizeBytes for a video) is required")
		return
	}
	id := n.next("asset")[6:]
	base := "http://" + r.Host + "/upload/" + id
	if !video {
		urn := "urn:li:image:C4E" + id
		n.store("li:"+urn, &linkedinAsset{owner: in.Req.Owner, size: -1})
		n.store("up:"+id, urn)
		writeJSON(w, http.StatusOK, map[string]any{"value": map[string]any{"uploadUrlExpiresAt": time.Now().Add(time.Hour).UnixMilli(),
			"uploadUrl": base, "image": urn}})
		return
	}
	urn := "urn:li:video:C5F" + id
	n.store("li:"+urn, &linkedinAsset{owner: in.Req.Owner, size: in.Req.Size})
	n.store("up:"+id, urn)
	const part = 4 << 20
	var parts []map[string]any
	for first := int64(0); first < in.Req.Size; first += part {
		last := min(first+part, in.Req.Size) - 1
		parts = append(parts, map[string]any{"uploadUrl": base + "?first=" + strconv.FormatInt(first, 10), "firstByte": first, "lastByte": last})
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": map[string]any{"uploadUrlsExpireAt": time.Now().Add(time.Hour).UnixMilli(),
		"video": urn, "uploadInstructions": parts, "uploadToken": ""}})
}

func (n *Network) upload(w http.ResponseWriter, r *http.Request) {
	if _, ok := n.auth(w, r); !ok {
		return
	}
	x, ok := n.load("up:" + r.PathValue("id"))
	if !ok {
		liError(w, http.StatusNotFound, 0, "NOT_FOUND", "unknown upload")
		return
	}
	y, _ := n.load("li:" + x.(string))
	a := y.(*linkedinAsset)
	first, _ := strconv.ParseInt(r.URL.Query().Get("first"), 10, 64)
	n.mu.Lock()
	defer n.mu.Unlock()
	if a.size < 0 { // an image: one PUT
		a.size = r.ContentLength
	} else if first != a.received {
		liError(w, http.StatusBadRequest, 0, "ILLEGAL_ARGUMENT", "part out of order")
		return
	}
	a.received += r.ContentLength
	w.Header().Set("ETag", `"part-`+strconv.FormatInt(first, 10)+`"`)
	w.WriteHeader(http.StatusCreated)
}
