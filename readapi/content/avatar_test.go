package content_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/outbound"
)

const avatarScript = "Hello there. This is a short test. Goodbye now."

// hook is a caller's webhook receiver: it keeps every request.
type hook struct {
	*httptest.Server
	mu   sync.Mutex
	got  []hookRequest
	code int
}

type hookRequest struct {
	Header http.Header
	Body   []byte
}

func newHook(t *testing.T) *hook {
	h := &hook{code: http.StatusOK}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.got = append(h.got, hookRequest{Header: r.Header.Clone(), Body: body})
		code := h.code
		h.mu.Unlock()
		w.WriteHeader(code)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hook) requests() []hookRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookRequest(nil), h.got...)
}

// generate posts an avatar request.
func (w *world) generate(t *testing.T, u *user, body map[string]any) reply {
	t.Helper()
	return w.do(t, u, "POST", base+"/multimodal/avatar/generate", body)
}

// waitAvatar waits for an avatar job to be done or failed.
func (w *world) waitAvatar(t *testing.T, u *user, job string) reply {
	t.Helper()
	return w.poll(t, u, base+"/multimodal/avatar/"+job, time.Minute, final)
}

// micro is a JSON number of credits in micro-credits, exactly.
func micro(t *testing.T, v any) int64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("credits %v (%T) is not a number", v, v)
	}
	return int64(math.Round(f * 1e6))
}

// millis is a JSON number of seconds in milliseconds.
func millis(v any) int64 {
	f, _ := v.(float64)
	return int64(math.Round(f * 1000))
}

