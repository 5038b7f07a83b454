package httpx_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/readapi/httpx"
)

func TestAssignRequestID(t *testing.T) {
	rt := mux.NewRouter()
	rt.HandleFunc("/id", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, httpx.RequestID(r.Context()))
	})
	srv, _ := serve(t, httpx.StyleProblem, 0, rt)
	cases := []struct {
		name, incoming string
		kept           bool
	}{
		{"sane", "abc-123", true},
		{"max length", strings.Repeat("a", 128), true},
		{"none", "", false},
		{"too long", strings.Repeat("a", 129), false},
		{"space", "abc 123", false},
		{"non-ascii", "abc\u00e9", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hdr []string
			if c.incoming != "" {
				hdr = []string{httpx.HeaderRequestID, c.incoming}
			}
			resp, body := do(t, http.MethodGet, srv.URL+"/id", "", nil, hdr...)
			got := resp.Header.Get(httpx.HeaderRequestID)
			if got != string(body) {
				t.Fatalf("header %q differs from context %q", got, body)
			}
			if c.kept && got != c.incoming {
				t.Fatalf("id = %q, want %q kept", got, c.incoming)
			}
			if !c.kept && (got == c.incoming || len(got) != 26) {
				t.Fatalf("id = %q, want a fresh ULID", got)
			}
		})
	}
}

func TestRecoverAfterHeadersAbortsConnection(t *testing.T) {
	rt := mux.NewRouter()
	rt.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "partial ")
		http.NewResponseController(w).Flush()
		panic("boom after write")
	})
	srv, logs := serve(t, httpx.StyleProblem, 0, rt)
	resp, err := http.Get(srv.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("read completed (%q); want the connection aborted", body)
	}
	if resp.StatusCode != http.StatusOK || string(body) != "partial " {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
	waitFor(t, logs, `"response_started":true`)
}

func TestMetricsAndAccessLog(t *testing.T) {
	reg := prometheus.NewRegistry()
	m1, err := httpx.NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := httpx.NewMetrics(reg); err != nil { // a second surface on the same registry
		t.Fatalf("second NewMetrics: %v", err)
	}
	rt := httpx.NewRouter(httpx.StyleProblem)
	rt.HandleFunc("/items/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	}).Methods(http.MethodGet)
	srv, logs := serve(t, httpx.StyleProblem, 0, rt, m1.Middleware)

	do(t, http.MethodGet, srv.URL+"/items/1", "", nil, httpx.HeaderRequestID, "log-me")
	do(t, http.MethodGet, srv.URL+"/items/2", "", nil)
	do(t, http.MethodGet, srv.URL+"/secret/path/123", "", nil)
	do(t, "BREW", srv.URL+"/items/3", "", nil)

	want := map[string]float64{
		"test /items/{id} GET 200": 2,
		"test unmatched GET 404":   1,
		"test unmatched OTHER 405": 1,
	}
	for _, name := range []string{"strata_http_requests_total", "strata_http_request_duration_seconds"} {
		got := series(t, reg, name)
		if len(got) != len(want) {
			t.Errorf("%s has series %v, want %v", name, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s{%s} = %v, want %v", name, k, got[k], v)
			}
		}
	}

	line := waitFor(t, logs, `"request_id":"log-me"`)
	var entry map[string]any
	if err := json.Unmarshal([]byte(line), &entry); err != nil {
		t.Fatal(err)
	}
	wantLog := map[string]any{"msg": "http request", "method": "GET", "route": "/items/{id}", "path": "/items/1",
		"status": float64(200), "bytes": float64(5), "surface": "test"}
	for k, v := range wantLog {
		if entry[k] != v {
			t.Errorf("access log %s = %v, want %v", k, entry[k], v)
		}
	}
	for _, k := range []string{"duration_ms", "remote_addr"} {
		if _, ok := entry[k]; !ok {
			t.Errorf("access log lacks %s: %s", k, line)
		}
	}
}

// series returns, from the family name in reg, the value of each series as
// "route method status" -> counter value or histogram sample count.
func series(t *testing.T, reg *prometheus.Registry, name string) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, lp := range m.GetLabel() {
				l[lp.GetName()] = lp.GetValue()
			}
			key := l["surface"] + " " + l["route"] + " " + l["method"] + " " + l["status"]
			if h := m.GetHistogram(); h != nil {
				out[key] = float64(h.GetSampleCount())
			} else {
				out[key] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}

// waitFor returns the first log line containing s, waiting briefly because
// the access log is written after the response has been sent.
func waitFor(t *testing.T, logs *logBuffer, s string) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, s) {
				return l
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line contains %s; log:\n%s", s, logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
