package hackathon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	cmd "github.com/strata-platform/strata/commands/hackathon"
	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
	"github.com/strata-platform/strata/readapi"
	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// testMaxFile is the harness's submission file limit (small, so a test can
// go over it cheaply).
const testMaxFile = 64 << 10

// base is the hackathons collection's path.
const base = "/api/v1/hackathons"

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// server is the platform (identity) and a hackathon surface on one fresh
// database, the projector hackathon.v1 running, with real credentials.
type server struct {
	t *testing.T
	// URL is the hackathon surface's base URL (paths start with /api/v1).
	URL      string
	Platform *identitytest.Env
	Svc      *cmd.Service
	Runner   *projections.Runner
	Mail     *mailbox
	limiter  *readhackathon.Limiter
}

// options tune newServerWith.
type options struct {
	// Limiter replaces the harness's (effectively unlimited) limiter.
	Limiter *readhackathon.Limiter
	// MaxFileBytes is the submission file limit (testMaxFile when 0).
	MaxFileBytes int64
}

// newServer starts the platform and the hackathon surface for one test.
func newServer(t *testing.T) *server { return newServerWith(t, options{}) }

func newServerWith(t *testing.T, o options) *server {
	t.Helper()
	if o.Limiter == nil {
		o.Limiter = readhackathon.NewLimiter(1_000_000, nil)
	}
	if o.MaxFileBytes == 0 {
		o.MaxFileBytes = testMaxFile
	}
	api := identitytest.StartWithEvents(t, readidentity.Options{}, hackathon.Events())
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(api.DB, api.Reg, projections.NewSignal(), logger,
		projections.Config{PollInterval: 5 * time.Millisecond}, projhackathon.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	s := &server{t: t, Platform: api, Runner: runner, Mail: &mailbox{}, limiter: o.Limiter}
	s.URL, s.Svc = s.surface(api.Store, logger, o.MaxFileBytes)
	t.Cleanup(func() { cancel(); <-done })
	return s
}

// surface starts one hackathon surface with its own service over store
// (another process's worth when store is a second eventstore.Store) and
// returns its URL and service.
func (s *server) surface(store *eventstore.Store, logger *slog.Logger, maxFile int64) (string, *cmd.Service) {
	s.t.Helper()
	sf, err := readapi.NewSurface("hackathon", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20, BodyLimitFor: readhackathon.BodyLimit(maxFile)})
	if err != nil {
		s.t.Fatal(err)
	}
	srv := httptest.NewServer(sf.Handler)
	s.t.Cleanup(srv.Close)
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return s.Runner.WaitFor(wctx, key, projhackathon.Name)
	}
	svc := cmd.New(store, s.Platform.Clock, logger, cmd.Config{Wait: wait, Mailer: s.Mail, BaseURL: srv.URL,
		Blobs: blobs.NewLocal(s.t.TempDir()), MaxFileBytes: maxFile})
	readhackathon.Routes(sf.Router, readhackathon.Config{Service: svc, DB: s.Platform.DB, Auth: s.Platform.Auth,
		Limiter: s.limiter})
	return srv.URL, svc
}

// second starts another hackathon surface with its own service and event
// store over the same database, as a second process would run; it returns
// its base URL. (Files are not shared between the two: each has its own
// blob directory.)
func (s *server) second() string {
	s.t.Helper()
	api := s.Platform
	store := eventstore.New(api.DB, api.Reg, api.Clock, eventstore.NewULIDs(api.Clock))
	url, _ := s.surface(store, slog.New(slog.NewTextHandler(io.Discard, nil)), testMaxFile)
	return url
}

// user registers a platform user with email (one user per actor) and
// returns its bearer JWT and user id.
func (s *server) user(t *testing.T, email string) (token, id string) {
	t.Helper()
	ses, err := s.Platform.Svc.Register(context.Background(), idcmd.Register{Email: email,
		Password: "Correct-horse-battery-9!", FullName: strings.Split(email, "@")[0]})
	if err != nil {
		t.Fatalf("register %s: %v", email, err)
	}
	return ses.AccessToken, ses.User.ID
}