// riverJob waits until the job with id is in state.
func (w *world) riverJob(t *testing.T, kind string, id int64, state string) jobs.Info {
	t.Helper()
	var found jobs.Info
	eventually(t, kind+" job "+strconv.FormatInt(id, 10)+" "+state, func() bool {
		list, err := w.Jobs.List(context.Background(), jobs.Filter{Kinds: []string{kind}, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range list {
			if j.ID == id {
				found = j
				return j.State == state
			}
		}
		return false
	})
	return found
}

func TestAvatarSlideshow(t *testing.T) {
	tools := mediaTools(t)
	credits := newCredits(1000 * 1_000_000)
	w := startWith(t, options{Tools: tools, Credits: credits})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, map[string]any{"name": "Ada", "platform_defaults": map[string]any{
		"short_video": map[string]any{"background": "#203040", "foreground": "#FFFFFF"}}})
	receiver := newHook(t)

	opts := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/options", nil)
	if !strings.Contains(string(opts.Raw), `"flite-slt"`) || !strings.Contains(string(opts.Raw), `"local-slideshow"`) ||
		opts.Body["credits_per_second"] != float64(10) {
		t.Fatalf("options: %s", opts.Raw)
	}

	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": avatarScript, "voice_id": "flite-slt",
		"webhook_url": receiver.URL + "/hooks/avatar"})
	if r.Status != http.StatusAccepted || str(r.Body, "job_id") == "" || r.Body["task_id"] != r.Body["job_id"] ||
		r.Body["provider"] != "local-slideshow" || r.Body["status"] != "queued" || r.Body["progress"] != float64(0) ||
		r.Body["talking_head"] != false {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	if est, _ := r.Body["estimated_seconds"].(float64); est < 1 {
		t.Fatalf("estimated_seconds: %s", r.Raw)
	}
	runID, err := strconv.ParseInt(str(r.Body, "celery_task_id"), 10, 64)
	if err != nil || runID <= 0 {
		t.Fatalf("celery_task_id: %s", r.Raw)
	}
	job := str(r.Body, "job_id")

	a := w.waitAvatar(t, ada, job)
	res := obj(a.Body, "result")
	if a.Body["status"] != "done" || a.Body["progress"] != float64(100) || str(res, "video_url") == "" {
		t.Fatalf("avatar: %s", a.Raw)
	}
	dur := res["duration_seconds"].(float64)
	path := w.fetch(t, str(res, "video_url"))
	info := probe(t, tools, path)
	if info.VideoCodec != "h264" || info.AudioCodec != "aac" || info.Width != 720 || info.Height != 1280 {
		t.Fatalf("video: %+v; want h264/aac 720x1280", info)
	}
	if d := info.Duration.Seconds() - dur; d < -0.05 || d > 0.05 || dur < 1 {
		t.Fatalf("video lasts %v; result.duration_seconds %v", info.Duration, dur)
	}
	// Captions are drawn over the background (#203040) in the lower half.
	img := frameAt(t, tools, path, time.Duration(dur/2*float64(time.Second)))
	unlikeBG := func(_, _, r, g, b int) bool { return iabs(r-0x20)+iabs(g-0x30)+iabs(b-0x40) > 60 }
	if n := countPixels(img, 0.5, 1, unlikeBG); n < 300 {
		t.Errorf("the lower half at %.2f s has %d pixels unlike the background; want a caption", dur/2, n)
	}
	// 10 credits a second, to the millisecond.
	if got, want := micro(t, res["credits_billed"]), millis(dur)*10*1000; got != want {
		t.Fatalf("credits_billed %v for %v s: %d micro, want %d", res["credits_billed"], dur, got, want)
	}
	charges := credits.seen()
	if len(charges) != 1 || charges[0].ChargeID != "content.avatar:"+job || charges[0].Account != ada.ID ||
		charges[0].Micro != millis(dur)*10*1000 {
		t.Fatalf("charges: %+v; want one of %d micro for %s", charges, millis(dur)*10*1000, job)
	}
	task := w.waitTask(t, ada, job)
	if task.Body["kind"] != "avatar_video" || micro(t, obj(task.Body, "result")["credits_billed"]) != charges[0].Micro ||
		str(obj(task.Body, "result"), "video_url") == "" {
		t.Fatalf("task: %s", task.Raw)
	}

	// The caller's webhook: one POST, signed with the owner's secret.
	sec := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/webhook-secret", nil)
	secret := str(sec.Body, "secret")
	if !strings.HasPrefix(secret, "whsec_") || sec.Body["header"] != "Strata-Signature" {
		t.Fatalf("webhook secret: %s", sec.Raw)
	}
	eventually(t, "the completion webhook", func() bool { return len(receiver.requests()) > 0 })
	got := receiver.requests()[0]
	if err := outbound.Verify(secret, got.Header.Get("Strata-Signature"), got.Body, 0, time.Now()); err != nil {
		t.Fatalf("webhook signature %q: %v", got.Header.Get("Strata-Signature"), err)
	}
	var ev struct {
		ID   string         `json:"id"`
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(got.Body, &ev); err != nil || ev.Type != "avatar_video.completed" || ev.Data["job_id"] != job ||
		ev.Data["status"] != "done" || str(obj(ev.Data, "result"), "video_url") == "" {
		t.Fatalf("webhook body: %v %s", err, got.Body)
	}
	bob := w.user(t, "bob@content.test")
	other := w.must(t, http.StatusOK, bob, "GET", base+"/multimodal/avatar/webhook-secret", nil)
	if outbound.Verify(str(other.Body, "secret"), got.Header.Get("Strata-Signature"), got.Body, 0, time.Now()) == nil {
		t.Fatal("another owner's secret verifies the webhook")
	}
	a = w.poll(t, ada, base+"/multimodal/avatar/"+job, 15*time.Second, func(r reply) bool { return obj(r.Body, "webhook")["delivered"] == true })
	if wh := obj(a.Body, "webhook"); wh["status"] != float64(200) || wh["attempts"] != float64(1) {
		t.Fatalf("webhook record: %s", a.Raw)
	}

	// Running the job again bills nothing more and sends no other webhook.
	if _, err := w.Jobs.Retry(context.Background(), runID); err != nil {
		t.Fatal(err)
	}
	if j := w.riverJob(t, "content.avatar", runID, "completed"); j.Attempt < 2 {
		t.Fatalf("the job did not run again: %+v", j)
	}
	time.Sleep(200 * time.Millisecond)
	if c := credits.seen(); len(c) != 1 {
		t.Fatalf("charges after a re-run: %+v", c)
	}
	if n := len(receiver.requests()); n != 1 {
		t.Fatalf("%d webhooks; want 1", n)
	}
	again := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/"+job, nil)
	if again.Body["status"] != "done" || obj(again.Body, "result")["duration_seconds"] != dur {
		t.Fatalf("after a re-run: %s", again.Raw)
	}

	w.must(t, http.StatusNotFound, bob, "GET", base+"/multimodal/avatar/"+job, nil)
	w.must(t, http.StatusNotFound, ada, "GET", base+"/multimodal/avatar/not-a-job", nil)
}

func TestAvatarRequestsRefused(t *testing.T) {
	tools := mediaTools(t)
	credits := newCredits(1_000_000)
	w := startWith(t, options{Tools: tools, Credits: credits})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		want   []string
	}{
		{"unknown voice", map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "nobody"}, 422, []string{"voice_id", "flite-slt", "flite-rms"}},
		{"no script", map[string]any{"twin_id": twin, "voice_id": "flite-slt"}, 422, []string{"script"}},
		{"no twin_id", map[string]any{"script": "Hi.", "voice_id": "flite-slt"}, 422, []string{"twin_id"}},
		{"blank script", map[string]any{"twin_id": twin, "script": "  ", "voice_id": "flite-slt"}, 400, []string{"script"}},
		{"unknown twin", map[string]any{"twin_id": "6f1c2a43-5d0e-4b51-9f3e-0f8e2a1b7c90", "script": "Hi.", "voice_id": "flite-slt"}, 404, []string{"twin_id"}},
		{"unknown provider", map[string]any{"twin_id": twin, "script": "Hi.", "provider": "acme"}, 422, []string{"provider", "local-slideshow"}},
		{"bad webhook_url", map[string]any{"twin_id": twin, "script": "Hi.", "webhook_url": "ftp://example.com/x"}, 400, []string{"webhook_url"}},
		{"unknown member", map[string]any{"twin_id": twin, "script": "Hi.", "voice": "flite-slt"}, 422, []string{"voice"}},
	} {
		r := w.generate(t, ada, tc.body)
		if r.Status != tc.status {
			t.Errorf("%s: %d %s; want %d", tc.name, r.Status, r.Raw, tc.status)
			continue
		}
		for _, s := range tc.want {
			if !strings.Contains(string(r.Raw), s) {
				t.Errorf("%s: %s does not name %s", tc.name, r.Raw, s)
			}
		}
	}
	credits.setBalance(0)
	if r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "flite-slt"}); r.Status != http.StatusPaymentRequired ||
		!strings.Contains(string(r.Raw), "credits") {
		t.Errorf("no credits: %d %s", r.Status, r.Raw)
	}
	if n, _, _, _ := w.queued(t); n != 0 {
		t.Fatal("a refused request queued something")
	}
	var avatars int
	if err := w.Platform.DB.QueryRow(`SELECT count(*) FROM es.streams WHERE stream_type IN ('content.avatar', 'content.task')`).Scan(&avatars); err != nil {
		t.Fatal(err)
	}
	if avatars != 0 {
		t.Fatalf("%d avatar or task streams after refusals; want none", avatars)
	}
	if c := credits.seen(); len(c) != 0 {
		t.Fatalf("charges: %+v", c)
	}
}

