// Package avatartest is a loopback fake of the avatar-video providers:
// an httptest server speaking HeyGen's or D-ID's wire protocol (as
// package avatar documents it), with controls to finish, fail or hold
// jobs and to send their completion webhooks. It reads requests with its
// own wire types, so a field the adapter misnames is refused with 400.
package avatartest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/outbound"
)

// Provider kinds Start accepts.
const (
	HeyGen = "heygen"
	DID    = "d-id"
)

// Server is a running fake provider.
type Server struct {
	// URL is the server's base URL (Config.BaseURL).
	URL string

	t    testing.TB
	kind string
	key  string

	mu       sync.Mutex
	jobs     []*job
	byID     map[string]*job
	hold     bool
	failNext int
	videos   map[string]string
}

// Job is a create request the server accepted.
type Job struct {
	// ID is the provider job id the server gave it.
	ID string
	// Request is the request as read from the wire (D-ID: AvatarID is
	// source_url, and Width and Height are 0 since a talk has none).
	Request avatar.Request
	// Body is the raw request body.
	Body []byte
}

type job struct {
	Job
	state    string // avatar.StateProcessing, StateDone or StateFailed
	videoURL string
	dur      time.Duration
	reason   string
}

// Start runs a fake of kind ("heygen" or "d-id") until the test ends.
func Start(t testing.TB, kind string) *Server {
	t.Helper()
	s := &Server{t: t, kind: kind, byID: map[string]*job{}, videos: map[string]string{}}
	mux := http.NewServeMux()
	switch kind {
	case HeyGen:
		s.key = "hg_" + randomHex(16)
		mux.HandleFunc("POST /v2/video/generate", s.authed(s.heygenCreate))
		mux.HandleFunc("GET /v1/video_status.get", s.authed(s.heygenStatus))
	case DID:
		s.key = base64.StdEncoding.EncodeToString([]byte("strata-test@example.com")) + ":" + randomHex(12)
		mux.HandleFunc("POST /talks", s.authed(s.didCreate))
		mux.HandleFunc("GET /talks/{id}", s.authed(s.didStatus))
	default:
		t.Fatalf("avatartest: unknown provider kind %q (want %q or %q)", kind, HeyGen, DID)
	}
	mux.HandleFunc("GET /videos/{n}/{name}", s.serveVideo)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Key is the API key the server expects (Config.APIKey).
func (s *Server) Key() string { return s.key }

// Finish marks a job done with its download URL and duration.
func (s *Server) Finish(providerJobID, videoURL string, dur time.Duration) {
	s.set(providerJobID, func(j *job) { j.state, j.videoURL, j.dur = avatar.StateDone, videoURL, dur })
}

// Fail marks a job failed with the provider's reason.
func (s *Server) Fail(providerJobID, reason string) {
	s.set(providerJobID, func(j *job) { j.state, j.reason = avatar.StateFailed, reason })
}

// Hold makes status answers say processing forever, even for jobs
// finished or failed (their webhooks still tell the outcome).
func (s *Server) Hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = true
}

// FailNextCreate makes the next create request (with the right key)
// answer status, with an error body in the provider's format.
func (s *Server) FailNextCreate(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = status
}

// Jobs returns the accepted create requests, oldest first.
func (s *Server) Jobs() []Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Job, len(s.jobs))
	for i, j := range s.jobs {
		out[i] = j.Job
	}
	return out
}

// ServeVideo serves the file at path and returns its URL on the server.
func (s *Server) ServeVideo(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := strconv.Itoa(len(s.videos) + 1)
	s.videos[n] = path
	return s.URL + "/videos/" + n + "/" + url.PathEscape(filepath.Base(path))
}

// SendWebhook posts the completion webhook of a finished or failed job
// to its webhook URL, signed with secret as the provider's scheme says
// (HeyGen: Signature; D-ID: Strata-Signature at the current time), or
// with a wrong signature when tamper.
func (s *Server) SendWebhook(ctx context.Context, providerJobID, secret string, tamper bool) (*http.Response, error) {
	s.mu.Lock()
	j, ok := s.byID[providerJobID]
	var cp job
	if ok {
		cp = *j
	}
	s.mu.Unlock()
	switch {
	case !ok:
		return nil, fmt.Errorf("avatartest: no job %q", providerJobID)
	case cp.Request.WebhookURL == "":
		return nil, fmt.Errorf("avatartest: job %q has no webhook URL", providerJobID)
	case cp.state != avatar.StateDone && cp.state != avatar.StateFailed:
		return nil, fmt.Errorf("avatartest: job %q is still %s", providerJobID, cp.state)
	}
	var body []byte
	var header, sig string
	if s.kind == HeyGen {
		body = mustJSON(heygenEvent(&cp))
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(body)
		header, sig = "Signature", hex.EncodeToString(m.Sum(nil))
	} else {
		body = mustJSON(didTalk(&cp, false))
		header, sig = outbound.SignatureHeader, outbound.Sign(secret, body, time.Now())
	}
	if tamper {
		last := byte('0')
		if sig[len(sig)-1] == '0' {
			last = '1'
		}
		sig = sig[:len(sig)-1] + string(last)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cp.Request.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(header, sig)
	return http.DefaultClient.Do(req)
}

// authed refuses a request without the server's key with 401.
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var ok bool
		if s.kind == HeyGen {
			ok = r.Header.Get("X-Api-Key") == s.key
		} else {
			ok = r.Header.Get("Authorization") == "Basic "+s.key
		}
		if !ok {
			s.fail(w, http.StatusUnauthorized, "invalid API key")
			return
		}
		h(w, r)
	}
}

// fail writes an error answer in the provider's format.
func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	if s.kind == HeyGen {
		writeJSON(w, status, map[string]any{"data": nil, "error": map[string]any{"code": "error_" + strconv.Itoa(status), "message": msg}})
		return
	}
	writeJSON(w, status, map[string]any{"kind": http.StatusText(status), "description": msg})
}

// create checks the failure switch, then records an accepted job.
func (s *Server) create(w http.ResponseWriter, prefix string, req avatar.Request, body []byte) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.failNext; st != 0 {
		s.failNext = 0
		s.fail(w, st, "injected failure")
		return "", false
	}
	j := &job{Job: Job{ID: prefix + randomHex(12), Request: req, Body: body}, state: avatar.StateProcessing}
	s.jobs = append(s.jobs, j)
	s.byID[j.ID] = j
	return j.ID, true
}

// lookup returns a copy of a job and whether status answers are held.
func (s *Server) lookup(id string) (job, bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.byID[id]
	if !ok {
		return job{}, false, false
	}
	return *j, s.hold, true
}

func (s *Server) set(id string, f func(*job)) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.byID[id]
	if !ok {
		s.t.Fatalf("avatartest: no job %q", id)
	}
	f(j)
}

func (s *Server) serveVideo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	path, ok := s.videos[r.PathValue("n")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, path)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(v))
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
