package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgcluster"
)

// reachableDir returns a fresh directory the postgres user can reach when the
// test runs as root (t.TempDir's directories are mode 0700).
func reachableDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		for _, p := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// serveInProcess runs `strata serve --surfaces api` with env until stop is
// called or the test ends, and returns the API's base URL and stop, which
// returns serve's exit code.
func serveInProcess(t *testing.T, env map[string]string) (api string, stop func() int) {
	t.Helper()
	env["STRATA_API_ADDR"], env["STRATA_ADMIN_ADDR"] = freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	logs := &syncBuffer{}
	go func() {
		done <- run(ctx, []string{"serve", "--surfaces", "api"}, env, logs, logs, productionWiring)
	}()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve on %s logged:\n%s", env["STRATA_API_ADDR"], logs.String())
		}
	})
	var once sync.Once
	var code int
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	api = "http://" + env["STRATA_API_ADDR"]
	waitFor(t, func() bool { return healthy(api) })
	return api, stop
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func healthy(api string) bool {
	resp, err := http.Get(api + "/health")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// register creates an account through api and returns its access token, ""
// when the request did not answer 201.
func register(api, email string) string {
	body := fmt.Sprintf(`{"email":%q,"password":"Rec0nnect-pass","full_name":"R"}`, email)
	resp, err := http.Post(api+"/api/v1/auth/register", "application/json", strings.NewReader(body))
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusCreated || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return ""
	}
	return out.AccessToken
}

// me reports whether api knows the account of token.
func me(api, token string) bool {
	req, _ := http.NewRequest("GET", api+"/api/v1/auth/me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// `strata db start|url|stop` run the embedded cluster on its own; two serve
// processes use it (one through the data directory, one through the URL
// `db url` prints), neither stops it, and both recover when it is stopped
// and started again under them: the pool, the LISTEN connection, the
// identity directory and the projectors reconnect.
func TestDBCommandsAndReconnect(t *testing.T) {
	if testing.Short() {
		t.Skip("runs initdb and two servers")
	}
	t.Parallel()
	data := filepath.Join(reachableDir(t), "data")
	base := map[string]string{"DATABASE_URL": "", "STRATA_DATA_DIR": data, "STRATA_LOG_LEVEL": "warn",
		"STRATA_MASTER_KEY": base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{5}, 32)),
		"STRATA_PUBLIC_URL": "http://strata.test"} // one issuer for both processes
	c := cli{t: t, env: base}
	if _, errOut, code := c.run("db", "url"); code != 1 || !strings.Contains(errOut, "strata db start") {
		t.Fatalf("db url before start: exit %d, %q", code, errOut)
	}
	if _, errOut, code := c.run("db", "bogus"); code != 2 || !strings.Contains(errOut, "start|stop|url") {
		t.Fatalf("db bogus: exit %d, %q", code, errOut)
	}
	c.mustRun("db", "start")
	t.Cleanup(func() { c.run("db", "stop") })
	if out := c.mustRun("db", "start"); !strings.Contains(out, "already running") {
		t.Fatalf("second db start: %q", out)
	}
	dbURL := strings.TrimSpace(c.mustRun("db", "url"))
	u, err := url.Parse(dbURL)
	if err != nil || u.Host == "" || u.Path != "/strata" {
		t.Fatalf("db url printed %q (%v); want a TCP URL of database strata", dbURL, err)
	}
	if pw, _ := u.User.Password(); pw == "" {
		t.Fatalf("db url printed %q: no password", dbURL)
	}

	viaDir := map[string]string{}
	viaURL := map[string]string{}
	for k, v := range base {
		viaDir[k], viaURL[k] = v, v
	}
	viaURL["DATABASE_URL"] = dbURL
	apiA, stopA := serveInProcess(t, viaDir)
	apiB, _ := serveInProcess(t, viaURL)
	tokA := register(apiA, "before@example.com")
	if tokA == "" {
		t.Fatal("register before the restart failed")
	}
	waitFor(t, func() bool { return me(apiB, tokA) })

	port := func() int {
		r, err := pgcluster.Running(data)
		if err != nil {
			return 0
		}
		return r.Port()
	}
	before := port()
	c.mustRun("db", "stop")
	if _, err := pgcluster.Running(data); err == nil {
		t.Fatal("db stop left the cluster running")
	}
	c.mustRun("db", "start")
	if after := port(); after != before {
		t.Fatalf("port %d after the restart, was %d", after, before)
	}
	n := 0
	var tokB string
	waitFor(t, func() bool {
		n++
		tokB = register(apiB, fmt.Sprintf("after%d@example.com", n))
		return tokB != ""
	})
	last := ""
	waitFor(t, func() bool {
		a, b, ha, hb := me(apiA, tokB), me(apiB, tokA), healthy(apiA), healthy(apiB)
		if state := fmt.Sprintf("A knows B's new account %v, B knows A's %v, A healthy %v, B healthy %v", a, b, ha, hb); state != last {
			t.Logf("after the restart: %s", state)
			last = state
		}
		return a && b && ha && hb
	})
	n++
	tokA2 := register(apiA, fmt.Sprintf("after%d@example.com", n))
	if tokA2 == "" {
		t.Fatal("register through the data-directory process after the restart failed")
	}
	waitFor(t, func() bool { return me(apiB, tokA2) }) // B's directory tail follows A's writes

	// A serve that did not start the cluster leaves it running.
	if code := stopA(); code != 0 {
		t.Fatalf("serve exited %d", code)
	}
	if port() != before {
		t.Fatal("a serve that attached to the cluster stopped it")
	}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatalf("the cluster after serve A exited: %v", err)
	}
}
