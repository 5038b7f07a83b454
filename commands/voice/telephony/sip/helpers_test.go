package sip

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Test helpers: a report recorder and a provider on loopback; SIPp runs
// through commands/voice/telephony/sipptest.

// The numbers the SIPp scenarios expect from these tests.
var (
	outboundVars = map[string]string{"from": "15550001111", "to": "15550002222"}
	inboundVars  = map[string]string{"from": "15550003333", "to": "15550009999"}
	transferVars = map[string]string{"target": "15550004444"}
)

// with is vars plus kv pairs.
func with(vars map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range vars {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// recorder collects a call's reports.
type recorder struct {
	mu  sync.Mutex
	got []telephony.Progress
	ch  chan telephony.Progress
}

func newRecorder() *recorder { return &recorder{ch: make(chan telephony.Progress, 64)} }

func (r *recorder) report(p telephony.Progress) {
	r.mu.Lock()
	r.got = append(r.got, p)
	r.mu.Unlock()
	r.ch <- p
}

// next waits for the next report.
func (r *recorder) next(t *testing.T, timeout time.Duration) telephony.Progress {
	t.Helper()
	select {
	case p := <-r.ch:
		return p
	case <-time.After(timeout):
		t.Fatalf("no report in %v; so far: %v", timeout, r.summary())
		return telephony.Progress{}
	}
}

// until waits for a report of kind k.
func (r *recorder) until(t *testing.T, k telephony.Kind, timeout time.Duration) telephony.Progress {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		p := r.next(t, time.Until(deadline))
		if p.Kind == k {
			return p
		}
	}
}

func (r *recorder) summary() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.got))
	for i, p := range r.got {
		out[i] = line(p)
	}
	return out
}

// line is a report as the tests compare it.
func line(p telephony.Progress) string {
	s := fmt.Sprintf("%s %d %s", p.Kind, p.SIPCode, p.Reason)
	if p.Outcome != "" {
		s += " " + string(p.Outcome)
	}
	if p.Digit != "" {
		s += " digit=" + p.Digit
	}
	if p.Target != "" {
		s += " target=" + p.Target
	}
	return s
}

// check waits for Ended, then compares the whole sequence and checks the
// invariants every call has: ProviderCallID on the first report only, At
// set and not going backwards, nothing after Ended.
func (r *recorder) check(t *testing.T, want ...string) []telephony.Progress {
	t.Helper()
	r.until(t, telephony.Ended, 20*time.Second)
	time.Sleep(50 * time.Millisecond) // anything after Ended would be a bug
	r.mu.Lock()
	got := append([]telephony.Progress(nil), r.got...)
	r.mu.Unlock()
	if g := r.summary(); strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Fatalf("reports:\n  got  %q\n  want %q", g, want)
	}
	for i, p := range got {
		if i == 0 && p.ProviderCallID == "" {
			t.Errorf("first report has no ProviderCallID")
		}
		if i > 0 && p.ProviderCallID != "" {
			t.Errorf("report %d (%s) repeats ProviderCallID", i, p.Kind)
		}
		if p.At.IsZero() || (i > 0 && p.At.Before(got[i-1].At)) {
			t.Errorf("report %d (%s) At %v after %v", i, p.Kind, p.At, got[max(i-1, 0)].At)
		}
	}
	return got
}

func newTestProvider(t *testing.T, trunk string) *Provider {
	t.Helper()
	level := slog.LevelWarn
	if os.Getenv("SIP_TEST_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: level}))
	p, err := New(context.Background(), Config{
		ListenAddr: "127.0.0.1:0", Trunk: trunk, Domain: "strata.test",
		Logger: log, TransferTimeout: 3 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func dial(t *testing.T, p *Provider, req telephony.CallRequest) (telephony.Call, *recorder) {
	t.Helper()
	if req.From == "" {
		req.From = "15550001111"
	}
	if req.To == "" {
		req.To = "15550002222"
	}
	rec := newRecorder()
	c, err := p.Dial(context.Background(), req, rec.report)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}