func TestAvatarWithoutTools(t *testing.T) {
	w := startWith(t, options{})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi."})
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Raw), "ffmpeg") {
		t.Fatalf("no tools: %d %s", r.Status, r.Raw)
	}
	opts := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/options", nil)
	if !strings.Contains(string(opts.Raw), `"voices":[]`) || !strings.Contains(string(opts.Raw), `"configured":false`) {
		t.Fatalf("options without tools: %s", opts.Raw)
	}
}

func TestAvatarWebhookRetried(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	receiver := newHook(t)
	receiver.code = http.StatusServiceUnavailable
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "espeak-en-us",
		"webhook_url": receiver.URL})
	if r.Status != http.StatusAccepted || r.Body["voice_id"] != "espeak-en-us" {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	job := str(r.Body, "job_id")
	eventually(t, "the first webhook", func() bool { return len(receiver.requests()) == 1 })
	receiver.mu.Lock()
	receiver.code = http.StatusNoContent
	receiver.mu.Unlock()
	a := w.poll(t, ada, base+"/multimodal/avatar/"+job, 15*time.Second, func(r reply) bool { return obj(r.Body, "webhook")["delivered"] == true })
	if wh := obj(a.Body, "webhook"); wh["status"] != float64(204) || wh["attempts"] != float64(2) || a.Body["status"] != "done" {
		t.Fatalf("webhook record: %s", a.Raw)
	}
	// Without credits configured nothing is billed.
	if micro(t, obj(a.Body, "result")["credits_billed"]) != 0 {
		t.Fatalf("billed without a ledger: %s", a.Raw)
	}
	reqs := receiver.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d webhook requests; want 2", len(reqs))
	}
	secret := str(w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/webhook-secret", nil).Body, "secret")
	for i, q := range reqs {
		if err := outbound.Verify(secret, q.Header.Get("Strata-Signature"), q.Body, 0, time.Now()); err != nil {
			t.Errorf("attempt %d: signature: %v", i+1, err)
		}
		if q.Header.Get("Strata-Event-Id") != "evt_"+job {
			t.Errorf("attempt %d: event id %q", i+1, q.Header.Get("Strata-Event-Id"))
		}
	}
}

// gatedFlite is a flite that waits until open() is called before it
// speaks (listing voices is not held), so a test can look at a render in
// progress.
func gatedFlite(t *testing.T) (path string, open func()) {
	t.Helper()
	real, err := exec.LookPath("flite")
	if err != nil {
		t.Skipf("flite not found: install the Debian package flite")
	}
	dir := t.TempDir()
	gate := filepath.Join(dir, "open")
	path = filepath.Join(dir, "flite")
	script := "#!/bin/sh\ncase \"$1\" in -lv) exec " + real + " \"$@\";; esac\n" +
		"n=0\nwhile [ ! -e " + gate + " ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, func() {
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAvatarSlideshowShowsProgress(t *testing.T) {
	tools := *mediaTools(t)
	flite, open := gatedFlite(t)
	tools.Flite = flite
	w := startWith(t, options{Tools: &tools})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "flite-slt"})
	if r.Status != http.StatusAccepted {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	job := str(r.Body, "job_id")
	w.poll(t, ada, base+"/tasks/"+job, 15*time.Second, func(r reply) bool { return r.Body["status"] == "processing" })
	a := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/"+job, nil)
	if a.Body["status"] != "processing" || a.Body["progress"] != float64(10) || !strings.Contains(str(a.Body, "stage"), "speaking") {
		t.Fatalf("while the script is spoken: %s", a.Raw)
	}
	open()
	if a := w.waitAvatar(t, ada, job); a.Body["status"] != "done" || a.Body["progress"] != float64(100) {
		t.Fatalf("done: %s", a.Raw)
	}
}
