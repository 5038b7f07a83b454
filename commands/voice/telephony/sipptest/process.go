package sipptest

import (
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
)

// RunOptions are one SIPp process's settings for Run (outside tests: the
// voice bench; tests use Start).
type RunOptions struct {
	// Dir is where the scenario, SIPp's logs and its output are written.
	Dir string
	// Port, MediaPort (four consecutive ports from it) and ControlPort on
	// 127.0.0.1.
	Port, MediaPort, ControlPort int
	// Remote is what a UAC calls (host:port); empty for a UAS.
	Remote string
	// Calls is -m (0 means 1); Rate a UAC's calls a second (-r, 0: SIPp's).
	Calls, Rate int
	// Timeout is -timeout, an error when reached (0 means 40 s).
	Timeout time.Duration
	// Args are more SIPp options ("-trace_screen", "-l", "5000").
	Args []string
}

// Process is a running SIPp.
type Process struct {
	// Addr is its SIP address (127.0.0.1:port); Dir its directory.
	Addr, Dir string

	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// ErrPortInUse is returned by Run when SIPp lost one of its ports to
// another process before it could bind it: run it again on fresh ports.
var ErrPortInUse = errors.New("sipptest: a port was taken by another process")

// Run writes the scenario src as name in o.Dir, starts sipp and returns
// once it holds its SIP port (a UAC may already be done), or an error with
// SIPp's logs when it exits early or does not bind within 5 s.
func Run(name string, src []byte, o RunOptions) (*Process, error) {
	if err := os.WriteFile(filepath.Join(o.Dir, name), src, 0o644); err != nil {
		return nil, err
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 40 * time.Second
	}
	args := append([]string{
		"-sf", name, "-i", "127.0.0.1", "-p", strconv.Itoa(o.Port),
		"-mi", "127.0.0.1", "-mp", strconv.Itoa(o.MediaPort), "-cp", strconv.Itoa(o.ControlPort),
		"-m", strconv.Itoa(max(o.Calls, 1)), "-nostdin", "-trace_err",
		"-timeout", strconv.Itoa(int(timeout.Seconds())) + "s", "-timeout_error",
	}, o.Args...)
	if o.Rate > 0 {
		args = append(args, "-r", strconv.Itoa(o.Rate), "-rp", "1000")
	}
	if o.Remote != "" {
		args = append(args, o.Remote)
	}
	out, err := os.Create(filepath.Join(o.Dir, "stdout.txt"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("sipp", args...)
	cmd.Dir = o.Dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	p := &Process{Addr: "127.0.0.1:" + strconv.Itoa(o.Port), Dir: o.Dir, cmd: cmd, done: make(chan struct{})}
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
			logs := p.Logs()
			if strings.Contains(logs, "errno = 98") {
				return nil, fmt.Errorf("%w: %v", ErrPortInUse, p.err)
			}
			return nil, fmt.Errorf("sipp %s exited early: %v\n%s", name, p.err, logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	logs := p.Logs()
	p.Kill()
	return nil, fmt.Errorf("sipp %s did not bind %s\n%s", name, p.Addr, logs)
}

// Done is closed when SIPp has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err is SIPp's exit error once Done is closed (nil: every call passed).
func (p *Process) Err() error { return p.err }

// Kill stops SIPp (if it still runs) and waits for it.
func (p *Process) Kill() {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// Stop ends SIPp with SIGTERM, so that it writes its screen, then SIGKILL
// after 2 s, and waits for it.
func (p *Process) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
		p.Kill()
	}
}

// Logs is SIPp's error trace (its first 3,000 bytes) and the tail of its
// output.
func (p *Process) Logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(p.Dir, "*errors.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 3000 {
			data = data[:3000]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), data)
	}
	data, _ := os.ReadFile(filepath.Join(p.Dir, "stdout.txt"))
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	fmt.Fprintf(&b, "--- stdout (tail)\n%s", data)
	return b.String()
}
