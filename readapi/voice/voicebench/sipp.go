package voicebench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

// A runner of SIPp processes for the bench (sipptest's helpers take a
// testing.T): the scenarios are sipptest's, embedded there (sipptest.Load).

// sippRun is one SIPp process to start.
type sippRun struct {
	Scenario string            // an embedded scenario of sipptest
	Vars     map[string]string // its placeholders
	Port     int               // its SIP port on 127.0.0.1; 0: a free one
	Remote   string            // a UAC calls it; empty for a UAS
	Calls    int               // -m: calls made or taken before it exits
	Rate     int               // a UAC's calls a second (-r)
	Timeout  time.Duration     // -timeout, an error when reached
}

// sipp is a running SIPp.
type sipp struct {
	Addr string
	name string
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// sippStats are the final counters of SIPp's screen.
type sippStats struct {
	Successful, Failed int
}

func sippInstalled() bool {
	_, err := exec.LookPath("sipp")
	return err == nil
}

// sippVersion is "v3.6.1" or so ("?" when sipp does not say).
func sippVersion() string {
	out, _ := exec.Command("sipp", "-v").CombinedOutput()
	for _, f := range strings.Fields(string(out)) {
		if strings.HasPrefix(f, "v") && strings.Contains(f, ".") {
			return strings.SplitN(strings.TrimSuffix(f, "."), "-", 2)[0]
		}
	}
	return "?"
}

// startSipp starts sipp on 127.0.0.1 with r's scenario in a directory of
// its own (removed by kill) and returns once SIPp holds its SIP port (a
// UAC may already be done).
func startSipp(r sippRun) (*sipp, error) {
	src, err := sipptest.Load(r.Scenario, r.Vars)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strata-bench-sipp-")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, r.Scenario), src, 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	mport, err := freeUDPRange(4) // SIPp's audio and video RTP and RTCP
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cport, err := freeUDPPort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	port := r.Port
	if port == 0 {
		if port, err = freeUDPPort(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	args := []string{"-sf", r.Scenario, "-i", "127.0.0.1", "-p", strconv.Itoa(port),
		"-mi", "127.0.0.1", "-mp", strconv.Itoa(mport), "-cp", strconv.Itoa(cport),
		"-m", strconv.Itoa(max(r.Calls, 1)), "-l", "5000", "-nostdin", "-trace_err", "-trace_screen",
		"-timeout", strconv.Itoa(int(timeout.Seconds())) + "s", "-timeout_error"}
	if r.Rate > 0 {
		args = append(args, "-r", strconv.Itoa(r.Rate), "-rp", "1000")
	}
	if r.Remote != "" {
		args = append(args, r.Remote)
	}
	out, err := os.Create(filepath.Join(dir, "stdout.txt"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command("sipp", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	p := &sipp{Addr: "127.0.0.1:" + strconv.Itoa(port), name: r.Scenario, dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		out.Close()
		close(p.done)
	}()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		c, err := net.ListenPacket("udp", p.Addr)
		if err != nil {
			return p, nil // sipp holds the port
		}
		c.Close()
		select {
		case <-p.done:
			if p.err == nil {
				return p, nil // a UAC already done
			}
			logs := p.logs()
			p.kill()
			return nil, fmt.Errorf("sipp %s exited early: %v\n%s", r.Scenario, p.err, logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	logs := p.logs()
	p.kill()
	return nil, fmt.Errorf("sipp %s did not bind %s\n%s", r.Scenario, p.Addr, logs)
}

// wait waits up to timeout for SIPp to exit and returns its final
// counters; an error when it did not exit, or exited with a failure
// (some call failed: the counters say how many).
func (p *sipp) wait(timeout time.Duration) (sippStats, error) {
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.stop()
		st := p.stats()
		return st, fmt.Errorf("sipp %s did not finish in %v\n%s", p.name, timeout, p.logs())
	}
	st := p.stats()
	if p.err != nil {
		return st, fmt.Errorf("sipp %s: %v\n%s", p.name, p.err, p.logs())
	}
	return st, nil
}

// stop ends SIPp (SIGTERM, then SIGKILL after 2 s) so that it writes its
// screen, and waits for it.
func (p *sipp) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// kill stops SIPp if it still runs and removes its directory.
func (p *sipp) kill() {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	os.RemoveAll(p.dir)
}

// stats reads the cumulative counters of the screen SIPp wrote at exit.
func (p *sipp) stats() sippStats {
	files, _ := filepath.Glob(filepath.Join(p.dir, "*_screen.log"))
	var st sippStats
	for _, f := range files {
		data, _ := os.ReadFile(f)
		st = parseScreen(data)
	}
	return st
}

// parseScreen reads the last "Successful call" and "Failed call" lines of
// a SIPp screen: "  Successful call  |  0  |  20  " (the cumulative count
// is the last column).
func parseScreen(data []byte) sippStats {
	var st sippStats
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		cols := strings.Split(line, "|")
		if len(cols) < 3 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(cols[len(cols)-1]))
		if err != nil {
			continue
		}
		switch strings.TrimSpace(cols[0]) {
		case "Successful call":
			st.Successful = n
		case "Failed call":
			st.Failed = n
		}
	}
	return st
}

// logs is SIPp's error trace (its head) and the tail of its output.
func (p *sipp) logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(p.dir, "*errors.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 3000 {
			data = data[:3000]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), data)
	}
	data, _ := os.ReadFile(filepath.Join(p.dir, "stdout.txt"))
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	fmt.Fprintf(&b, "--- stdout (tail)\n%s", data)
	return b.String()
}

// freeUDPRange is the first of n consecutive UDP ports of 127.0.0.1 free
// a moment ago.
func freeUDPRange(n int) (int, error) {
	for range 100 {
		base, err := freeUDPPort()
		if err != nil {
			return 0, err
		}
		if base+n > 65535 {
			continue
		}
		var held []net.PacketConn
		for i := range n {
			c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				break
			}
			held = append(held, c)
		}
		ok := len(held) == n
		for _, c := range held {
			c.Close()
		}
		if ok {
			return base, nil
		}
	}
	return 0, errors.New("voicebench: no free UDP ports")
}