// apiKey issues an API key of the user's default workspace.
func (s *server) apiKey(t *testing.T, userID string) string {
	t.Helper()
	k, err := s.Platform.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: userID, Name: "hackathon tests"})
	if err != nil {
		t.Fatal(err)
	}
	return k.Secret
}

// reply is a whole HTTP answer.
type reply struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any // the JSON object of the body, if it is one
}

// do calls the hackathon surface with a bearer token ("" for none) and a
// JSON body (nil for none; []byte or string is sent as is) and returns
// the status and the JSON object of the answer. It is safe to call from
// several goroutines (a transport failure is reported with t.Errorf and
// status 0).
func (s *server) do(method, path, token string, body any) (int, map[string]any) {
	r := s.call(s.URL, method, path, body, bearer(token))
	return r.Status, r.Body
}

// bearer is an Authorization header for token ("" adds none).
func bearer(token string) http.Header {
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return h
}

// call sends a request to the surface at url with header and a JSON body.
func (s *server) call(url, method, path string, body any, header http.Header) reply {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Errorf("%s %s: marshal body: %v", method, path, err)
			return reply{}
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url+path, rd)
	if err != nil {
		s.t.Errorf("%s %s: %v", method, path, err)
		return reply{}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	return s.send(req)
}

// send sends req and reads the whole answer.
func (s *server) send(req *http.Request) reply {
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Errorf("%s %s: %v", req.Method, req.URL.Path, err)
		return reply{}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := reply{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		_ = json.Unmarshal(raw, &out.Body)
	}
	return out
}

// raw is do returning the whole reply (headers and bytes).
func (s *server) raw(method, path, token string, body any) reply {
	return s.call(s.URL, method, path, body, bearer(token))
}

// must is do that fails the test unless the status is want.
func (s *server) must(t *testing.T, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	r := s.raw(method, path, token, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r.Body
}

// refused checks a hackathon error answer: the status, the body
// {"error": {"status_code", "message", "path", "request_id"}} with the
// request's path, and a message containing each of words.
func refused(t *testing.T, r reply, status int, path string, words ...string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	e, ok := r.Body["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object in %s", r.Raw)
	}
	msg, _ := e["message"].(string)
	if e["status_code"] != float64(status) || msg == "" || e["request_id"] == "" {
		t.Fatalf("error body %s: want status_code %d, a message and a request_id", r.Raw, status)
	}
	if p, _ := e["path"].(string); path != "" && p != strings.SplitN(path, "?", 2)[0] {
		t.Fatalf("error path %q, want %q", p, path)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Fatalf("error message %q does not contain %q", msg, w)
		}
	}
}

// hackathon creates a hackathon as token with fields over defaults (a
// name and dates) and returns its id; it stays in DRAFT.
func (s *server) hackathon(t *testing.T, token string, fields map[string]any) string {
	t.Helper()
	body := map[string]any{"name": "Hack Night", "start_date": "2026-03-01T09:00:00Z", "end_date": "2026-03-02T18:00:00Z"}
	for k, v := range fields {
		body[k] = v
	}
	h := s.must(t, http.StatusCreated, "POST", base, token, body)
	return h["id"].(string)
}

// setStatus moves a hackathon's status as token (must succeed).
func (s *server) setStatus(t *testing.T, token, id, status string) {
	t.Helper()
	s.must(t, http.StatusOK, "POST", base+"/"+id+"/status", token, map[string]any{"status": status})
}

// liveHackathon creates a LIVE hackathon as token.
func (s *server) liveHackathon(t *testing.T, token string, fields map[string]any) string {
	t.Helper()
	id := s.hackathon(t, token, fields)
	s.setStatus(t, token, id, hackathon.StatusLive)
	return id
}
