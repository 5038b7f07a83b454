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
	"errors"
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

// Proc is a running SIPp in a test: Process, killed when the test ends.
type Proc struct {
	*Process
	t testing.TB
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
	o := RunOptions{Dir: dir, Port: FreePorts(t, 1), MediaPort: FreePorts(t, 4), ControlPort: FreePorts(t, 1),
		Remote: remote, Calls: opts.Calls, Timeout: opts.Timeout}
	if os.Getenv("SIPP_TRACE") != "" {
		o.Args = append(o.Args, "-trace_msg")
		t.Cleanup(func() {
			files, _ := filepath.Glob(filepath.Join(dir, "*messages.log"))
			for _, f := range files {
				data, _ := os.ReadFile(f)
				t.Logf("%s:\n%s", filepath.Base(f), data)
			}
		})
	}
	proc, err := Run(name, src, o)
	if errors.Is(err, ErrPortInUse) {
		t.Logf("sipp lost a port to another process, retrying: %v", err)
		return nil, true
	}
	if err != nil {
		t.Fatal(err)
	}
	p := &Proc{Process: proc, t: t}
	t.Cleanup(p.Kill)
	return p, false
}

// Wait waits up to timeout for SIPp to finish its calls and fails the
// test (Errorf, with SIPp's logs) unless every call passed (exit status
// 0); it reports whether they did.
func (p *Proc) Wait(timeout time.Duration) bool {
	p.t.Helper()
	select {
	case <-p.Done():
	case <-time.After(timeout):
		p.Kill()
		p.t.Errorf("sipp did not finish in %v\n%s", timeout, p.Logs())
		return false
	}
	if p.Err() != nil {
		p.t.Errorf("sipp: %v\n%s", p.Err(), p.Logs())
		return false
	}
	return true
}
