package content_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/connections"
	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/content/platforms"
	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/transcribe"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projcontent "github.com/strata-platform/strata/projections/content"
	readcontent "github.com/strata-platform/strata/readapi/content"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is identity and the content workflow on one fresh database, with
// the content projector and the jobs running, and the platforms given.
type world struct {
	t        *testing.T
	URL      string
	Platform *identitytest.Env
	Svc      *cmd.Service
	Conn     *connections.Service
	Jobs     *jobs.Service
	Links    *blobs.Links
	// Media serves /video.mp4 (video/mp4) and /page.html (text/html).
	Media *httptest.Server
}

func start(t *testing.T, plats ...platforms.Platform) *world {
	t.Helper()
	return startWith(t, options{Platforms: plats})
}

// options tune startWith.
type options struct {
	Platforms    []platforms.Platform
	Transcribers []transcribe.Transcriber
	// Tools render videos (nil: the media routes answer 503); tests give
	// media.FindTools() after checking the programs exist (mediaTools).
	Tools *media.Tools
	// AvatarProviders are the avatar-video providers besides the slideshow;
	// AvatarProvider is the default.
	AvatarProviders map[string]avatar.Provider
	AvatarProvider  string
	// Credits admits and bills avatar videos (nil: nothing billed).
	Credits cmd.Credits
	// AvatarPollEvery is the wait between provider polls (50 ms when 0).
	AvatarPollEvery time.Duration
	// Webhooks posts completion webhooks (nil: the harness's outbound
	// client, which allows private addresses).
	Webhooks *http.Client
	// SecretKey derives webhook signing secrets (nil: a fixed test key).
	SecretKey []byte
	// CheckWebhook checks webhook URLs when they are given (nil: none).
	CheckWebhook func(ctx context.Context, rawURL string) error
}

func startWith(t *testing.T, o options) *world {
	t.Helper()
	t.Parallel()
	plats := o.Platforms
	api := identitytest.StartWithEvents(t, readidentity.Options{}, append(content.Events(), domconn.Events()...))
	logger := slog.New(slog.DiscardHandler)
	if os.Getenv("STRATA_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	runner, err := projections.NewRunner(api.DB, api.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projcontent.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := jobs.New(api.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger, RescueAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, key, projcontent.Name)
	}
	conn, err := connections.New(connections.Config{Store: api.Store, Key: api.Master.Derive("connections"), Clock: api.Clock,
		IDs: eventstore.NewULIDs(api.Clock), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]platforms.Platform{}
	for _, p := range plats {
		byName[p.Name()] = p
		if err := conn.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	media := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/video.mp4":
			w.Header().Set("Content-Type", "video/mp4")
			_, _ = w.Write(bytes.Repeat([]byte{0, 0, 0, 24, 'f', 't', 'y', 'p'}, 64))
		case "/page.html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html></html>"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(media.Close)
	client := outbound.New(outbound.Config{Allow: outbound.Allow{Private: true}, Timeout: 5 * time.Second})
	hooks := o.Webhooks
	if hooks == nil {
		hooks = client.HTTPClient()
	}
	secret := o.SecretKey
	if secret == nil {
		secret = bytes.Repeat([]byte{9}, 32)
	}
	poll := o.AvatarPollEvery
	if poll <= 0 {
		poll = 50 * time.Millisecond
	}
	links := blobs.NewLinks(api.Master.Derive("content download links"), api.Clock.Now)
	blobStore := blobs.NewLocal(t.TempDir())
	svc := cmd.New(cmd.Config{Store: api.Store, Connections: conn, Platforms: byName, Jobs: js,
		Media: &cmd.Fetcher{Client: client, Dir: t.TempDir()}, Blobs: blobStore, Links: links, DownloadBase: api.URL, Clock: api.Clock,
		IDs: eventstore.NewULIDs(api.Clock), Logger: logger, PublishTimeout: 3 * time.Second,
		RetryDelay: func(int) time.Duration { return 0 }, Wait: wait, Transcribers: o.Transcribers,
		Tools: o.Tools, AvatarProviders: o.AvatarProviders, AvatarProvider: o.AvatarProvider, AvatarPollEvery: poll,
		Credits: o.Credits, Webhooks: hooks, SecretKey: secret, CheckWebhook: o.CheckWebhook})
	if err := svc.RegisterJobs(js); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	readcontent.Routes(api.Router, readcontent.Config{Service: svc, Connections: conn, DB: api.DB, Auth: api.Auth,
		Blobs: blobStore, Links: links, BaseURL: api.URL})
	t.Cleanup(func() {
		stop, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		_ = js.Stop(stop)
		cancel()
		<-done
	})
	return &world{t: t, URL: api.URL, Platform: api, Svc: svc, Conn: conn, Jobs: js, Links: links, Media: media}
}

// user is a registered platform user with an API key.
type user struct {
	ID, Org, Key, Bearer string
}

func (w *world) user(t *testing.T, email string) *user {
	t.Helper()
	ses, err := w.Platform.Svc.Register(context.Background(), idcmd.Register{Email: email,
		Password: "Correct-horse-battery-9!", FullName: strings.Split(email, "@")[0]})
	if err != nil {
		t.Fatalf("register %s: %v", email, err)
	}
	k, err := w.Platform.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: ses.User.ID, Name: "content tests"})
	if err != nil {
		t.Fatalf("issue key: %v", err)
	}
	return &user{ID: ses.User.ID, Org: ses.User.OrganizationID, Key: k.Secret, Bearer: ses.AccessToken}
}

// owner is the user's content owner key.
func (u *user) owner() string { return cmd.OwnerOf(u.Org, u.ID) }

// reply is a decoded response.
type reply struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
	List   []any
}

// do sends a request with the user's X-API-Key (none when u is nil).
func (w *world) do(t *testing.T, u *user, method, path string, body any) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, w.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("X-API-Key", u.Key)
	}
	return w.send(t, req)
}

// send sends a prepared request and decodes the answer.
func (w *world) send(t *testing.T, req *http.Request) reply {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := reply{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		_ = json.Unmarshal(raw, &out.Body)
	} else if len(raw) > 0 && raw[0] == '[' {
		_ = json.Unmarshal(raw, &out.List)
	}
	return out
}

// must is do that fails the test unless the status is want.
func (w *world) must(t *testing.T, want int, u *user, method, path string, body any) reply {
	t.Helper()
	r := w.do(t, u, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r
}

// eventually polls cond until it holds or 15 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const base = readcontent.Base
