package content_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
	"github.com/strata-platform/strata/commands/content/platforms/shortvideo"
)

func TestSocialConnectCallbackAndDisconnect(t *testing.T) {
	f := platformtest.StartAll(t)
	hc := &http.Client{Timeout: 5 * time.Second}
	sv := shortvideo.New(f.Settings(platforms.ShortVideo), hc)
	w := start(t, sv)
	ada := w.user(t, "ada@content.test")
	bob := w.user(t, "bob@content.test")

	w.must(t, http.StatusNotFound, ada, "GET", base+"/social/connect/fax", nil)
	w.must(t, http.StatusUnauthorized, nil, "GET", base+"/social/connect/short_video", nil)
	w.must(t, http.StatusBadRequest, ada, "GET", base+"/social/connect/short_video?redirect_uri="+url.QueryEscape("http://evil.example/cb"), nil)

	// The authorization URL carries the platform's parameters and PKCE S256.
	r := w.do(t, ada, "GET", base+"/social/connect/short_video", nil)
	loc, _ := url.Parse(r.Header.Get("Location"))
	q := loc.Query()
	if r.Status != http.StatusFound || q.Get("client_key") != f.ShortVideo.ClientID() || q.Get("code_challenge_method") != "S256" ||
		q.Get("state") == "" || q.Get("redirect_uri") != w.URL+base+"/social/callback/short_video" {
		t.Fatalf("connect: %d %s", r.Status, loc)
	}
	code := f.ShortVideo.Authorize(q.Get("client_key"), q.Get("redirect_uri"), q.Get("code_challenge"), q.Get("state"))
	cb := base + "/social/callback/short_video?code=" + url.QueryEscape(code) + "&state="
	// A tampered state, a state for another platform, another owner's
	// credentials: 400, nothing stored.
	tampered := []byte(q.Get("state"))
	tampered[len(tampered)/2] ^= 1
	for _, bad := range []struct {
		path string
		u    *user
	}{{cb + url.QueryEscape(string(tampered)), nil}, {base + "/social/callback/video_site?code=x&state=" + url.QueryEscape(q.Get("state")), nil},
		{cb + url.QueryEscape(q.Get("state")), bob}} {
		if r := w.do(t, bad.u, "GET", bad.path, nil); r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
			t.Fatalf("bad callback %s: %d %s", bad.path, r.Status, r.Raw)
		}
	}
	if a := w.must(t, http.StatusOK, ada, "GET", base+"/social/accounts", nil); len(a.Body["accounts"].([]any)) != 0 {
		t.Fatalf("a refused callback connected: %s", a.Raw)
	}
	ok := w.must(t, http.StatusOK, nil, "GET", cb+url.QueryEscape(q.Get("state")), nil)
	acct := ok.Body["account"].(map[string]any)
	if acct["platform"] != "short_video" || !strings.HasSuffix(acct["handle"].(string), f.ShortVideo.Account().Handle) || acct["id"] == "" {
		t.Fatalf("callback: %s", ok.Raw)
	}
	if strings.Contains(string(ok.Raw), "token") {
		t.Fatalf("the callback shows a token: %s", ok.Raw)
	}
	// The same state again: refused.
	w.must(t, http.StatusBadRequest, nil, "GET", cb+url.QueryEscape(q.Get("state")), nil)
	if a := w.must(t, http.StatusOK, bob, "GET", base+"/social/accounts", nil); len(a.Body["accounts"].([]any)) != 0 {
		t.Fatalf("bob sees ada's account: %s", a.Raw)
	}
	// Disconnect revokes at the platform.
	d := w.must(t, http.StatusOK, ada, "DELETE", base+"/social/disconnect/short_video", nil)
	if d.Body["revoked_at_platform"] != true || f.ShortVideo.Requests("POST /v2/oauth/revoke/") != 1 {
		t.Fatalf("disconnect: %s", d.Raw)
	}
	w.must(t, http.StatusNotFound, ada, "DELETE", base+"/social/disconnect/short_video", nil)
	if a := w.must(t, http.StatusOK, ada, "GET", base+"/social/accounts", nil); len(a.Body["accounts"].([]any)) != 0 {
		t.Fatalf("disconnected account listed: %s", a.Raw)
	}
}

