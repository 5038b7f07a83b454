package template

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer collects a process's output from two pipes at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runningApp is a generated app's server running under node.
type runningApp struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	log  *lockedBuffer
	done chan error
}

func writeApp(t *testing.T, files []File) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startApp runs node server.js in dir and waits for /healthz. Only PATH
// and the app's own variables are passed, so nothing of the test's
// environment leaks into the app.
func startApp(t *testing.T, node, dir, dataFile, token string) *runningApp {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(node, "server.js")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), fmt.Sprintf("PORT=%d", port), "HOST=127.0.0.1",
		"DATA_FILE=" + dataFile, "APP_WRITE_TOKEN=" + token}
	app := &runningApp{t: t, cmd: cmd, base: fmt.Sprintf("http://127.0.0.1:%d", port),
		log: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = app.log, app.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node: %v", err)
	}
	go func() { app.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-app.done
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case err := <-app.done:
			t.Fatalf("the server exited before it was healthy (%v):\n%s", err, app.log)
		default:
		}
		if res, err := http.Get(app.base + "/healthz"); err == nil {
			res.Body.Close()
			return app
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /healthz within 10s:\n%s", app.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM and requires a clean exit with status 0.
func (a *runningApp) stop() {
	a.t.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		a.t.Fatal(err)
	}
	select {
	case err := <-a.done:
		if err != nil {
			a.t.Fatalf("the server exited with %v after SIGTERM:\n%s", err, a.log)
		}
	case <-time.After(15 * time.Second):
		a.t.Fatalf("the server did not exit after SIGTERM:\n%s", a.log)
	}
}

// call sends a request and decodes a JSON answer into out (when not nil).
func (a *runningApp) call(method, path, token string, body any, out any) (*http.Response, []byte) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			a.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v\n%s", method, path, err, a.log)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			a.t.Fatalf("%s %s: %d %q is not JSON: %v", method, path, res.StatusCode, raw, err)
		}
	}
	return res, raw
}

func (a *runningApp) expect(method, path, token string, body any, status int, out any) *http.Response {
	a.t.Helper()
	res, raw := a.call(method, path, token, body, nil)
	if res.StatusCode != status {
		a.t.Fatalf("%s %s = %d %s, want %d", method, path, res.StatusCode, raw, status)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			a.t.Fatalf("%s %s: %q: %v", method, path, raw, err)
		}
	}
	return res
}

func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if errors.Is(err, exec.ErrNotFound) || node == "" {
		t.Skip("node is not on PATH, so the generated server cannot be run; install Node.js 20 or later to run this test")
	}
	if err != nil {
		t.Fatal(err)
	}
	return node
}

func TestGeneratedScriptsParse(t *testing.T) {
	node := nodeOrSkip(t)
	s, _ := Plan("book yoga classes at my studio")
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeApp(t, files)
	for _, f := range []string{"server.js", "public/app.js"} {
		if out, err := exec.Command(node, "--check", filepath.Join(dir, f)).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", f, err, out)
		}
	}
	index := string(files[fileIndex(files, "public/index.html")].Content)
	for _, bad := range []string{"<script>", " onclick=", " onsubmit=", `src="/`, `href="/`, "http://", "https://"} {
		if strings.Contains(index, bad) {
			t.Errorf("index.html contains %q: it must work under a strict CSP and a path prefix", bad)
		}
	}
}
