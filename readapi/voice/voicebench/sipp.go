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

// sipp is a running SIPp (sipptest.Process) of the bench.
type sipp struct {
	*sipptest.Process
	name string
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
	o := sipptest.RunOptions{Dir: dir, Port: r.Port, Remote: r.Remote, Calls: r.Calls, Rate: r.Rate, Timeout: r.Timeout,
		Args: []string{"-l", "5000", "-trace_screen"}}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.MediaPort, err = freeUDPRange(4); err == nil { // SIPp's audio and video RTP and RTCP
		o.ControlPort, err = freeUDPPort()
	}
	if err == nil && o.Port == 0 {
		o.Port, err = freeUDPPort()
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p, err := sipptest.Run(r.Scenario, src, o)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &sipp{Process: p, name: r.Scenario}, nil
}

// wait waits up to timeout for SIPp to exit and returns its final
// counters; an error when it did not exit, or exited with a failure
// (some call failed: the counters say how many).
func (p *sipp) wait(timeout time.Duration) (sippStats, error) {
	select {
	case <-p.Done():
	case <-time.After(timeout):
		p.Stop()
		st := p.stats()
		return st, fmt.Errorf("sipp %s did not finish in %v\n%s", p.name, timeout, p.Logs())
	}
	st := p.stats()
	if p.Err() != nil {
		return st, fmt.Errorf("sipp %s: %v\n%s", p.name, p.Err(), p.Logs())
	}
	return st, nil
}

// kill stops SIPp if it still runs and removes its directory.
func (p *sipp) kill() {
	p.Kill()
	os.RemoveAll(p.Dir)
}

// stats reads the cumulative counters of the screen SIPp wrote at exit.
func (p *sipp) stats() sippStats {
	files, _ := filepath.Glob(filepath.Join(p.Dir, "*_screen.log"))
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
