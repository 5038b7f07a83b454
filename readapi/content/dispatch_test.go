package content_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/network"
	"github.com/strata-platform/strata/commands/content/platforms/platformtest"
)

// soon is a scheduled_at a second from now (the jobs run on the wall clock).
func soon() string { return time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano) }

// item schedules a calendar item and returns its id.
func (w *world) item(t *testing.T, u *user, platform, script string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"title": "Launch " + platform, "platform": platform, "scheduled_at": soon(), "script": script,
		"allow_duplicate": true}
	if platform != platforms.ProfessionalNetwork {
		body["reel_url"] = w.Media.URL + "/video.mp4"
	}
	for k, v := range extra {
		body[k] = v
	}
	return w.must(t, http.StatusCreated, u, "POST", base+"/content/calendar", body).Body["id"].(string)
}

// settled waits until the item leaves scheduled and returns it.
func (w *world) settled(t *testing.T, u *user, id string) reply {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := w.must(t, http.StatusOK, u, "GET", base+"/content/calendar/"+id, nil)
		if r.Body["status"] != "scheduled" {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("item %s still scheduled: %s", id, r.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func targets(r reply) []map[string]any {
	var out []map[string]any
	for _, x := range r.Body["targets"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestDispatcherPublishesEachDueItemOnceOnEveryPlatform(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	for _, p := range platforms.Names {
		if r := w.connect(t, ada, f, p); r.Status != http.StatusOK || r.Body["account"].(map[string]any)["platform"] != p {
			t.Fatalf("connect %s: %d %s", p, r.Status, r.Raw)
		}
	}
	accts := w.must(t, http.StatusOK, ada, "GET", base+"/social/accounts", nil)
	if n := len(accts.Body["accounts"].([]any)); n != 4 {
		t.Fatalf("accounts: %s", accts.Raw)
	}
	due := time.Now()
	ids := map[string]string{}
	for _, p := range platforms.Names {
		ids[p] = w.item(t, ada, p, "Hello from "+p, nil)
	}
	for p, id := range ids {
		r := w.settled(t, ada, id)
		ts := targets(r)
		if r.Body["status"] != "published" || len(ts) != 1 || ts[0]["state"] != "published" || ts[0]["platform_post_id"] == nil {
			t.Fatalf("%s: %s", p, r.Raw)
		}
		task := w.must(t, http.StatusOK, ada, "GET", "/api/v1/tasks/"+ts[0]["task_id"].(string), nil)
		if task.Body["status"] != "done" || task.Body["progress"] != float64(100) || task.Body["result"] == nil {
			t.Fatalf("%s task: %s", p, task.Raw)
		}
		pub := w.must(t, http.StatusOK, ada, "GET", base+"/tasks/"+ts[0]["task_id"].(string), nil)
		if pub.Body["task_id"] != ts[0]["task_id"] {
			t.Fatalf("public task path: %s", pub.Raw)
		}
	}
	time.Sleep(300 * time.Millisecond) // nothing more arrives
	for _, p := range platforms.Names {
		srv := f.Server(p)
		if srv.PostCount() != 1 || srv.Duplicates() != 0 {
			t.Fatalf("%s: %d posts, %d duplicates", p, srv.PostCount(), srv.Duplicates())
		}
		post := srv.Posts()[0]
		if !strings.Contains(post.Text, "Hello from "+p) && !strings.Contains(post.Title, "Launch") {
			t.Fatalf("%s post: %+v", p, post)
		}
		if post.Time.Before(due) {
			t.Fatalf("%s posted at %v, before its time %v", p, post.Time, due)
		}
	}
}

func TestTransientFailuresRetryAtMostThreeTimes(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	li := f.Network

	// Two 503s, then success: published on the third attempt, one post.
	li.Fail(platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Transient, Times: 2})
	r := w.settled(t, ada, w.item(t, ada, platforms.ProfessionalNetwork, "third time lucky", nil))
	if r.Body["status"] != "published" || li.PostCount() != 1 || li.Requests("POST /rest/posts") != 3 {
		t.Fatalf("after two transient failures: %s; %d posts, %d requests", r.Raw, li.PostCount(), li.Requests("POST /rest/posts"))
	}
	// Rate limited every time: 1 attempt + 3 retries, then failed.
	li.Fail(platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.RateLimit, Times: 10})
	r = w.settled(t, ada, w.item(t, ada, platforms.ProfessionalNetwork, "never lucky", nil))
	ts := targets(r)
	if r.Body["status"] != "failed" || ts[0]["failure_class"] != "transient" || !strings.Contains(ts[0]["reason"].(string), "retries spent") ||
		ts[0]["attempt"] != float64(4) {
		t.Fatalf("retries spent: %s", r.Raw)
	}
	if n := li.Requests("POST /rest/posts"); n != 3+4 {
		t.Fatalf("%d publish requests, want 7", n)
	}
	if li.PostCount() != 1 {
		t.Fatalf("%d posts", li.PostCount())
	}
}

func TestRefusalFailsAtOnceWithThePlatformsReason(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ShortVideo)
	f.ShortVideo.Fail(platformtest.Failure{Match: "POST /v2/post/publish/video/init/", Kind: platformtest.Refuse, Reason: "spam_risk_too_many_posts"})
	r := w.settled(t, ada, w.item(t, ada, platforms.ShortVideo, "refused", nil))
	ts := targets(r)
	if r.Body["status"] != "failed" || ts[0]["failure_class"] != "refused" || !strings.Contains(ts[0]["reason"].(string), "spam_risk_too_many_posts") ||
		ts[0]["attempt"] != float64(1) || !strings.Contains(r.Body["reason"].(string), "spam_risk") {
		t.Fatalf("refused: %s", r.Raw)
	}
	if n := f.ShortVideo.Requests("POST /v2/post/publish/video/init/"); n != 1 {
		t.Fatalf("refused request sent %d times", n)
	}
}

func TestUnconfirmedIsNeverRetriedAutomatically(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	li := f.Network
	// The platform posts, then the connection drops before it answers.
	li.Fail(platformtest.Failure{Match: "POST /rest/posts", Kind: platformtest.Drop})
	id := w.item(t, ada, platforms.ProfessionalNetwork, "did it post?", nil)
	r := w.settled(t, ada, id)
	ts := targets(r)
	if r.Body["status"] != "failed" || r.Body["reason"] != "unconfirmed" || ts[0]["failure_class"] != "unconfirmed" {
		t.Fatalf("unconfirmed: %s", r.Raw)
	}
	time.Sleep(500 * time.Millisecond)
	if li.PostCount() != 1 || li.Requests("POST /rest/posts") != 1 {
		t.Fatalf("unconfirmed publish repeated: %d posts, %d requests", li.PostCount(), li.Requests("POST /rest/posts"))
	}
	// The founder decides to retry: the platform refuses the duplicate, and
	// there is still one post.
	w.must(t, http.StatusAccepted, ada, "POST", base+"/content/calendar/"+id+"/retry", nil)
	r = w.settled(t, ada, id)
	ts = targets(r)
	if len(ts) != 2 || ts[1]["state"] != "failed" || ts[1]["reason"] != "duplicate" || li.PostCount() != 1 {
		t.Fatalf("retry after unconfirmed: %s (%d posts)", r.Raw, li.PostCount())
	}
	// Nothing failed is left to retry on a published item.
	ok := w.settled(t, ada, w.item(t, ada, platforms.ProfessionalNetwork, "fine", nil))
	w.must(t, http.StatusConflict, ada, "POST", base+"/content/calendar/"+ok.Body["id"].(string)+"/retry", nil)
}

func TestExpiredTokenNeedsReconnectAndFailsPendingTargets(t *testing.T) {
	w, f := startWithFakes(t)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	w.connect(t, ada, f, platforms.ShortVideo)
	f.Network.ExpireAll()
	a := w.item(t, ada, platforms.ProfessionalNetwork, "first", nil)
	b := w.item(t, ada, platforms.ProfessionalNetwork, "second", nil)
	for _, id := range []string{a, b} {
		r := w.settled(t, ada, id)
		if r.Body["status"] != "failed" || r.Body["reason"] != "reconnect" || targets(r)[0]["failure_class"] != "unauthorized" {
			t.Fatalf("expired token: %s", r.Raw)
		}
	}
	accts := w.must(t, http.StatusOK, ada, "GET", base+"/social/accounts", nil).Body["accounts"].([]any)
	status := map[string]string{}
	for _, x := range accts {
		m := x.(map[string]any)
		status[m["platform"].(string)] = m["status"].(string)
	}
	if status[platforms.ProfessionalNetwork] != "needs_reconnect" || status[platforms.ShortVideo] != "connected" {
		t.Fatalf("accounts: %v", status)
	}
	// A later item fails at dispatch without a call; the other platform
	// still publishes.
	before := f.Network.Requests("POST /rest/posts")
	r := w.settled(t, ada, w.item(t, ada, platforms.ProfessionalNetwork, "third", nil))
	if r.Body["reason"] != "reconnect" || f.Network.Requests("POST /rest/posts") != before {
		t.Fatalf("needs-reconnect account was called: %s", r.Raw)
	}
	if r := w.settled(t, ada, w.item(t, ada, platforms.ShortVideo, "other platform", nil)); r.Body["status"] != "published" {
		t.Fatalf("short video: %s", r.Raw)
	}
	// Reconnecting and retrying all failed items of the platform publishes them.
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	rf := w.must(t, http.StatusOK, ada, "POST", base+"/content/calendar/retry-failed",
		map[string]any{"platform": platforms.ProfessionalNetwork, "reason": "reconnect"})
	if rf.Body["retried"] != float64(3) {
		t.Fatalf("retry-failed: %s", rf.Raw)
	}
	for _, id := range []string{a, b, r.Body["id"].(string)} {
		if r := w.settled(t, ada, id); r.Body["status"] != "published" {
			t.Fatalf("after reconnect: %s", r.Raw)
		}
	}
	if f.Network.PostCount() != 3 || f.Network.Duplicates() != 0 {
		t.Fatalf("%d posts, %d duplicates", f.Network.PostCount(), f.Network.Duplicates())
	}
}

// crashing publishes through the real adapter and then dies before its
// caller can record the outcome: the process's end, as a job sees it.
type crashing struct {
	platforms.Platform
	crashes int
}

func (c *crashing) Publish(ctx context.Context, t connections.Tokens, a connections.Identity, p platforms.Post) (platforms.Published, error) {
	res, err := c.Platform.Publish(ctx, t, a, p)
	if c.crashes > 0 {
		c.crashes--
		panic("process killed after the platform accepted the post")
	}
	return res, err
}

func TestCrashBetweenAcceptanceAndOurEventNeverDoublePosts(t *testing.T) {
	f := platformtest.StartAll(t)
	li := &crashing{Platform: network.New(f.Settings(platforms.ProfessionalNetwork), &http.Client{Timeout: 5 * time.Second}), crashes: 1}
	w := start(t, li)
	ada := w.user(t, "ada@content.test")
	w.connect(t, ada, f, platforms.ProfessionalNetwork)
	id := w.item(t, ada, platforms.ProfessionalNetwork, "posted, then the lights went out", nil)
	r := w.settled(t, ada, id)
	ts := targets(r)
	if r.Body["status"] != "failed" || ts[0]["failure_class"] != "unconfirmed" || len(ts) != 1 {
		t.Fatalf("after the crash: %s", r.Raw)
	}
	time.Sleep(500 * time.Millisecond)
	if f.Network.PostCount() != 1 || f.Network.Requests("POST /rest/posts") != 1 {
		t.Fatalf("%d posts, %d requests after a crash", f.Network.PostCount(), f.Network.Requests("POST /rest/posts"))
	}
}
