package sip

import (
	"context"

	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Test helpers: SIPp (Debian's sip-tester) as a subprocess on loopback,
// free ports, a report recorder.

var ports struct {
	sync.Mutex
	used map[int]bool
}

// freePorts returns the first of n consecutive free UDP ports on
// 127.0.0.1 (SIPp's media port needs room after it), never handed out
// twice in this test binary.
func freePorts(t *testing.T, n int) int {
	t.Helper()
	ports.Lock()
	defer ports.Unlock()
	if ports.used == nil {
		ports.used = map[int]bool{}
	}
	for range 200 {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		base := c.LocalAddr().(*net.UDPAddr).Port
		c.Close()
		if base+n > 65535 {
			continue
		}
		ok := true
		var held []net.PacketConn
		for i := range n {
			if ports.used[base+i] {
				ok = false
				break
			}
			c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				ok = false
				break
			}
			held = append(held, c)
		}
		for _, c := range held {
			c.Close()
		}
		if ok {
			for i := range n {
				ports.used[base+i] = true
			}
			return base
		}
	}
	t.Fatal("no free UDP ports")
	return 0
}

type sippProc struct {
	t    *testing.T
	cmd  *exec.Cmd
	dir  string
	addr string // its SIP address
	done chan struct{}
	err  error
}

// startSipp runs sipp with scenario (a file in testdata; subst pairs
// replace {{name}} in it) on a free port. remote, when not empty, makes it
// a UAC towards that address. It waits until a UAS has bound its port.
func startSipp(t *testing.T, scenario, remote string, calls int, subst ...string) *sippProc {
	t.Helper()
	bin, err := exec.LookPath("sipp")
	if err != nil {
		t.Skip("sipp (Debian sip-tester) not installed")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", scenario))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(subst); i += 2 {
		src = []byte(strings.ReplaceAll(string(src), "{{"+subst[i]+"}}", subst[i+1]))
	}
	if err := os.WriteFile(filepath.Join(dir, scenario), src, 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePorts(t, 1)
	mport := freePorts(t, 4)
	cport := freePorts(t, 1)
	args := []string{
		"-sf", scenario, "-i", "127.0.0.1", "-p", strconv.Itoa(port),
		"-mi", "127.0.0.1", "-mp", strconv.Itoa(mport), "-cp", strconv.Itoa(cport),
		"-m", strconv.Itoa(calls), "-nostdin", "-trace_err",
		"-timeout", "40s", "-timeout_error",
	}
	if os.Getenv("SIPP_TRACE") != "" {
		// SIPP_TRACE=1: log SIPp's message trace at the end of the test.
		args = append(args, "-trace_msg")
		t.Cleanup(func() {
			files, _ := filepath.Glob(filepath.Join(dir, "*messages.log"))
			for _, f := range files {
				data, _ := os.ReadFile(f)
				t.Logf("%s:\n%s", filepath.Base(f), data)
			}
		})
	}
	if remote != "" {
		args = append(args, "-s", "15550003333", remote)
	}
	out, err := os.Create(filepath.Join(dir, "stdout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &sippProc{t: t, cmd: cmd, dir: dir, addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		out.Close()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = cmd.Process.Kill()
			<-s.done
		}
	})
	if remote == "" {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			c, err := net.ListenPacket("udp", s.addr)
			if err != nil {
				return s // sipp holds the port
			}
			c.Close()
			select {
			case <-s.done:
				t.Fatalf("sipp exited early: %v\n%s", s.err, s.logs())
			case <-time.After(20 * time.Millisecond):
			}
		}
		t.Fatalf("sipp did not bind %s", s.addr)
	}
	return s
}

// logs is sipp's error trace and the tail of its screen output.
func (s *sippProc) logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(s.dir, "*errors.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), data)
	}
	data, _ := os.ReadFile(filepath.Join(s.dir, "stdout.txt"))
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	fmt.Fprintf(&b, "--- stdout (tail)\n%s", data)
	return b.String()
}

// wait waits for sipp to finish its calls and fails the test unless every
// call passed (exit status 0).
func (s *sippProc) wait(timeout time.Duration) {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(timeout):
		_ = s.cmd.Process.Kill()
		<-s.done
		s.t.Errorf("sipp did not finish in %v\n%s", timeout, s.logs())
		return
	}
	if s.err != nil {
		s.t.Errorf("sipp: %v\n%s", s.err, s.logs())
	}
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

func itoa(n int) string { return strconv.Itoa(n) }
