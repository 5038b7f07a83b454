package platformtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// VideoSite is the fake video site: Google's OAuth 2 token and revoke
// endpoints, the YouTube Data API's channels list and resumable video
// upload (initiation, PUT, status query with Content-Range: bytes */N) and
// the YouTube Analytics API's reports query, with Google's {error:{code,
// message, errors:[{reason}]}} body.
type VideoSite struct {
	*Server
}

// ytUpload is one resumable upload session.
type ytUpload struct {
	account  string
	title    string
	text     string
	privacy  string
	size     int64
	received int64
	videoID  string
}

// NewVideoSite starts a fake video site.
func NewVideoSite() *VideoSite {
	v := &VideoSite{}
	v.Server = newServer(v, Account{ID: "UCfounder0000000000000001", Handle: "@founder", Name: "Founder Channel"},
		"videosite-client.apps.googleusercontent.com", "videosite-secret", time.Hour)
	return v
}

func (v *VideoSite) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /token", v.token)
	mux.HandleFunc("POST /revoke", v.revoke)
	mux.HandleFunc("GET /youtube/v3/channels", v.channels)
	mux.HandleFunc("POST /upload/youtube/v3/videos", v.initUpload)
	mux.HandleFunc("PUT /upload/youtube/v3/videos", v.upload)
	mux.HandleFunc("GET /v2/reports", v.reports)
}

// googleError answers Google's error body.
func googleError(w http.ResponseWriter, status int, reason, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": msg,
		"errors": []map[string]any{{"message": msg, "domain": "youtube", "reason": reason}}}})
}

func (v *VideoSite) problem(w http.ResponseWriter, kind Kind, reason string) {
	switch kind {
	case Transient:
		googleError(w, http.StatusServiceUnavailable, "backendError", "Backend Error")
	case RateLimit:
		googleError(w, http.StatusForbidden, "rateLimitExceeded", "Rate Limit Exceeded")
	case Expired:
		googleError(w, http.StatusUnauthorized, "authError", "Invalid Credentials")
	default:
		if reason == "" {
			reason = "uploadLimitExceeded"
		}
		googleError(w, http.StatusForbidden, reason, "The request was refused: "+reason)
	}
}

func (v *VideoSite) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	var access, bad string
	var g *grant
	code := f.Get("grant_type") == "authorization_code"
	switch f.Get("grant_type") {
	case "authorization_code":
		access, g, bad = v.redeem(f.Get("client_id"), f.Get("client_secret"), f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"))
	case "refresh_token":
		access, g, bad = v.renewKeep(f.Get("client_id"), f.Get("client_secret"), f.Get("refresh_token"))
	default:
		bad = "unsupported_grant_type"
	}
	if bad != "" {
		status := http.StatusBadRequest
		if bad == "invalid_client" {
			status = http.StatusUnauthorized
		}
		writeJSON(w, status, map[string]any{"error": bad, "error_description": "Bad Request"})
		return
	}
	out := map[string]any{"access_token": access, "expires_in": v.ttlSeconds(), "token_type": "Bearer",
		"scope": "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/yt-analytics.readonly"}
	if code {
		out["refresh_token"] = g.refresh
	}
	writeJSON(w, http.StatusOK, out)
}

// renewKeep refreshes as Google does: the refresh token stays valid.
func (v *VideoSite) renewKeep(clientID, secret, refresh string) (string, *grant, string) {
	if clientID != v.clientID || secret != v.secret {
		return "", nil, "invalid_client"
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	g := v.refresh[refresh]
	if g == nil || g.revoked {
		return "", nil, "invalid_grant"
	}
	access := v.nextLocked("ya29")
	v.access[access] = &grant{account: g.account, refresh: refresh, expires: time.Now().Add(v.ttl)}
	return access, g, ""
}

func (v *VideoSite) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	if bad := v.revokeFor("", "", r.PostForm.Get("token")); bad != "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_token", "error_description": "Token expired or revoked"})
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (v *VideoSite) auth(w http.ResponseWriter, r *http.Request) (Account, bool) {
	acct, st := v.check(bearerToken(r))
	if st != tokenOK {
		googleError(w, http.StatusUnauthorized, "authError", "Invalid Credentials")
		return acct, false
	}
	return acct, true
}