func TestUnconfiguredPlatformAnswers503NamingItsSettings(t *testing.T) {
	sv := shortvideo.New(connections.Settings{Env: "STRATA_SOCIAL_SHORT_VIDEO_"}, http.DefaultClient)
	w := start(t, sv)
	ada := w.user(t, "ada@content.test")
	r := w.must(t, http.StatusServiceUnavailable, ada, "GET", base+"/social/connect/short_video", nil)
	if !strings.Contains(string(r.Raw), "STRATA_SOCIAL_SHORT_VIDEO_CLIENT_ID") || !strings.Contains(string(r.Raw), "STRATA_SOCIAL_SHORT_VIDEO_CLIENT_SECRET") {
		t.Fatalf("503 does not name the settings: %s", r.Raw)
	}
}

func TestPublishNowToSeveralPlatforms(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ShortVideo)
	w.connect(t, ada, f, platforms.VideoSite)
	w.must(t, http.StatusUnprocessableEntity, ada, "POST", base+"/social/publish", map[string]any{"caption": "x"})
	w.must(t, http.StatusBadRequest, ada, "POST", base+"/social/publish", map[string]any{"platforms": []string{"short_video"}, "caption": "no video"})
	w.must(t, http.StatusBadRequest, ada, "POST", base+"/social/publish", map[string]any{"platforms": []string{"fax"},
		"reel_url": w.Media.URL + "/video.mp4"})
	r := w.must(t, http.StatusAccepted, ada, "POST", base+"/social/publish", map[string]any{
		"platforms": []string{"short_video", "video_site", "photo_network"}, "reel_url": w.Media.URL + "/video.mp4",
		"caption": "Our launch reel", "title": "Launch"})
	job := r.Body["job_id"].(string)
	res := map[string]map[string]any{}
	for _, x := range r.Body["results"].([]any) {
		m := x.(map[string]any)
		res[m["platform"].(string)] = m
	}
	if res["photo_network"]["status"] != "error" || res["photo_network"]["reason"] != "not_connected" ||
		res["short_video"]["task_id"] == "" || res["video_site"]["task_id"] == "" {
		t.Fatalf("publish: %s", r.Raw)
	}
	var st reply
	eventually(t, "publish job settled", func() bool {
		st = w.must(t, http.StatusOK, ada, "GET", base+"/social/publish/"+job, nil)
		return st.Body["status"] != "processing"
	})
	for _, x := range st.Body["results"].([]any) {
		m := x.(map[string]any)
		want := "done"
		if m["platform"] == "photo_network" {
			want = "error"
		}
		if m["status"] != want {
			t.Fatalf("job: %s", st.Raw)
		}
	}
	if f.ShortVideo.PostCount() != 1 || f.VideoSite.PostCount() != 1 || f.Photo.PostCount() != 0 {
		t.Fatalf("posts: %d %d %d", f.ShortVideo.PostCount(), f.VideoSite.PostCount(), f.Photo.PostCount())
	}
	// A media URL that serves a page, not a video: the platform is not called.
	r = w.must(t, http.StatusAccepted, ada, "POST", base+"/social/publish", map[string]any{"platforms": []string{"short_video"},
		"reel_url": w.Media.URL + "/page.html", "caption": "oops"})
	job = r.Body["job_id"].(string)
	eventually(t, "bad media settled", func() bool {
		st = w.must(t, http.StatusOK, ada, "GET", base+"/social/publish/"+job, nil)
		return st.Body["status"] != "processing"
	})
	m := st.Body["results"].([]any)[0].(map[string]any)
	if m["status"] != "error" || !strings.Contains(m["reason"].(string), "media_unfetched") || f.ShortVideo.PostCount() != 1 {
		t.Fatalf("bad media: %s", st.Raw)
	}
	w.must(t, http.StatusNotFound, ada, "GET", base+"/social/publish/"+"0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5e", nil)
}
