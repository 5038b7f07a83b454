package content_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/content/avatar/avatartest"
	"github.com/strata-platform/strata/commands/media"
)

// providerKinds are the providers the fake speaks.
var providerKinds = []string{avatartest.HeyGen, avatartest.DID}

// providerSetup is a world whose avatar provider kind is the loopback fake.
type providerSetup struct {
	w       *world
	fake    *avatartest.Server
	secret  string // the provider's webhook secret
	credits *fakeCredits
	tools   *media.Tools
	ada     *user
	twin    string
}

func startProvider(t *testing.T, kind string) *providerSetup {
	t.Helper()
	tools := mediaTools(t)
	fake := avatartest.Start(t, kind)
	secret := "provider-secret-" + kind
	cfg := avatar.Config{BaseURL: fake.URL, APIKey: fake.Key(), WebhookSecret: secret}
	var p avatar.Provider
	if kind == avatartest.HeyGen {
		cfg.DefaultAvatar = "Daisy-inskirt-20220818"
		p = avatar.NewHeyGen(cfg)
	} else {
		cfg.DefaultAvatar = "https://images.example.com/presenter.png"
		p = avatar.NewDID(cfg)
	}
	credits := newCredits(1000 * 1_000_000)
	w := startWith(t, options{Tools: tools, Credits: credits, AvatarProviders: map[string]avatar.Provider{kind: p}})
	ada := w.user(t, "ada@content.test")
	return &providerSetup{w: w, fake: fake, secret: secret, credits: credits, tools: tools, ada: ada, twin: w.twin(t, ada, nil)}
}

// submit asks for a video from the provider and waits until the fake has
// the job; it returns our job id and the provider's.
func (p *providerSetup) submit(t *testing.T, kind string) (job, providerJob string) {
	t.Helper()
	r := p.w.generate(t, p.ada, map[string]any{"twin_id": p.twin, "script": avatarScript, "voice_id": "en-US-JennyNeural",
		"provider": kind})
	if r.Status != http.StatusAccepted || r.Body["provider"] != kind || r.Body["talking_head"] != true || r.Body["status"] != "queued" {
		t.Fatalf("generate with %s: %d %s", kind, r.Status, r.Raw)
	}
	if est, _ := r.Body["estimated_seconds"].(float64); est < 60 {
		t.Fatalf("a provider's estimate is a minute at least: %s", r.Raw)
	}
	job = str(r.Body, "job_id")
	eventually(t, "the provider's job", func() bool { return len(p.fake.Jobs()) == 1 })
	fj := p.fake.Jobs()[0]
	if fj.Request.JobID != job || fj.Request.Script != avatarScript || fj.Request.VoiceID != "en-US-JennyNeural" ||
		fj.Request.WebhookURL != p.w.URL+cmd.WebhookPath(job, kind) {
		t.Fatalf("the provider got %+v; want job %s and the webhook %s", fj.Request, job, p.w.URL+cmd.WebhookPath(job, kind))
	}
	a := p.w.poll(t, p.ada, base+"/multimodal/avatar/"+job, 15*time.Second, func(r reply) bool { return r.Body["provider_job_id"] != nil })
	if a.Body["status"] != "processing" || a.Body["progress"] != float64(20) || a.Body["provider_job_id"] != fj.ID {
		t.Fatalf("submitted: %s", a.Raw)
	}
	return job, fj.ID
}

