//go:build unix

package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startProcess starts a fixture with the Process runtime, stopped when the
// test ends.
func startProcess(t *testing.T, cfg ProcessConfig, a App) *ProcessInstance {
	t.Helper()
	needNode(t)
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	p, err := NewProcess(cfg)
	if err != nil {
		t.Fatal(err)
	}
	in, err := p.Start(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	pi := in.(*ProcessInstance)
	t.Cleanup(func() { _ = pi.Stop(context.Background()) })
	return pi
}

// waitServing polls the instance's path until it answers 200.
func waitServing(t *testing.T, in Instance, path string) string {
	t.Helper()
	var body string
	eventually(t, 10*time.Second, "instance serving "+path+"\n"+in.LogTail(20), func() bool {
		resp, err := http.Get("http://" + in.Addr() + path)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return resp.StatusCode == http.StatusOK
	})
	return body
}

func TestProcessEnvironment(t *testing.T) {
	t.Setenv("STRATA_RUNTIME_TEST_PARENT", "must not leak")
	data := t.TempDir()
	a := app(t, "01COMPANYENV", "v1", "healthy", "SECRET_KEY", "s3cret", "PORT", "1", "DATA_FILE", "/etc/passwd")
	in := startProcess(t, ProcessConfig{DataDir: data}, a)
	var env map[string]string
	if err := json.Unmarshal([]byte(waitServing(t, in, "/env")), &env); err != nil {
		t.Fatal(err)
	}
	port := in.Addr()[strings.LastIndexByte(in.Addr(), ':')+1:]
	want := map[string]string{
		"PORT":        port,
		"HOST":        "127.0.0.1",
		"DATA_FILE":   filepath.Join(data, "01COMPANYENV", DataFileName),
		"HOME":        a.Dir,
		"NODE_ENV":    "production",
		"SECRET_KEY":  "s3cret",
		"APP_VERSION": "v1",
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("%s = %q, want %q", k, env[k], v)
		}
	}
	if _, ok := env["STRATA_RUNTIME_TEST_PARENT"]; ok {
		t.Error("the parent's environment leaked into the app")
	}
	if env["PATH"] == "" {
		t.Error("no PATH")
	}
	if !strings.HasPrefix(in.Addr(), "127.0.0.1:") {
		t.Errorf("Addr = %q, want loopback", in.Addr())
	}
}

func TestProcessStopKillsChildren(t *testing.T) {
	t.Parallel()
	in := startProcess(t, ProcessConfig{}, app(t, "01COMPANYKIDS", "v1", "healthy", "SPAWN_CHILD", "1"))
	waitServing(t, in, "/healthz")
	child := childPID(t, in)
	if pidGone(child) {
		t.Fatalf("child %d not running before Stop", child)
	}
	if err := in.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-in.Exited():
	default:
		t.Fatal("Stop returned before Exited was closed")
	}
	eventually(t, 5*time.Second, "app and child gone", func() bool { return pidGone(in.PID()) && pidGone(child) })
	if tail := in.LogTail(5); !strings.Contains(tail, "[runtime] exited: signal: terminated") {
		t.Errorf("log tail lacks the exit note:\n%s", tail)
	}
	if err := in.Stop(context.Background()); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestProcessStopKillsAfterGrace(t *testing.T) {
	t.Parallel()
	in := startProcess(t, ProcessConfig{Grace: 200 * time.Millisecond}, app(t, "01COMPANYSTUBBORN", "v1", "ignores-sigterm"))
	waitServing(t, in, "/healthz")
	if err := in.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !pidGone(in.PID()) {
		t.Fatalf("pid %d still running", in.PID())
	}
	tail := in.LogTail(0)
	for _, want := range []string{"SIGTERM received and ignored", "[runtime] still running: SIGKILL", "signal: killed"} {
		if !strings.Contains(tail, want) {
			t.Errorf("log tail lacks %q:\n%s", want, tail)
		}
	}
}

func TestProcessExitIsNoted(t *testing.T) {
	t.Parallel()
	in := startProcess(t, ProcessConfig{}, app(t, "01COMPANYCRASH", "v1", "crashes"))
	select {
	case <-in.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("the crashing app did not exit")
	}
	tail := in.LogTail(0)
	for _, want := range []string{"reading configuration", "Error: STRIPE_KEY is not set", "[runtime] exited: exit status 1"} {
		if !strings.Contains(tail, want) {
			t.Errorf("log tail lacks %q:\n%s", want, tail)
		}
	}
}

func TestProcessRefusesInvalidApps(t *testing.T) {
	t.Parallel()
	needNode(t)
	p, err := NewProcess(ProcessConfig{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	good := app(t, "01COMPANY", "v1", "healthy")
	tests := []struct {
		name string
		edit func(*App)
	}{
		{"empty company", func(a *App) { a.CompanyID = "" }},
		{"company escapes the data directory", func(a *App) { a.CompanyID = "../x" }},
		{"relative directory", func(a *App) { a.Dir = "testdata/healthy" }},
		{"missing directory", func(a *App) { a.Dir = filepath.Join(a.Dir, "nope") }},
		{"name with =", func(a *App) { a.Env = map[string]string{"A=B": "x"} }},
		{"value with NUL", func(a *App) { a.Env = map[string]string{"TOKEN": "hidden\x00value"} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := good
			tc.edit(&a)
			_, err := p.Start(context.Background(), a)
			if !errors.Is(err, ErrInvalidApp) {
				t.Fatalf("Start = %v, want ErrInvalidApp", err)
			}
			if strings.Contains(err.Error(), "hidden") {
				t.Fatalf("the error shows an environment value: %v", err)
			}
		})
	}
}

func TestNewProcessNeedsDataDirAndNode(t *testing.T) {
	t.Parallel()
	if _, err := NewProcess(ProcessConfig{Node: "node", DataDir: ""}); err == nil {
		t.Error("no error without DataDir")
	}
	if _, err := NewProcess(ProcessConfig{Node: "no-such-node-binary", DataDir: t.TempDir()}); err == nil {
		t.Error("no error for a missing node binary")
	}
}

// childPID reads the "child pid N" line the healthy fixture prints.
func childPID(t *testing.T, in Instance) int {
	t.Helper()
	re := regexp.MustCompile(`child pid (\d+)`)
	var pid int
	eventually(t, 5*time.Second, "child pid in the log", func() bool {
		m := re.FindStringSubmatch(in.LogTail(0))
		if m == nil {
			return false
		}
		pid, _ = strconv.Atoi(m[1])
		return true
	})
	return pid
}
