package platformtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ShortVideo is the fake short-video platform: TikTok's OAuth v2 token and
// revoke endpoints, user info, and the Content Posting API's creator info
// query, video init (FILE_UPLOAD), chunked PUT upload and status fetch,
// with TikTok's {data, error:{code, message, log_id}} envelope.
type ShortVideo struct {
	*Server
	privacy []string
}

// tiktokUpload is one publish: its metadata and the bytes received.
type tiktokUpload struct {
	account  string
	title    string
	size     int64
	received int64
	postID   string
	failed   string
}

// NewShortVideo starts a fake short-video platform.
func NewShortVideo() *ShortVideo {
	v := &ShortVideo{privacy: []string{"PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"}}
	v.Server = newServer(v, Account{ID: "-000AbCdEfGh1234", Handle: "founder.clips", Name: "Founder"},
		"shortvideo-client-key", "shortvideo-secret", 24*time.Hour)
	return v
}

// SetPrivacyOptions sets the privacy levels the creator info query offers.
func (v *ShortVideo) SetPrivacyOptions(opts ...string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.privacy = opts
}

func (v *ShortVideo) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v2/oauth/token/", v.token)
	mux.HandleFunc("POST /v2/oauth/revoke/", v.revoke)
	mux.HandleFunc("GET /v2/user/info/", v.userInfo)
	mux.HandleFunc("POST /v2/post/publish/creator_info/query/", v.creatorInfo)
	mux.HandleFunc("POST /v2/post/publish/video/init/", v.initVideo)
	mux.HandleFunc("PUT /upload/", v.upload)
	mux.HandleFunc("POST /v2/post/publish/status/fetch/", v.status)
}

// apiError answers TikTok's error envelope.
func apiError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"data": map[string]any{},
		"error": map[string]any{"code": code, "message": msg, "log_id": "202601010000000000FAKE"}})
}

func ok(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, map[string]any{"data": data, "error": map[string]any{"code": "ok", "message": "", "log_id": "202601010000000000FAKE"}})
}

func (v *ShortVideo) problem(w http.ResponseWriter, kind Kind, reason string) {
	switch kind {
	case Transient:
		apiError(w, http.StatusServiceUnavailable, "internal_error", "Service temporarily unavailable")
	case RateLimit:
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "API rate limit exceeded")
	case Expired:
		apiError(w, http.StatusUnauthorized, "access_token_invalid", "The access token is invalid or not found in the request.")
	default:
		if reason == "" {
			reason = "spam_risk_too_many_posts"
		}
		apiError(w, http.StatusForbidden, reason, "The request was refused: "+reason)
	}
}

func oauthError(w http.ResponseWriter, code string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"error": code, "error_description": "The request was refused: " + code, "log_id": "202601010000000000FAKE"})
}

func (v *ShortVideo) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	var access string
	var g *grant
	var bad string
	switch f.Get("grant_type") {
	case "authorization_code":
		access, g, bad = v.redeem(f.Get("client_key"), f.Get("client_secret"), f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"))
	case "refresh_token":
		access, g, bad = v.renew(f.Get("client_key"), f.Get("client_secret"), f.Get("refresh_token"))
	default:
		bad = "unsupported_grant_type"
	}
	if bad != "" {
		oauthError(w, bad)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "expires_in": v.ttlSeconds(), "open_id": g.account,
		"refresh_expires_in": 31536000, "refresh_token": g.refresh, "scope": "user.info.basic,video.publish", "token_type": "Bearer"})
}

func (v *ShortVideo) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	if bad := v.revokeFor(f.Get("client_key"), f.Get("client_secret"), f.Get("token")); bad != "" {
		oauthError(w, bad)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

// auth checks the bearer token and, for JSON posts, the content type.
func (v *ShortVideo) auth(w http.ResponseWriter, r *http.Request) (Account, bool) {
	acct, st := v.check(bearerToken(r))
	if st != tokenOK {
		apiError(w, http.StatusUnauthorized, "access_token_invalid", "The access token is invalid or not found in the request.")
		return acct, false
	}
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		apiError(w, http.StatusBadRequest, "invalid_params", "Content-Type must be application/json")
		return acct, false
	}
	return acct, true
}

func (v *ShortVideo) userInfo(w http.ResponseWriter, r *http.Request) {
	acct, good := v.auth(w, r)
	if !good {
		return
	}
	all := map[string]any{"open_id": acct.ID, "union_id": "u-" + acct.ID, "display_name": acct.Name, "username": acct.Handle}
	user := map[string]any{}
	for _, f := range strings.Split(r.URL.Query().Get("fields"), ",") {
		if x, found := all[f]; found {
			user[f] = x
		} else if f != "" && f != "follower_count" {
			apiError(w, http.StatusBadRequest, "invalid_params", "unknown field "+f)
			return
		}
	}
	ok(w, map[string]any{"user": user})
}