// done checks a job done from the provider's video at path.
func (p *providerSetup) done(t *testing.T, job, path string) {
	t.Helper()
	a := p.w.waitAvatar(t, p.ada, job)
	res := obj(a.Body, "result")
	if a.Body["status"] != "done" || res["talking_head"] != true || a.Body["talking_head"] != true || str(res, "video_url") == "" {
		t.Fatalf("avatar: %s", a.Raw)
	}
	want := probe(t, p.tools, path)
	dur := res["duration_seconds"].(float64)
	if millis(dur) != want.Duration.Milliseconds() && millis(dur) != (want.Duration+500*time.Microsecond).Milliseconds() {
		t.Fatalf("duration_seconds %v; ffprobe measures %v", dur, want.Duration)
	}
	if res["width"] != float64(720) || res["height"] != float64(1280) || res["video_codec"] != "h264" || res["audio_codec"] != "aac" {
		t.Fatalf("result: %v", res)
	}
	got, err := os.ReadFile(p.w.fetch(t, str(res, "video_url")))
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(path)
	if !bytes.Equal(got, orig) {
		t.Fatalf("the kept video (%d bytes) is not the provider's (%d bytes)", len(got), len(orig))
	}
	wantMicro := millis(dur) * 10 * 1000
	if c := p.credits.seen(); micro(t, res["credits_billed"]) != wantMicro || len(c) != 1 || c[0].ChargeID != "content.avatar:"+job ||
		c[0].Micro != wantMicro || c[0].Account != p.ada.ID {
		t.Fatalf("credits_billed %v, charges %+v; want one of %d micro", res["credits_billed"], c, wantMicro)
	}
}

