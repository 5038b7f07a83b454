// Package stripemock starts Stripe's official API mock for tests:
// stripe-mock (github.com/stripe/stripe-mock, a Go program) on a free
// loopback port, behind a loopback proxy that records every request Strata
// sends, so a test checks what Strata asked for (stripe-mock is stateless:
// its answers are canned, never ours to assert on).
//
// The binary is found through STRATA_STRIPE_MOCK, then in the tools cache
// (${XDG_CACHE_HOME:-$HOME/.cache}/strata-tools/bin/stripe-mock, where
// .ci/run builds it), then on PATH. Without it the test fails, naming the
// command that installs it: the payments tests never pass silently.
package stripemock

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvBinary names the environment variable that points at a stripe-mock binary.
const EnvBinary = "STRATA_STRIPE_MOCK"

// InstallHint is the command that builds stripe-mock where the tests look.
const InstallHint = "bash .ci/install-stripe-mock (builds stripe-mock into ${XDG_CACHE_HOME:-$HOME/.cache}/strata-tools/bin; or set " + EnvBinary + ")"

// Binary returns the path of the stripe-mock binary: STRATA_STRIPE_MOCK,
// the tools cache, PATH, or else one built into the tools cache through
// the Go module proxy; an error says where it looked and why the build
// failed.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		p := filepath.Join(cache, "strata-tools", "bin", "stripe-mock")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p, nil
	}
	if cache == "" {
		return "", errors.New("no stripe-mock binary: not in " + EnvBinary + " or PATH, and no cache directory to build it in")
	}
	// None installed: build it where .ci/install-stripe-mock would, so
	// `go test ./...` needs nothing set up beforehand.
	p, err := install(filepath.Join(cache, "strata-tools", "bin"))
	if err != nil {
		return "", fmt.Errorf("no stripe-mock binary (not in %s, the tools cache or PATH) and building it failed: %w", EnvBinary, err)
	}
	return p, nil
}

// Request is one request Strata sent, as the proxy saw it.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Form   url.Values // the form-encoded body (Stripe's API takes forms)
	Status int        // what stripe-mock answered
	Answer []byte     // and its body
}

// Server is a running stripe-mock behind a recording proxy.
type Server struct {
	// URL is the proxy's base URL: configure it as the Stripe API base.
	URL  string
	mock string // stripe-mock's own base URL
	mu   sync.Mutex
	reqs []Request
}

// Start starts stripe-mock and its proxy for t, stopped at t's cleanup; it
// fails t when no stripe-mock binary is installed.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatalf("the payments tests need stripe-mock (%v); install it with: %s", err, InstallHint)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start stripe-mock: %v", err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
	})
	addr := make(chan string, 1)
	var log bytes.Buffer
	var logMu sync.Mutex
	go func() {
		defer close(done)
		re := regexp.MustCompile(`Listening for HTTP at address: (\S+)`)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		_ = cmd.Wait()
	}()
	s := &Server{}
	select {
	case a := <-addr:
		s.mock = "http://" + a
	case <-done:
		t.Fatalf("stripe-mock exited before listening:\n%s", log.String())
	case <-time.After(30 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("stripe-mock did not start listening within 30 s:\n%s", log.String())
	}
	target, _ := url.Parse(s.mock)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if r, ok := resp.Request.Context().Value(recordKey{}).(*Request); ok {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			r.Status, r.Answer = resp.StatusCode, b
			resp.Body = io.NopCloser(bytes.NewReader(b))
		}
		return nil
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec := &Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			rec.Form, _ = url.ParseQuery(string(body))
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), recordKey{}, rec)))
		s.mu.Lock()
		s.reqs = append(s.reqs, *rec)
		s.mu.Unlock()
	}))
	t.Cleanup(front.Close)
	s.URL = front.URL
	return s
}

type recordKey struct{}

// Requests returns the requests recorded so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Last returns the last recorded request to path (method POST or GET),
// failing t when there is none.
func (s *Server) Last(t testing.TB, method, path string) Request {
	t.Helper()
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method && reqs[i].Path == path {
			return reqs[i]
		}
	}
	t.Fatalf("no %s %s was sent to Stripe (sent: %d requests)", method, path, len(reqs))
	return Request{}
}

// Count returns how many requests to path were sent.
func (s *Server) Count(method, path string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}