func (v *ShortVideo) creatorInfo(w http.ResponseWriter, r *http.Request) {
	acct, good := v.auth(w, r)
	if !good {
		return
	}
	v.mu.Lock()
	opts := append([]string(nil), v.privacy...)
	v.mu.Unlock()
	ok(w, map[string]any{"creator_username": acct.Handle, "creator_nickname": acct.Name, "privacy_level_options": opts,
		"comment_disabled": false, "duet_disabled": false, "stitch_disabled": false, "max_video_post_duration_sec": 600})
}

func (v *ShortVideo) initVideo(w http.ResponseWriter, r *http.Request) {
	acct, good := v.auth(w, r)
	if !good {
		return
	}
	var in struct {
		PostInfo struct {
			Title        string `json:"title"`
			PrivacyLevel string `json:"privacy_level"`
		} `json:"post_info"`
		SourceInfo struct {
			Source     string `json:"source"`
			VideoSize  int64  `json:"video_size"`
			ChunkSize  int64  `json:"chunk_size"`
			ChunkCount int64  `json:"total_chunk_count"`
		} `json:"source_info"`
	}
	if !decode(r, &in) {
		apiError(w, http.StatusBadRequest, "invalid_params", "body is not JSON")
		return
	}
	v.mu.Lock()
	allowed := strings.Join(v.privacy, ",")
	v.mu.Unlock()
	s := in.SourceInfo
	switch {
	case in.PostInfo.PrivacyLevel == "" || !strings.Contains(","+allowed+",", ","+in.PostInfo.PrivacyLevel+","):
		apiError(w, http.StatusBadRequest, "privacy_level_option_mismatch", "privacy_level is not one of the creator's options")
		return
	case s.Source != "FILE_UPLOAD" || s.VideoSize <= 0 || s.ChunkSize <= 0 || s.ChunkCount != max(s.VideoSize/s.ChunkSize, 1):
		apiError(w, http.StatusBadRequest, "invalid_params", "source_info does not follow the chunk rules")
		return
	}
	id := "v_pub_file~v2-1." + v.next("p")[2:]
	v.store("t:"+id, &tiktokUpload{account: acct.ID, title: in.PostInfo.Title, size: s.VideoSize})
	ok(w, map[string]any{"publish_id": id, "upload_url": "http://" + r.Host + "/upload/?upload_id=" + id})
}

func (v *ShortVideo) upload(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("upload_id")
	x, found := v.load("t:" + id)
	if !found {
		apiError(w, http.StatusNotFound, "invalid_params", "unknown upload")
		return
	}
	u := x.(*tiktokUpload)
	var first, last, total int64
	if _, err := fmt.Sscanf(r.Header.Get("Content-Range"), "bytes %d-%d/%d", &first, &last, &total); err != nil ||
		total != u.size || last < first || last-first+1 != r.ContentLength || !strings.HasPrefix(r.Header.Get("Content-Type"), "video/") {
		apiError(w, http.StatusBadRequest, "invalid_params", "Content-Range, Content-Length or Content-Type is wrong")
		return
	}
	_, fail := v.processing()
	v.mu.Lock()
	if first != u.received {
		v.mu.Unlock()
		apiError(w, http.StatusRequestedRangeNotSatisfiable, "invalid_params", "chunk out of order")
		return
	}
	u.received = last + 1
	done := u.received == u.size
	if done && fail != "" {
		u.failed = fail
	}
	v.mu.Unlock()
	if !done {
		w.WriteHeader(http.StatusPartialContent)
		return
	}
	if fail == "" {
		pid := v.addPost(Post{Account: u.account, Text: u.title, Media: []string{"upload:" + strconv.FormatInt(u.size, 10)}})
		v.mu.Lock()
		u.postID = pid
		v.mu.Unlock()
	}
	w.WriteHeader(http.StatusCreated)
}

func (v *ShortVideo) status(w http.ResponseWriter, r *http.Request) {
	acct, good := v.auth(w, r)
	if !good {
		return
	}
	var in struct {
		PublishID string `json:"publish_id"`
	}
	if !decode(r, &in) {
		apiError(w, http.StatusBadRequest, "invalid_params", "body is not JSON")
		return
	}
	x, found := v.load("t:" + in.PublishID)
	if !found || x.(*tiktokUpload).account != acct.ID {
		apiError(w, http.StatusBadRequest, "invalid_publish_id", "publish_id does not exist")
		return
	}
	u := x.(*tiktokUpload)
	v.mu.Lock()
	received, size, failed, pid := u.received, u.size, u.failed, u.postID
	v.mu.Unlock()
	data := map[string]any{"status": "PROCESSING_UPLOAD", "uploaded_bytes": received}
	if received == size {
		if done, _ := v.processState(in.PublishID); done && failed != "" {
			data = map[string]any{"status": "FAILED", "fail_reason": failed}
		} else if done {
			n, _ := strconv.ParseInt(pid, 10, 64)
			data = map[string]any{"status": "PUBLISH_COMPLETE", "publicaly_available_post_id": []int64{n}, "uploaded_bytes": received}
		} else {
			data["status"] = "PROCESSING_DOWNLOAD"
		}
	}
	ok(w, data)
}
