package avatar_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/content/avatar/avatartest"
	"github.com/strata-platform/strata/commands/outbound"
)

const secret = "whsec_test_secret"

// kinds are the two adapters with the fake that speaks their protocol.
var kinds = []struct {
	kind   string
	build  func(avatar.Config) avatar.Provider
	avatar string // a default avatar of the provider's kind
}{
	{avatartest.HeyGen, avatar.NewHeyGen, "Daisy-inskirt-20220818"},
	{avatartest.DID, avatar.NewDID, "https://example.com/presenter.jpg"},
}

func setup(t *testing.T, kind string, build func(avatar.Config) avatar.Provider, def string) (*avatartest.Server, avatar.Provider) {
	t.Helper()
	s := avatartest.Start(t, kind)
	p := build(avatar.Config{BaseURL: s.URL, APIKey: s.Key(), WebhookSecret: secret, DefaultAvatar: def})
	if p.Name() != kind || !p.Configured() {
		t.Fatalf("Name() = %q, Configured() = %v; want %q, true", p.Name(), p.Configured(), kind)
	}
	return s, p
}

func request(webhook string) avatar.Request {
	return avatar.Request{JobID: "job-42", Script: "Hello from Strata.", VoiceID: "en-US-JennyNeural", WebhookURL: webhook}
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			s, p := setup(t, k.kind, k.build, k.avatar)
			id, err := p.Create(ctx, request("https://strata.example/hooks/avatar"))
			if err != nil {
				t.Fatal(err)
			}
			jobs := s.Jobs()
			if len(jobs) != 1 || jobs[0].ID != id {
				t.Fatalf("jobs = %+v, want one with id %q", jobs, id)
			}
			want := request("https://strata.example/hooks/avatar")
			want.AvatarID = k.avatar // the configured default
			if k.kind == avatartest.HeyGen {
				want.Width, want.Height = 720, 1280 // D-ID sends no frame
			}
			if jobs[0].Request != want {
				t.Errorf("wire request = %+v, want %+v", jobs[0].Request, want)
			}
			if k.kind == avatartest.HeyGen && !bytes.Contains(jobs[0].Body, []byte(`"avatar_style":"normal"`)) {
				t.Errorf("HeyGen body without the normal avatar style: %s", jobs[0].Body)
			}

			st, err := p.Status(ctx, id)
			if err != nil || st.State != avatar.StateProcessing || st.ProviderJobID != id {
				t.Fatalf("Status = %+v, %v; want processing %q", st, err, id)
			}
			s.Finish(id, "https://cdn.example/v.mp4", 12500*time.Millisecond)
			st, err = p.Status(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			wantSt := avatar.Status{ProviderJobID: id, State: avatar.StateDone, VideoURL: "https://cdn.example/v.mp4",
				Duration: 12500 * time.Millisecond, JobID: "job-42"}
			if st != wantSt {
				t.Errorf("Status = %+v, want %+v", st, wantSt)
			}

			id2, err := p.Create(ctx, avatar.Request{Script: "x", VoiceID: "v", AvatarID: "other", Width: 1080, Height: 1920})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Jobs()[1].Request.AvatarID; got != "other" {
				t.Errorf("avatar sent = %q, want the request's %q", got, "other")
			}
			s.Fail(id2, "no face detected in the source")
			st, err = p.Status(ctx, id2)
			if err != nil || st.State != avatar.StateFailed || !strings.Contains(st.Error, "no face detected in the source") {
				t.Errorf("Status after Fail = %+v, %v; want failed with the reason", st, err)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds {
		cases := []struct {
			name      string
			prepare   func(s *avatartest.Server, cfg *avatar.Config)
			req       avatar.Request
			status    int // *Refused or *Transient status; 0: neither
			transient bool
			is        error
		}{
			{name: "wrong key", prepare: func(_ *avatartest.Server, c *avatar.Config) { c.APIKey = "wrong" }, status: 401},
			{name: "503", prepare: func(s *avatartest.Server, _ *avatar.Config) { s.FailNextCreate(503) }, status: 503, transient: true},
			{name: "429", prepare: func(s *avatartest.Server, _ *avatar.Config) { s.FailNextCreate(429) }, status: 429, transient: true},
			{name: "400", prepare: func(s *avatartest.Server, _ *avatar.Config) { s.FailNextCreate(400) }, status: 400},
			{name: "no base URL", prepare: func(_ *avatartest.Server, c *avatar.Config) { c.BaseURL = "" }, is: avatar.ErrNotConfigured},
			{name: "no key", prepare: func(_ *avatartest.Server, c *avatar.Config) { c.APIKey = "" }, is: avatar.ErrNotConfigured},
			{name: "no script", req: avatar.Request{VoiceID: "v"}, is: avatar.ErrInvalid},
			{name: "half a frame", req: avatar.Request{Script: "x", VoiceID: "v", Width: 720}, is: avatar.ErrInvalid},
			{name: "no avatar", prepare: func(_ *avatartest.Server, c *avatar.Config) { c.DefaultAvatar = "" }, is: avatar.ErrInvalid},
		}
		for _, c := range cases {
			t.Run(k.kind+"/"+c.name, func(t *testing.T) {
				s := avatartest.Start(t, k.kind)
				cfg := avatar.Config{BaseURL: s.URL, APIKey: s.Key(), DefaultAvatar: k.avatar}
				if c.prepare != nil {
					c.prepare(s, &cfg)
				}
				req := c.req
				if req.Script == "" && req.VoiceID == "" {
					req = request("")
				}
				p := k.build(cfg)
				_, err := p.Create(ctx, req)
				if err == nil {
					t.Fatal("Create succeeded")
				}
				if avatar.IsTransient(err) != c.transient {
					t.Errorf("IsTransient(%v) = %v, want %v", err, !c.transient, c.transient)
				}
				if c.is != nil && !errors.Is(err, c.is) {
					t.Errorf("err = %v, want %v", err, c.is)
				}
				var ref *avatar.Refused
				var tr *avatar.Transient
				switch {
				case c.status != 0 && c.transient:
					if !errors.As(err, &tr) || tr.Status != c.status || tr.Provider != k.kind {
						t.Errorf("err = %#v, want *Transient %d", err, c.status)
					}
				case c.status != 0:
					if !errors.As(err, &ref) || ref.Status != c.status || ref.Message == "" || ref.Provider != k.kind {
						t.Errorf("err = %#v, want *Refused %d with a message", err, c.status)
					}
				}
				if n := len(s.Jobs()); n != 0 {
					t.Errorf("%d jobs created", n)
				}
				if c.is == avatar.ErrNotConfigured {
					if p.Configured() {
						t.Error("Configured() = true")
					}
					if _, err := p.Status(ctx, "x"); !errors.Is(err, avatar.ErrNotConfigured) {
						t.Errorf("Status err = %v, want ErrNotConfigured", err)
					}
				}
			})
		}
		t.Run(k.kind+"/unreachable", func(t *testing.T) {
			dead := httptest.NewServer(http.NotFoundHandler())
			dead.Close()
			_, err := k.build(avatar.Config{BaseURL: dead.URL, APIKey: "k", DefaultAvatar: k.avatar}).Create(ctx, request(""))
			var tr *avatar.Transient
			if !errors.As(err, &tr) || tr.Status != 0 || tr.Err == nil {
				t.Errorf("err = %v, want a network *Transient", err)
			}
		})
		t.Run(k.kind+"/unknown job", func(t *testing.T) {
			_, p := setup(t, k.kind, k.build, k.avatar)
			_, err := p.Status(ctx, "nope")
			var ref *avatar.Refused
			if !errors.As(err, &ref) || ref.Status != 404 {
				t.Errorf("err = %v, want *Refused 404", err)
			}
		})
	}
}

// TestMalformedResponses: answers missing what the protocol promises are
// errors naming the field, and bodies are bounded.
func TestMalformedResponses(t *testing.T) {
	big := `{"id":"` + strings.Repeat("a", 2<<20) + `"}`
	cases := []struct {
		name   string
		build  func(avatar.Config) avatar.Provider
		create bool
		body   string
		want   string
	}{
		{"heygen no video_id", avatar.NewHeyGen, true, `{"error":null,"data":{}}`, "data.video_id"},
		{"heygen error object", avatar.NewHeyGen, true, `{"error":{"code":"x","message":"quota"},"data":null}`, "quota"},
		{"heygen status no id", avatar.NewHeyGen, false, `{"code":100,"data":{"status":"processing"}}`, "data.id"},
		{"heygen status code", avatar.NewHeyGen, false, `{"code":40001,"message":"bad"}`, "code 40001"},
		{"heygen unknown status", avatar.NewHeyGen, false, `{"code":100,"data":{"id":"v","status":"melting"}}`, `"melting"`},
		{"heygen done no url", avatar.NewHeyGen, false, `{"code":100,"data":{"id":"v","status":"completed"}}`, "data.video_url"},
		{"d-id no id", avatar.NewDID, true, `{"status":"created"}`, "no id"},
		{"d-id status no status", avatar.NewDID, false, `{"id":"tlk_1"}`, "no status"},
		{"d-id done no url", avatar.NewDID, false, `{"id":"tlk_1","status":"done"}`, "result_url"},
		{"d-id not JSON", avatar.NewDID, true, `<html>`, "unreadable"},
		{"oversize", avatar.NewDID, true, big, "over 1048576 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, c.body)
			}))
			defer srv.Close()
			p := c.build(avatar.Config{BaseURL: srv.URL, APIKey: "k", DefaultAvatar: "a"})
			var err error
			if c.create {
				_, err = p.Create(context.Background(), request(""))
			} else {
				_, err = p.Status(context.Background(), "v")
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || avatar.IsTransient(err) {
				t.Errorf("err = %v, want a permanent error mentioning %q", err, c.want)
			}
		})
	}
}

