package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// soNode is one `strata serve` process of the scale-out test.
type soNode struct {
	name     string
	api      string // platform API base URL
	captable string // cap table base URL, with /api/v1
	cmd      *exec.Cmd
	logs     *soBuffer
}

type soBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *soBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *soBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// buildStrata builds the binary into dir.
func buildStrata(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "strata")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startNode starts `strata serve --surfaces api,captable` with env plus its
// own data directory and listeners (another machine, as far as it knows).
func startNode(t *testing.T, bin, name string, env []string) *soNode {
	t.Helper()
	api, ct, admin := freeAddr(t), freeAddr(t), freeAddr(t)
	n := &soNode{name: name, api: "http://" + api, captable: "http://" + ct + "/api/v1", logs: &soBuffer{}}
	n.cmd = exec.Command(bin, "serve", "--surfaces", "api,captable")
	n.cmd.Env = append(append(os.Environ(), env...), "STRATA_DATA_DIR="+filepath.Join(t.TempDir(), "data"),
		"STRATA_API_ADDR="+api, "STRATA_CAPTABLE_ADDR="+ct, "STRATA_ADMIN_ADDR="+admin)
	n.cmd.Stdout, n.cmd.Stderr = n.logs, n.logs
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if n.cmd.ProcessState == nil {
			_ = n.cmd.Process.Kill()
			_ = n.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("logs of process %s:\n%s", n.name, soTail(n.logs.String(), 6000))
		}
	})
	return n
}

func soTail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// waitHealthy waits until both surfaces answer their health checks.
func (n *soNode) waitHealthy(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if n.cmd.ProcessState != nil {
			break
		}
		ok := 0
		for _, u := range []string{n.api + "/health", strings.TrimSuffix(n.captable, "/api/v1") + "/health"} {
			if resp, err := http.Get(u); err == nil {
				if resp.StatusCode == 200 {
					ok++
				}
				resp.Body.Close()
			}
		}
		if ok == 2 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("process %s did not become healthy\n%s", n.name, soTail(n.logs.String(), 6000))
}

// stop sends SIGTERM and expects a clean exit.
func (n *soNode) stop(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := n.cmd.Wait(); err != nil {
		t.Fatalf("process %s did not exit cleanly: %v\n%s", n.name, err, soTail(n.logs.String(), 6000))
	}
}

// soBalancer is a round-robin reverse proxy over the processes' platform
// APIs: the load balancer of the topology, and the public URL.
type soBalancer struct {
	srv      *httptest.Server
	backends atomic.Pointer[[]*url.URL]
	next     atomic.Uint64
}

func startBalancer(t *testing.T) *soBalancer {
	b := &soBalancer{}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		list := *b.backends.Load()
		r.SetURL(list[b.next.Add(1)%uint64(len(list))])
		r.SetXForwarded()
	}}
	b.srv = httptest.NewServer(proxy)
	t.Cleanup(b.srv.Close)
	return b
}

func (b *soBalancer) route(nodes ...*soNode) {
	var list []*url.URL
	for _, n := range nodes {
		u, _ := url.Parse(n.api)
		list = append(list, u)
	}
	b.backends.Store(&list)
}

// soReply is an HTTP answer.
type soReply struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// soCall sends a request with a JSON body (or raw bytes with their content
// type) and headers, and decodes a JSON object answer.
func soCall(t *testing.T, method, u string, hdr map[string]string, body any) soReply {
	t.Helper()
	var rd io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case soRaw:
		rd, ctype = bytes.NewReader(b.data), b.ctype
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	r := soReply{status: resp.StatusCode, header: resp.Header}
	r.raw, _ = io.ReadAll(resp.Body)
	_ = json.Unmarshal(r.raw, &r.body)
	return r
}

type soRaw struct {
	data  []byte
	ctype string
}

// soMust is soCall that expects a status.
func soMust(t *testing.T, want int, method, u string, hdr map[string]string, body any) map[string]any {
	t.Helper()
	r := soCall(t, method, u, hdr, body)
	if r.status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, u, r.status, want, r.raw)
	}
	return r.body
}

func soBearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// readModels returns every row of every read-model table (schemas rm_*),
// each as its JSON text, sorted, per table; columns in skip
// ("schema.table.column") are left out.
func readModels(t *testing.T, db *sql.DB, skip map[string]string) map[string][]string {
	t.Helper()
	rows, err := db.Query(`SELECT table_schema, table_name FROM information_schema.tables
		WHERE table_schema LIKE 'rm\_%' AND table_schema NOT LIKE '%\_\_%' AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var s, n string
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, s+"."+n)
	}
	rows.Close()
	out := map[string][]string{}
	for _, tbl := range tables {
		drop := ""
		for col := range skip {
			if strings.HasPrefix(col, tbl+".") {
				drop += " - '" + strings.TrimPrefix(col, tbl+".") + "'"
			}
		}
		q := fmt.Sprintf(`SELECT (to_jsonb(t)%s)::text FROM %s t`, drop, tbl)
		rs, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var lines []string
		for rs.Next() {
			var s string
			if err := rs.Scan(&s); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, s)
		}
		rs.Close()
		sort.Strings(lines)
		out[tbl] = lines
	}
	return out
}
