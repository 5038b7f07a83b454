package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type opened struct {
	Name string `json:"name"`
}

func (opened) EventType() string { return "test.opened" }

type closed struct{}

func (closed) EventType() string { return "test.closed" }

// testWiring is the production wiring plus two test event types.
func testWiring() Wiring {
	w := productionWiring
	w.Events = func(reg *eventstore.Registry) error {
		if err := reg.Register(
			eventstore.EventDef{Name: "test.opened", Version: 1, New: func() kernel.Event { return &opened{} }},
			eventstore.EventDef{Name: "test.closed", Version: 1, New: func() kernel.Event { return &closed{} }},
		); err != nil {
			return err
		}
		return registerAll(reg, projections.Events()) // operators' skips
	}
	w.Start = nil // the identity context needs its own events; see identity_test.go
	w.Routes = func(string, *mux.Router, *App) {}
	return w
}

type cli struct {
	t   *testing.T
	env map[string]string
}

func (c cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, c.env, &out, &errb, testWiring())
	return out.String(), errb.String(), code
}

// runWith is run with another wiring.
func (c cli) runWith(w Wiring, args ...string) (string, string, int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, c.env, &out, &errb, w)
	return out.String(), errb.String(), code
}

func (c cli) mustRun(args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("strata %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// populate appends a small history: 3 streams, 7 events.
func populate(t *testing.T, db *pgtest.Database) *eventstore.Store {
	t.Helper()
	reg, err := testWiring().registry()
	if err != nil {
		t.Fatal(err)
	}
	clock := kernel.SystemClock{}
	s := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	ctx := context.Background()
	for i := range 3 {
		id := fmt.Sprintf("acct-%d", i)
		if _, err := s.Append(ctx, eventstore.Stream{Type: "test.account", ID: id}, eventstore.NoStream, opened{Name: id}, closed{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Append(ctx, eventstore.Stream{Type: "test.account", ID: "acct-0"}, 2, opened{Name: "again"}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOperatorCommandsOnAPopulatedDatabase(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	populate(t, db)
	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error"}}

	out := c.mustRun("projections", "status")
	if !strings.Contains(out, "eventstore.catalog.v1") || !strings.Contains(out, "never_run") {
		t.Fatalf("status before any run:\n%s", out)
	}
	out = c.mustRun("projections", "rebuild", "--all")
	if !strings.Contains(out, "eventstore.catalog.v1: rebuilt from 7 events (7 applied)") {
		t.Fatalf("rebuild output:\n%s", out)
	}
	var st []projections.Status
	if err := json.Unmarshal([]byte(c.mustRun("projections", "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if len(st) != 13 { // eventstore.catalog.v1, builder.sessions.v1, captable.v1, community.v1, hackathon.v1, voice.v1, memory.v1, payments.v1, gateway.credits.v1, briefing.v1, audit.v1, datamarket.v1 and content.v1
		t.Fatalf("status after rebuild lists %d projectors: %+v", len(st), st)
	}
	for _, p := range st {
		if p.LagEvents != 0 || p.Checkpoint.Position == 0 {
			t.Fatalf("status after rebuild: %+v", st)
		}
	}
	var opens, streams int
	if err := db.SQL.QueryRow(`SELECT (SELECT events FROM rm_eventstore_catalog_v1.event_types WHERE event_type = 'test.opened'),
		(SELECT streams FROM rm_eventstore_catalog_v1.stream_types WHERE stream_type = 'test.account')`).Scan(&opens, &streams); err != nil {
		t.Fatal(err)
	}
	if opens != 4 || streams != 3 {
		t.Fatalf("catalog: %d test.opened events, %d streams; want 4 and 3", opens, streams)
	}

	all := exportLines(t, c.mustRun("events", "export"))
	if len(all) != 7 {
		t.Fatalf("export: %d lines, want 7", len(all))
	}
	if all[0]["event_type"] != "test.opened" || all[0]["payload"].(map[string]any)["name"] != "acct-0" || all[0]["schema_version"].(float64) != 1 {
		t.Fatalf("first exported envelope: %v", all[0])
	}
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"--stream", "acct-0"}, 3},
		{[]string{"--type", "test.closed"}, 3},
		{[]string{"--from-position", fmt.Sprint(all[5]["position"])}, 2},
		{[]string{"--until", "2000-01-01T00:00:00Z"}, 0},
		{[]string{"--stream", "acct-0", "--type", "test.opened"}, 2},
	}
	for _, tc := range cases {
		got := exportLines(t, c.mustRun(append([]string{"events", "export"}, tc.args...)...))
		if len(got) != tc.want {
			t.Errorf("export %v: %d events, want %d", tc.args, len(got), tc.want)
		}
	}
}

func exportLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestUsageErrorsExitTwoAndNameTheProblem(t *testing.T) {
	t.Parallel()
	c := cli{t: t, env: map[string]string{"DATABASE_URL": "postgres://127.0.0.1:1/none", "STRATA_LOG_LEVEL": "error"}}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"projections", "rebuild"}, "projections rebuild NAME|--all"},
		{[]string{"projections", "rebuild", "nope.v1"}, `no projector named "nope.v1"`},
		{[]string{"events", "export", "--until", "yesterday"}, "--until: want an RFC 3339 time"},
		{[]string{"serve", "--surfaces", "api,moon"}, `unknown surface "moon"`},
		{[]string{"bench", "teapot"}, "bench"},
	}
	for _, tc := range cases {
		_, errOut, code := c.run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("strata %v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
	for name, bad := range map[string]string{"STRATA_MAX_BODY_BYTES": "lots", "STRATA_PG_SHARED_BUFFERS": "1GB; DROP",
		"STRATA_EMBEDDINGS_URL": "ftp://models.example", "STRATA_LLM_URL": "models.example",
		"STRATA_WORDNET_DIR": "/nonexistent/wordnet", "STRATA_MEMORY_LLM_EXTRACT": "maybe"} {
		if _, errOut, code := (cli{t: t, env: map[string]string{name: bad}}).run("version"); code != 2 || !strings.Contains(errOut, name) {
			t.Errorf("bad %s: exit %d, %q", name, code, errOut)
		}
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestServeRunsSurfacesProjectorsAndShutsDownCleanly(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	store := populate(t, db)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error", "STRATA_VERSION": "abc123",
		"STRATA_BUILDER_ADDR": freeAddr(t), "STRATA_VOICE_ADDR": freeAddr(t), "STRATA_ADMIN_ADDR": freeAddr(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--surfaces", "builder,voice"}, env, &bytes.Buffer{}, &errb, testWiring())
	}()

	var health struct{ Status, Version, Timestamp string }
	waitFor(t, func() bool {
		resp, err := http.Get("http://" + env["STRATA_BUILDER_ADDR"] + "/api/health")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == 200 && json.NewDecoder(resp.Body).Decode(&health) == nil
	})
	if health.Status != "healthy" || health.Version != "abc123" {
		t.Fatalf("builder health = %+v", health)
	}
	if resp, err := http.Get("http://" + env["STRATA_VOICE_ADDR"] + "/health/ready"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("voice ready: %v %v", resp, err)
	}
	// The live catalog projector catches up with history and follows new appends.
	if _, err := store.Append(context.Background(), eventstore.Stream{Type: "test.account", ID: "acct-9"}, eventstore.NoStream, opened{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		var n int
		_ = db.SQL.QueryRow(`SELECT events FROM rm_eventstore_catalog_v1.event_types WHERE event_type = 'test.opened'`).Scan(&n)
		return n == 5
	})
	resp, err := http.Get("http://" + env["STRATA_ADMIN_ADDR"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var metrics bytes.Buffer
	_, _ = metrics.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"strata_http_request_duration_seconds", `strata_projector_lag_events{projector="eventstore.catalog.v1"} 0`, "strata_eventstore_appended_events_total"} {
		if !strings.Contains(metrics.String(), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not shut down")
	}
	var state string
	if err := db.SQL.QueryRow(`SELECT state FROM es.projector_status WHERE name = 'eventstore.catalog.v1'`).Scan(&state); err != nil || state != "stopped" {
		t.Fatalf("projector state after shutdown = %q (%v), want stopped", state, err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 20s")
}
