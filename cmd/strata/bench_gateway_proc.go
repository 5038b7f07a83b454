package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// gatewayProcess is the gateway under bench in a process of its own.
type gatewayProcess struct {
	cmd    *exec.Cmd
	base   string     // http://127.0.0.1:port
	done   chan error // the process's end (once)
	logged chan struct{}
}

// startGatewayProcess starts this executable's `serve --surfaces api` with
// the defaults and env on free loopback ports (nothing else of this
// process's environment that configures Strata), and waits until it is
// healthy and lists the bench's two models to key. Its log lines of level
// WARN and ERROR are copied to c's stderr, the rest dropped.
func (c *command) startGatewayProcess(ctx context.Context, env map[string]string, key string) (_ *gatewayProcess, err error) {
	api, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	admin, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	env["STRATA_API_ADDR"], env["STRATA_ADMIN_ADDR"] = api, admin
	args := []string{"serve", "--surfaces", "api"}
	if c.childProfile != "" {
		args = append(args, "--cpuprofile", c.childProfile)
	}
	cmd, err := c.strataCommand(env, args...)
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench gateway: start %s serve: %w", cmd.Path, err)
	}
	p := &gatewayProcess{cmd: cmd, base: "http://" + api, done: make(chan error, 1), logged: make(chan struct{})}
	go func() {
		defer close(p.logged)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if l := sc.Bytes(); bytes.Contains(l, []byte(`"level":"WARN"`)) || bytes.Contains(l, []byte(`"level":"ERROR"`)) {
				fmt.Fprintf(c.stderr, "%s\n", l)
			}
		}
	}()
	go func() {
		<-p.logged
		p.done <- cmd.Wait()
	}()
	defer func() {
		if err != nil {
			_ = p.stop()
		}
	}()
	if err := waitHealthy(ctx, p.base, p.done); err != nil {
		return nil, err
	}
	return p, p.waitModels(ctx, key)
}

// waitModels waits up to a minute for the gateway to list both of the
// bench's models to key (its catalog view caught up with the setup).
func (p *gatewayProcess) waitModels(ctx context.Context, key string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/v1/public/models", nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var out struct {
				Models []struct {
					ID string `json:"id"`
				} `json:"models"`
			}
			derr := json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			found := 0
			for _, m := range out.Models {
				if m.ID == benchModel || m.ID == benchMessagesModel {
					found++
				}
			}
			if derr == nil && resp.StatusCode == http.StatusOK && found == 2 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return errors.New("bench gateway: the gateway process did not list the bench's models in a minute")
		}
		select {
		case err := <-p.done:
			p.done <- err
			return fmt.Errorf("bench gateway: the gateway process ended: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop ends the process (SIGTERM: a clean stop, its debits flushed; SIGKILL
// after 30 s) and waits for it.
func (p *gatewayProcess) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err
		return nil
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		err := <-p.done
		p.done <- err
		return errors.New("bench gateway: the gateway process did not stop in 30 s; killed")
	}
}

// startUpstreamProcess starts this executable's `dev-upstream` on a free
// loopback port, in a process of its own as a real upstream is, and
// returns its base URL once it answers, and how to stop it.
func (c *command) startUpstreamProcess(ctx context.Context) (string, func() error, error) {
	return c.startDevProcess(ctx, "the development upstream")
}

// startProxyProcess starts `dev-upstream --pass-through upstream` the same
// way: the proxy that only forwards, against which the bench measures one
// HTTP hop.
func (c *command) startProxyProcess(ctx context.Context, upstream string) (string, func() error, error) {
	return c.startDevProcess(ctx, "the pass-through proxy", "--pass-through", upstream)
}

// startDevProcess runs `dev-upstream --addr <free port> args...` and
// waits until it accepts connections.
func (c *command) startDevProcess(ctx context.Context, what string, args ...string) (string, func() error, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return "", nil, err
	}
	cmd, err := c.strataCommand(nil, append([]string{"dev-upstream", "--addr", addr}, args...)...)
	if err != nil {
		return "", nil, err
	}
	cmd.Stdout, cmd.Stderr = io.Discard, c.stderr
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("bench gateway: start %s dev-upstream: %w", cmd.Path, err)
	}
	p := &gatewayProcess{cmd: cmd, base: "http://" + addr, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return p.base, p.stop, nil
		}
		if time.Now().After(deadline) {
			_ = p.stop()
			return "", nil, fmt.Errorf("bench gateway: %s did not listen on %s in 30 s", what, addr)
		}
		select {
		case err := <-p.done:
			return "", nil, fmt.Errorf("bench gateway: %s ended: %v", what, err)
		case <-ctx.Done():
			_ = p.stop()
			return "", nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// strataCommand is this executable (or c.executable) run with args, with
// the environment of this process less what configures Strata, plus env;
// it ends with this process (parent-death signal).
func (c *command) strataCommand(env map[string]string, args ...string) (*exec.Cmd, error) {
	exe := c.executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("bench gateway: %w", err)
		}
	}
	cmd := exec.Command(exe, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "STRATA_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	return cmd, nil
}