func (v *VideoSite) channels(w http.ResponseWriter, r *http.Request) {
	acct, ok := v.auth(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	if q.Get("mine") != "true" || !strings.Contains(q.Get("part"), "snippet") {
		googleError(w, http.StatusBadRequest, "missingRequiredParameter", "part=snippet and mine=true are required")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": "youtube#channelListResponse", "items": []map[string]any{{
		"kind": "youtube#channel", "id": acct.ID, "snippet": map[string]any{"title": acct.Name, "customUrl": acct.Handle}}}})
}

func (v *VideoSite) initUpload(w http.ResponseWriter, r *http.Request) {
	acct, ok := v.auth(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	var in struct {
		Snippet struct {
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"snippet"`
		Status struct {
			PrivacyStatus string `json:"privacyStatus"`
			MadeForKids   *bool  `json:"selfDeclaredMadeForKids"`
		} `json:"status"`
	}
	size, _ := strconv.ParseInt(r.Header.Get("X-Upload-Content-Length"), 10, 64)
	switch {
	case q.Get("uploadType") != "resumable" || !strings.Contains(q.Get("part"), "snippet"):
		googleError(w, http.StatusBadRequest, "invalidParameter", "uploadType=resumable and part=snippet,status are required")
		return
	case !decode(r, &in) || in.Snippet.Title == "" || len([]rune(in.Snippet.Title)) > 100 || strings.ContainsAny(in.Snippet.Title, "<>"):
		googleError(w, http.StatusBadRequest, "invalidTitle", "The request metadata specifies an invalid or empty video title.")
		return
	case size <= 0 || !strings.HasPrefix(r.Header.Get("X-Upload-Content-Type"), "video/"):
		googleError(w, http.StatusBadRequest, "invalidParameter", "X-Upload-Content-Length and X-Upload-Content-Type are required")
		return
	}
	id := v.next("upl")
	v.store("yt:"+id, &ytUpload{account: acct.ID, title: in.Snippet.Title, text: in.Snippet.Description, privacy: in.Status.PrivacyStatus, size: size})
	w.Header().Set("Location", "http://"+r.Host+"/upload/youtube/v3/videos?uploadType=resumable&upload_id="+id)
	w.WriteHeader(http.StatusOK)
}

// upload takes the bytes (whole or a Content-Range part) or answers a
// status query (an empty PUT with Content-Range: bytes */N).
func (v *VideoSite) upload(w http.ResponseWriter, r *http.Request) {
	x, ok := v.load("yt:" + r.URL.Query().Get("upload_id"))
	if !ok {
		googleError(w, http.StatusNotFound, "notFound", "upload session not found")
		return
	}
	u := x.(*ytUpload)
	cr := r.Header.Get("Content-Range")
	var first, last, total int64
	bad, create := "", false
	v.mu.Lock()
	switch {
	case strings.HasPrefix(cr, "bytes */"):
	case cr == "" && r.ContentLength == u.size && u.received == 0:
		u.received = u.size
	case cr != "":
		if _, err := fmt.Sscanf(cr, "bytes %d-%d/%d", &first, &last, &total); err != nil || first != u.received ||
			total != u.size || last-first+1 != r.ContentLength {
			bad = "Content-Range does not match"
		} else {
			u.received = last + 1
		}
	default:
		bad = "Content-Length does not match X-Upload-Content-Length"
	}
	if bad == "" && u.received == u.size && u.videoID == "" {
		u.videoID, create = "vid"+v.nextLocked("x")[2:]+"xYz", true
	}
	snap := *u
	v.mu.Unlock()
	switch {
	case bad != "":
		googleError(w, http.StatusBadRequest, "badContent", bad)
		return
	case snap.received < snap.size:
		if snap.received > 0 {
			w.Header().Set("Range", "bytes=0-"+strconv.FormatInt(snap.received-1, 10))
		}
		w.WriteHeader(http.StatusPermanentRedirect)
		return
	}
	if create {
		v.addPost(Post{ID: snap.videoID, Account: snap.account, Title: snap.title, Text: snap.text,
			Media: []string{"upload:" + strconv.FormatInt(snap.size, 10)}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": "youtube#video", "id": snap.videoID,
		"snippet": map[string]any{"title": snap.title, "description": snap.text}, "status": map[string]any{"uploadStatus": "uploaded", "privacyStatus": snap.privacy}})
}