// receiver is our webhook endpoint: it hands callbacks to the provider.
type receiver struct {
	mu     sync.Mutex
	p      avatar.Provider
	header http.Header
	body   []byte
	st     avatar.Status
	err    error
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.header, rc.body = r.Header.Clone(), body
	rc.st, rc.err = rc.p.Webhook(r.Header, body)
	switch {
	case errors.Is(rc.err, avatar.ErrBadSignature):
		w.WriteHeader(http.StatusUnauthorized)
	case rc.err != nil:
		w.WriteHeader(http.StatusBadRequest)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func (rc *receiver) last() (avatar.Status, error, http.Header, []byte) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.st, rc.err, rc.header, rc.body
}

func TestWebhook(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			s, p := setup(t, k.kind, k.build, k.avatar)
			rc := &receiver{p: p}
			hook := httptest.NewServer(rc)
			defer hook.Close()

			done, err := p.Create(ctx, request(hook.URL+"/hooks"))
			if err != nil {
				t.Fatal(err)
			}
			failed, err := p.Create(ctx, request(hook.URL+"/hooks"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SendWebhook(ctx, done, secret, false); err == nil {
				t.Error("SendWebhook of an unfinished job succeeded")
			}
			s.Hold()
			s.Finish(done, "https://cdn.example/done.mp4", 9*time.Second)
			s.Fail(failed, "script rejected by moderation")
			if st, err := p.Status(ctx, done); err != nil || st.State != avatar.StateProcessing {
				t.Errorf("held Status = %+v, %v; want processing", st, err)
			}

			send := func(id, sec string, tamper bool) int {
				t.Helper()
				resp, err := s.SendWebhook(ctx, id, sec, tamper)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			if code := send(failed, secret, false); code != http.StatusNoContent {
				t.Fatalf("failed webhook answered %d", code)
			}
			st, _, _, _ := rc.last()
			if st.ProviderJobID != failed || st.State != avatar.StateFailed || st.JobID != "job-42" ||
				!strings.Contains(st.Error, "script rejected by moderation") {
				t.Errorf("failed webhook Status = %+v", st)
			}

			if code := send(done, secret, false); code != http.StatusNoContent {
				t.Fatalf("good webhook answered %d", code)
			}
			st, _, header, body := rc.last()
			want := avatar.Status{ProviderJobID: done, State: avatar.StateDone, VideoURL: "https://cdn.example/done.mp4", JobID: "job-42"}
			if k.kind == avatartest.DID {
				want.Duration = 9 * time.Second // the talk object carries it
			}
			if st != want {
				t.Errorf("webhook Status = %+v, want %+v", st, want)
			}

			for _, c := range []struct {
				name   string
				sec    string
				tamper bool
			}{{"tampered signature", secret, true}, {"wrong secret", "not-the-secret", false}} {
				if code := send(done, c.sec, c.tamper); code != http.StatusUnauthorized {
					t.Errorf("%s: answered %d, want 401", c.name, code)
				}
				if _, err, _, _ := rc.last(); !errors.Is(err, avatar.ErrBadSignature) {
					t.Errorf("%s: err = %v, want ErrBadSignature", c.name, err)
				}
			}

			sigHeader := "Signature"
			if k.kind == avatartest.DID {
				sigHeader = outbound.SignatureHeader
			}
			if header.Get(sigHeader) == "" {
				t.Fatalf("webhook came without %s: %v", sigHeader, header)
			}
			tampered := bytes.Replace(body, []byte("done.mp4"), []byte("evil.mp4"), 1)
			noHeader := header.Clone()
			noHeader.Del(sigHeader)
			for _, c := range []struct {
				name   string
				header http.Header
				body   []byte
			}{{"tampered body", header, tampered}, {"missing header", noHeader, body}} {
				if _, err := p.Webhook(c.header, c.body); !errors.Is(err, avatar.ErrBadSignature) {
					t.Errorf("%s: err = %v, want ErrBadSignature", c.name, err)
				}
			}
			if st, err := p.Webhook(header, body); err != nil || st.State != avatar.StateDone {
				t.Errorf("replaying the good webhook = %+v, %v", st, err)
			}

			unsigned := k.build(avatar.Config{BaseURL: s.URL, APIKey: s.Key()})
			if _, err := unsigned.Webhook(header, body); !errors.Is(err, avatar.ErrNotConfigured) {
				t.Errorf("no secret: err = %v, want ErrNotConfigured", err)
			}
		})
	}
}

// TestStrataSignatureTolerance: D-ID's callbacks carry a timestamped
// signature, refused outside five minutes of the adapter's clock.
func TestStrataSignatureTolerance(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	p := avatar.NewDID(avatar.Config{BaseURL: "http://x", APIKey: "k", WebhookSecret: secret, Clock: func() time.Time { return now }})
	body := []byte(`{"id":"tlk_1","status":"done","result_url":"https://cdn.example/a.mp4","duration":3.5,"user_data":"job-1"}`)
	cases := []struct {
		name   string
		signed time.Time
		ok     bool
	}{
		{"fresh", now.Add(-time.Minute), true},
		{"slightly ahead", now.Add(time.Minute), true},
		{"stale", now.Add(-10 * time.Minute), false},
		{"far future", now.Add(10 * time.Minute), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			h.Set(outbound.SignatureHeader, outbound.Sign(secret, body, c.signed))
			st, err := p.Webhook(h, body)
			if c.ok {
				want := avatar.Status{ProviderJobID: "tlk_1", State: avatar.StateDone, VideoURL: "https://cdn.example/a.mp4",
					Duration: 3500 * time.Millisecond, JobID: "job-1"}
				if err != nil || st != want {
					t.Errorf("Webhook = %+v, %v; want %+v", st, err, want)
				}
				return
			}
			if !errors.Is(err, avatar.ErrBadSignature) || !errors.Is(err, outbound.ErrSignatureExpired) {
				t.Errorf("err = %v, want ErrBadSignature (expired)", err)
			}
		})
	}
}

