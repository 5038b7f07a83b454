// Package sipptest runs SIPp (Debian's sip-tester, /usr/bin/sipp) as a
// subprocess on loopback for tests of the SIP adapter and of the services
// above it: free UDP ports, the scenarios the tests share (embedded, see
// scenarios/), and a process handle that is killed when the test ends.
//
// Scenarios may hold {{name}} placeholders that Start fills from
// Options.Vars; a placeholder left unfilled fails the test. Placeholders
// inside a scenario's regular-expression checks take regular expressions
// (regexp.QuoteMeta a number such as +14155550123).
//
// Tests skip, naming the package to install, when sipp is not on PATH.
//
// SIPP_TRACE=1 logs SIPp's message trace at the end of each test.
package sipptest

import (
	"embed"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

//go:embed scenarios/*.xml
var scenarios embed.FS

// PCAPDir is where sip-tester installs its RTP captures (g711a.pcap,
// dtmf_2833_<digit>.pcap); scenarios play them by absolute path.
const PCAPDir = "/usr/share/sip-tester"

// Installed reports whether sipp is on PATH.
func Installed() bool {
	_, err := exec.LookPath("sipp")
	return err == nil
}

// Require skips the test when sipp is not installed.
func Require(t testing.TB) {
	t.Helper()
	if !Installed() {
		t.Skip("sipp not installed: apt-get install sip-tester (Debian's SIPp) to run the SIP tests")
	}
}

// Scenarios lists the embedded scenarios' names.
func Scenarios() []string {
	names, _ := fs.Glob(scenarios, "scenarios/*.xml")
	for i, n := range names {
		names[i] = strings.TrimPrefix(n, "scenarios/")
	}
	sort.Strings(names)
	return names
}

var ports struct {
	sync.Mutex
	used map[int]bool
}

// FreePorts returns the first of n consecutive free UDP ports on
// 127.0.0.1, never handed out twice in this test binary (another process
// may still take one before it is bound: Start retries then).
func FreePorts(t testing.TB, n int) int {
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

// Options tune Start.
type Options struct {
	// Calls is how many calls SIPp makes or takes before it exits (-m);
	// 0 means 1.
	Calls int
	// Vars fill the scenario's {{name}} placeholders.
	Vars map[string]string
	// Timeout is SIPp's global timeout (-timeout, an error when reached);
	// 0 means 40 s.
	Timeout time.Duration
}

// Proc is a running SIPp.
type Proc struct {
	// Addr is its SIP address (127.0.0.1:port).
	Addr string

	t    testing.TB
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
	err  error
}

var placeholder = regexp.MustCompile(`\{\{[A-Za-z0-9_]+\}\}`)

// load reads scenario (an embedded scenario's name, else a file path) and
// fills its placeholders.
func load(scenario string, vars map[string]string) ([]byte, error) {
	src, err := scenarios.ReadFile("scenarios/" + scenario)
	if err != nil {
		if src, err = os.ReadFile(scenario); err != nil {
			return nil, fmt.Errorf("scenario %q is neither embedded (%s) nor a readable file: %w", scenario, strings.Join(Scenarios(), ", "), err)
		}
	}
	s := string(src)
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	if left := placeholder.FindAllString(s, -1); len(left) > 0 {
		return nil, fmt.Errorf("scenario %s: placeholders not filled by Options.Vars: %v", scenario, left)
	}
	return []byte(s), nil
}

// Load is scenario (an embedded scenario's name, else a file path) with
// its placeholders filled from vars, for a runner of SIPp outside tests
// (readapi/voice/voicebench); a placeholder left unfilled is an error.
func Load(scenario string, vars map[string]string) ([]byte, error) { return load(scenario, vars) }

// Start runs sipp with scenario on free ports of 127.0.0.1 (SIP, media
// and control). With remote empty SIPp is a UAS; otherwise a UAC calling
// remote (host:port). It returns once SIPp holds its SIP port, retrying on
// fresh ports when another process took one first. The process is killed
// when the test ends.
func Start(t testing.TB, scenario, remote string, opts Options) *Proc {
	t.Helper()
	Require(t)
	src, err := load(scenario, opts.Vars)
	if err != nil {
		t.Fatal(err)
	}
	for try := 1; ; try++ {
		p, inUse := start(t, filepath.Base(scenario), src, remote, opts)
		if p != nil {
			return p
		}
		if !inUse || try == 3 {
			t.Fatalf("sipp %s did not start", scenario)
		}
	}
}

// start runs one sipp; nil and true when it lost a port to another
// process.
func start(t testing.TB, name string, src []byte, remote string, opts Options) (*Proc, bool) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	calls := max(opts.Calls, 1)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 40 * time.Second
	}
	port, mport, cport := FreePorts(t, 1), FreePorts(t, 4), FreePorts(t, 1)
	args := []string{
		"-sf", name, "-i", "127.0.0.1", "-p", strconv.Itoa(port),
		"-mi", "127.0.0.1", "-mp", strconv.Itoa(mport), "-cp", strconv.Itoa(cport),
		"-m", strconv.Itoa(calls), "-nostdin", "-trace_err",
		"-timeout", strconv.Itoa(int(timeout.Seconds())) + "s", "-timeout_error",
	}
	if os.Getenv("SIPP_TRACE") != "" {
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
		args = append(args, remote)
	}
	out, err := os.Create(filepath.Join(dir, "stdout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sipp", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		t.Fatal(err)
	}
	p := &Proc{t: t, cmd: cmd, dir: dir, Addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		out.Close()
		close(p.done)
	}()
	t.Cleanup(p.Kill)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.ListenPacket("udp", p.Addr)
		if err != nil {
			return p, false // sipp holds the port
		}
		c.Close()
		select {
		case <-p.done:
			if p.err == nil {
				return p, false // a UAC already done
			}
			logs := p.Logs()
			if strings.Contains(logs, "errno = 98") {
				t.Logf("sipp lost a port to another process, retrying: %v", p.err)
				return nil, true
			}
			t.Fatalf("sipp exited early: %v\n%s", p.err, logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("sipp did not bind %s\n%s", p.Addr, p.Logs())
	return nil, false
}

// Kill stops SIPp (if it still runs) and waits for it.
func (p *Proc) Kill() {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// Logs is SIPp's error trace and the tail of its screen output.
func (p *Proc) Logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(p.dir, "*errors.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), data)
	}
	data, _ := os.ReadFile(filepath.Join(p.dir, "stdout.txt"))
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	fmt.Fprintf(&b, "--- stdout (tail)\n%s", data)
	return b.String()
}

// Wait waits up to timeout for SIPp to finish its calls and fails the
// test (Errorf, with SIPp's logs) unless every call passed (exit status
// 0); it reports whether they did.
func (p *Proc) Wait(timeout time.Duration) bool {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.Kill()
		p.t.Errorf("sipp did not finish in %v\n%s", timeout, p.Logs())
		return false
	}
	if p.err != nil {
		p.t.Errorf("sipp: %v\n%s", p.err, p.Logs())
		return false
	}
	return true
}
