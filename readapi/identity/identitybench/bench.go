// Package identitybench measures the identity context against baselines
// taken in the same run on the same machine: password logins over HTTP
// against raw argon2id hashing, API key verification over HTTP against a
// no-op route of the same surface, and bearer-token authentication in
// process against a bare RSA signature check of the same token.
package identitybench

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/crypto/argon2"

	cmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/mail"
	ident "github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/projections/accounts"
	"github.com/strata-platform/strata/readapi"
	"github.com/strata-platform/strata/readapi/identity"
)

// Options size a run.
type Options struct {
	DB       *stdsql.DB    // a migrated scratch database
	Duration time.Duration // per measured round
	MailDir  string        // the dev mailbox (nothing is mailed)
	Progress io.Writer
	Mode     string
}

// Full and Quick are the command's two sizes.
func Full() Options  { return Options{Duration: 5 * time.Second, Mode: "full"} }
func Quick() Options { return Options{Duration: 1500 * time.Millisecond, Mode: "quick"} }

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Server is the identity context on a scratch database, serving the
// platform API on a loopback port (readapi/oauth/oauthbench uses it too).
type Server struct {
	URL   string // http://127.0.0.1:port, also the service's issuer
	Svc   *cmd.Service
	Auth  *identity.Authenticator
	Store *eventstore.Store
	HTTP  *http.Client // keep-alive client of the loopback server
	srv   *http.Server
}

// Start sets the identity context up on o.DB with the production argon2id
// cost (its registry also holds extra: a bench's own events) and serves the
// identity routes, what routes add, and a no-op POST /bench/noop on a
// loopback port. The issuer is the server's own URL. Close stops it.
func Start(ctx context.Context, o Options, extra []eventstore.EventDef, routes ...func(*Server, *mux.Router)) (*Server, error) {
	reg := eventstore.NewRegistry()
	for _, c := range ident.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			return nil, err
		}
	}
	if err := reg.Register(extra...); err != nil {
		return nil, err
	}
	if err := reg.Seal(); err != nil {
		return nil, err
	}
	clock := kernel.SystemClock{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := eventstore.New(o.DB, reg, clock, eventstore.NewULIDs(clock))
	master, err := cmd.NewMasterKey(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	svc := cmd.NewService(store, accounts.New(o.DB, reg, logger), master, mail.NewMailbox(o.MailDir, logger), clock, logger,
		cmd.Config{Issuer: base, ResetURL: base + "/reset"})
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(), Health: readiness{}})
	if err == nil {
		err = svc.Start(ctx)
	}
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	s := &Server{URL: base, Svc: svc, Auth: identity.NewAuthenticator(svc), Store: store,
		HTTP: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}, Timeout: 30 * time.Second},
		srv:  &http.Server{Handler: surface.Handler, ReadHeaderTimeout: 10 * time.Second}}
	identity.Routes(surface.Router, svc, s.Auth, identity.Options{})
	surface.Router.HandleFunc("/bench/noop", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	}).Methods(http.MethodPost)
	for _, add := range routes {
		add(s, surface.Router)
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { _ = s.srv.Close() }

// Run sets the identity context up on o.DB (production argon2id cost), serves
// the platform API on a loopback port and measures.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	start := time.Now()
	rep := storebench.Report{Bench: "identity", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP, argon2id m=7MiB t=5 p=1"}
	srv, err := Start(ctx, o, nil)
	if err != nil {
		return rep, err
	}
	defer srv.Close()
	b := &bench{o: o, Server: srv}
	for _, step := range []func(context.Context) ([]storebench.Figure, error){b.logins, b.verifications, b.bearer} {
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

type bench struct {
	o Options
	*Server
}

// Load runs op from clients goroutines for d and returns the rate and the
// latencies of the successful operations; any failed operation fails the run.
func Load(ctx context.Context, clients int, d time.Duration, op func() error) (float64, []time.Duration, error) {
	return LoadWorkers(ctx, clients, d, func(int) error { return op() })
}

// LoadWorkers is Load with the worker's number (0 to clients-1) passed to
// op, for workers that each keep their own state.
func LoadWorkers(ctx context.Context, clients int, d time.Duration, op func(worker int) error) (float64, []time.Duration, error) {
	var (
		mu    sync.Mutex
		lat   []time.Duration
		first error
		n     atomic.Int64
		wg    sync.WaitGroup
	)
	deadline := time.Now().Add(d)
	start := time.Now()
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(deadline) && ctx.Err() == nil {
				t0 := time.Now()
				if err := op(w); err != nil {
					mu.Lock()
					first = errors.Join(first, err)
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
				n.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, nil, first
	}
	return float64(n.Load()) / time.Since(start).Seconds(), lat, ctx.Err()
}

// Quantile returns the q-quantile of d in milliseconds.
func Quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := min(len(s)-1, max(0, int(q*float64(len(s))+0.5)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

// Post sends a POST and fails unless the status is want. headers (name,
// value pairs) are set last, so they may replace the JSON Content-Type.
func (s *Server) Post(path, body string, want int, headers ...string) error {
	req, err := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		return fmt.Errorf("POST %s: status %d, want %d", path, resp.StatusCode, want)
	}
	return nil
}

// RSABaseline verifies token's RS256 signature with crypto/rsa alone.
func RSABaseline(token string, pub *rsa.PublicKey) func() error {
	i := strings.LastIndexByte(token, '.')
	input, sig64 := token[:i], token[i+1:]
	return func() error {
		sig, err := base64.RawURLEncoding.DecodeString(sig64)
		if err != nil {
			return err
		}
		h := sha256.Sum256([]byte(input))
		return rsa.VerifyPKCS1v15(pub, crypto.SHA256, h[:], sig)
	}
}

// Argon2Baseline hashes one password with the production parameters.
func Argon2Baseline() error {
	p := cmd.DefaultArgon2Params()
	salt := make([]byte, p.SaltLen)
	_ = argon2.IDKey([]byte("Corr3ct-horse"), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	return nil
}