// TestHeyGenOtherEvent: a verified event of another type is
// ErrUnknownEvent, to be acknowledged and dropped.
func TestHeyGenOtherEvent(t *testing.T) {
	p := avatar.NewHeyGen(avatar.Config{WebhookSecret: secret})
	body := []byte(`{"event_type":"avatar_video_gif.success","event_data":{"video_id":"v","url":"https://x/g.gif"}}`)
	h := http.Header{}
	h.Set("Signature", hmacHex(secret, body))
	if _, err := p.Webhook(h, body); !errors.Is(err, avatar.ErrUnknownEvent) {
		t.Errorf("err = %v, want ErrUnknownEvent", err)
	}
	body2 := []byte(`{"event_type":"avatar_video.success","event_data":{"video_id":"v","url":"https://x/v.mp4","callback_id":"j"}}`)
	h.Set("Signature", strings.ToUpper(hmacHex(secret, body2)))
	if st, err := p.Webhook(h, body2); err != nil || st.VideoURL != "https://x/v.mp4" || st.JobID != "j" {
		t.Errorf("upper-case hex signature: %+v, %v", st, err)
	}
}

func TestServeVideo(t *testing.T) {
	s := avatartest.Start(t, avatartest.HeyGen)
	path := filepath.Join(t.TempDir(), "clip.mp4")
	data := []byte("\x00\x00\x00\x18ftypmp42 not really a movie")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	u := s.ServeVideo(path)
	if !strings.HasPrefix(u, s.URL+"/") || !strings.HasSuffix(u, "/clip.mp4") {
		t.Errorf("URL = %q", u)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !bytes.Equal(got, data) || resp.Header.Get("Content-Type") != "video/mp4" {
		t.Errorf("GET %s = %d %q %q", u, resp.StatusCode, resp.Header.Get("Content-Type"), got)
	}
}

func hmacHex(key string, body []byte) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