func TestAvatarProviders(t *testing.T) {
	for _, kind := range providerKinds {
		t.Run(kind+"/done", func(t *testing.T) {
			p := startProvider(t, kind)
			job, pj := p.submit(t, kind)
			path := smallVideo(t, "1.6")
			p.fake.Finish(pj, p.fake.ServeVideo(path), 1600*time.Millisecond)
			p.done(t, job, path)
		})
		t.Run(kind+"/failed", func(t *testing.T) {
			p := startProvider(t, kind)
			job, pj := p.submit(t, kind)
			p.fake.Fail(pj, "the avatar could not be found")
			a := p.w.waitAvatar(t, p.ada, job)
			e := obj(a.Body, "error")
			if a.Body["status"] != "error" || str(e, "code") != "provider_failed" || !strings.Contains(str(e, "message"), "the avatar could not be found") ||
				a.Body["result"] != nil {
				t.Fatalf("failed job: %s", a.Raw)
			}
			task := p.w.waitTask(t, p.ada, job)
			if task.Body["status"] != "error" || !strings.Contains(string(task.Raw), "the avatar could not be found") {
				t.Fatalf("task: %s", task.Raw)
			}
			if c := p.credits.seen(); len(c) != 0 {
				t.Fatalf("a failed video was charged: %+v", c)
			}
		})
		t.Run(kind+"/refused", func(t *testing.T) {
			p := startProvider(t, kind)
			// A provider's voice is required (the twin has none).
			if r := p.w.generate(t, p.ada, map[string]any{"twin_id": p.twin, "script": "Hi.", "provider": kind}); r.Status != http.StatusBadRequest ||
				!strings.Contains(string(r.Raw), "voice_id") {
				t.Fatalf("no voice: %d %s", r.Status, r.Raw)
			}
			// A refusal fails the job with the provider's reason.
			p.fake.FailNextCreate(http.StatusBadRequest)
			r := p.w.generate(t, p.ada, map[string]any{"twin_id": p.twin, "script": "Hi.", "provider": kind, "voice_id": "v1"})
			if r.Status != http.StatusAccepted {
				t.Fatalf("generate: %d %s", r.Status, r.Raw)
			}
			a := p.w.waitAvatar(t, p.ada, str(r.Body, "job_id"))
			if e := obj(a.Body, "error"); a.Body["status"] != "error" || str(e, "code") != "provider_refused" || !strings.Contains(str(e, "message"), "injected failure") {
				t.Fatalf("refused: %s", a.Raw)
			}
			if kind != avatartest.HeyGen {
				return // the retry below is the service's, not the adapter's: once is enough
			}
			// An outage is retried.
			p.fake.FailNextCreate(http.StatusServiceUnavailable)
			r = p.w.generate(t, p.ada, map[string]any{"twin_id": p.twin, "script": "Hi.", "provider": kind, "voice_id": "v1"})
			if r.Status != http.StatusAccepted {
				t.Fatalf("generate: %d %s", r.Status, r.Raw)
			}
			a = p.w.poll(t, p.ada, base+"/multimodal/avatar/"+str(r.Body, "job_id"), 30*time.Second, func(r reply) bool { return r.Body["status"] != "queued" })
			if a.Body["status"] != "processing" || len(p.fake.Jobs()) != 1 {
				t.Fatalf("after an outage: %s; %d provider jobs", a.Raw, len(p.fake.Jobs()))
			}
		})
		t.Run(kind+"/webhook", func(t *testing.T) {
			p := startProvider(t, kind)
			p.fake.Hold()
			job, pj := p.submit(t, kind)
			// Five minutes of polls without a result: the job waits for
			// the provider's webhook.
			p.w.Platform.Clock.Advance(content5Minutes + time.Second)
			a := p.w.poll(t, p.ada, base+"/multimodal/avatar/"+job, 15*time.Second, func(r reply) bool { return r.Body["progress"] == float64(50) })
			if a.Body["status"] != "processing" || !strings.Contains(str(a.Body, "stage"), "webhook") {
				t.Fatalf("after the poll window: %s", a.Raw)
			}
			task := p.w.poll(t, p.ada, base+"/tasks/"+job, 15*time.Second, func(r reply) bool { return r.Body["progress"] != float64(20) })
			if task.Body["status"] != "processing" || task.Body["progress"] != float64(50) || !strings.Contains(str(task.Body, "stage"), "webhook") {
				t.Fatalf("task after the poll window: %s", task.Raw)
			}
			path := smallVideo(t, "1.2")
			p.fake.Finish(pj, p.fake.ServeVideo(path), 1200*time.Millisecond)

			// A webhook with a bad signature is refused and changes nothing.
			resp, err := p.fake.SendWebhook(context.Background(), pj, p.secret, true)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("tampered webhook: %d", resp.StatusCode)
			}
			resp, err = p.fake.SendWebhook(context.Background(), pj, "not-the-secret", false)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("webhook signed with another secret: %d", resp.StatusCode)
			}
			// A report recorded would show at once (progress 80, fetching).
			a = p.w.must(t, http.StatusOK, p.ada, "GET", base+"/multimodal/avatar/"+job, nil)
			if a.Body["status"] != "processing" || a.Body["progress"] != float64(50) {
				t.Fatalf("after refused webhooks: %s", a.Raw)
			}
			// Another provider's path, or another job's, is not this job's webhook.
			other := "heygen"
			if kind == other {
				other = "d-id"
			}
			if r := p.w.do(t, nil, "POST", strings.Replace(cmd.WebhookPath(job, kind), kind, other, 1), map[string]any{}); r.Status != http.StatusNotFound {
				t.Fatalf("webhook at another provider's path: %d %s", r.Status, r.Raw)
			}

			// The provider's signed webhook finishes the job, once.
			for range 2 {
				resp, err = p.fake.SendWebhook(context.Background(), pj, p.secret, false)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("signed webhook: %d", resp.StatusCode)
				}
			}
			p.done(t, job, path)
			time.Sleep(100 * time.Millisecond)
			if c := p.credits.seen(); len(c) != 1 {
				t.Fatalf("charges after a replayed webhook: %+v", c)
			}
		})
	}
}

// content5Minutes is how long a provider is polled before its webhook is
// relied on.
const content5Minutes = 5 * time.Minute

func TestAvatarProviderNotConfigured(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools, AvatarProviders: map[string]avatar.Provider{
		"heygen": avatar.NewHeyGen(avatar.Config{}), "d-id": avatar.NewDID(avatar.Config{})}})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	for _, kind := range providerKinds {
		r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "v1", "provider": kind})
		if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Raw), kind) || !strings.Contains(string(r.Raw), "not configured") {
			t.Errorf("%s without credentials: %d %s", kind, r.Status, r.Raw)
		}
	}
	opts := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/options", nil)
	for _, p := range opts.Body["providers"].([]any) {
		pi := p.(map[string]any)
		if want := pi["name"] == "local-slideshow"; pi["configured"] != want || pi["talking_head"] == want {
			t.Errorf("options: %v", pi)
		}
	}
	// The slideshow still works.
	if r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "flite-slt"}); r.Status != http.StatusAccepted {
		t.Fatalf("slideshow: %d %s", r.Status, r.Raw)
	}
}
