package readapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi"
)

func TestHealthPerSurface(t *testing.T) {
	const dbCause = "dial tcp 10.0.0.7:5432: password authentication failed"
	states := []struct {
		name      string
		readiness readapi.Readiness
		ready     bool   // api, captable, hackathon, voice ready
		builder   string // builder status
		database  string
		projector string
	}{
		{"healthy", readapi.Readiness{}, true, "healthy", "ok", "ok"},
		{"stalled", readapi.Readiness{Stalled: []string{"captable.grants", "audit.scans"}}, false, "degraded", "ok", "stalled: audit.scans,captable.grants"},
		{"db down", readapi.Readiness{Database: errors.New(dbCause)}, false, "unhealthy", "unavailable", "ok"},
		{"db starting", readapi.Readiness{Database: kernel.Unavailable("database is starting", errors.New(dbCause))}, false, "unhealthy", "database is starting", "ok"},
	}
	for _, surface := range readapi.Surfaces() {
		for _, st := range states {
			t.Run(surface+"/"+st.name, func(t *testing.T) {
				ts := startSurface(t, surface, st.readiness)
				path, wantStatus := "/health", http.StatusOK
				switch surface {
				case "builder":
					path = "/api/health"
					if st.builder == "unhealthy" {
						wantStatus = http.StatusServiceUnavailable
					}
				case "voice":
					resp, raw := call(t, "GET", ts.srv.URL+"/health", "", nil)
					var live map[string]any
					_ = json.Unmarshal(raw, &live)
					if resp.StatusCode != http.StatusOK || len(live) != 1 || live["status"] != "ok" {
						t.Fatalf("voice liveness: %d %s", resp.StatusCode, raw)
					}
					path = "/health/ready"
				}
				if surface != "builder" && !st.ready {
					wantStatus = http.StatusServiceUnavailable
				}
				resp, raw := call(t, "GET", ts.srv.URL+path, "", nil)
				if resp.StatusCode != wantStatus {
					t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, wantStatus, raw)
				}
				eq(t, "Content-Type", resp.Header.Get("Content-Type"), "application/json")
				if strings.Contains(string(raw), "10.0.0.7") || strings.Contains(string(raw), "password") {
					t.Fatalf("health body leaks the database error: %s", raw)
				}
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatalf("body: %v: %s", err, raw)
				}
				if surface == "builder" {
					keys(t, m, []string{"status", "timestamp", "version", "checks"}, nil)
					eq(t, "status", m["status"], st.builder)
					eq(t, "timestamp", m["timestamp"], "2025-03-04T04:06:07Z")
					eq(t, "version", m["version"], "abc1234")
				} else {
					keys(t, m, []string{"status", "checks"}, nil)
					want := "ready"
					if !st.ready {
						want = "not_ready"
					}
					eq(t, "status", m["status"], want)
				}
				checks, _ := m["checks"].(map[string]any)
				keys(t, checks, []string{"database", "projectors"}, nil)
				eq(t, "checks.database", checks["database"], st.database)
				eq(t, "checks.projectors", checks["projectors"], st.projector)
				if st.readiness.Database != nil {
					logLine(t, ts.logs, "database not ready", dbCause)
				}

				head, body := call(t, "HEAD", ts.srv.URL+path, "", nil)
				if head.StatusCode != wantStatus || len(body) != 0 {
					t.Fatalf("HEAD: status %d, body %q", head.StatusCode, body)
				}
			})
		}
	}
}

func TestMetricsOnAdmin(t *testing.T) {
	reg := prometheus.NewRegistry()
	health := fakeHealth{readapi.Readiness{Stalled: []string{"voice.calls"}}}
	for _, name := range readapi.Surfaces() { // all surfaces share the registry
		if _, err := readapi.NewSurface(name, readapi.Deps{Registry: reg, Health: health, Logger: slog.New(slog.DiscardHandler)}); err != nil {
			t.Fatalf("NewSurface(%s): %v", name, err)
		}
	}
	voice, err := readapi.NewSurface("voice", readapi.Deps{Registry: reg, Health: health, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(voice.Handler)
	defer srv.Close()
	admin := httptest.NewServer(readapi.AdminHandler(reg, health))
	defer admin.Close()

	call(t, "GET", srv.URL+"/health/ready", "", nil)
	call(t, "GET", srv.URL+"/secret-path-42", "", nil)

	resp, raw := call(t, "GET", admin.URL+"/metrics", "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics status %d", resp.StatusCode)
	}
	text := string(raw)
	for _, want := range []string{
		`strata_http_request_duration_seconds_bucket{method="GET",route="/health/ready",status="503",surface="voice",le="+Inf"} 1`,
		`strata_http_request_duration_seconds_count{method="GET",route="unmatched",status="404",surface="voice"} 1`,
		`strata_http_requests_total{method="GET",route="/health/ready",status="503",surface="voice"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s\n%s", want, text)
		}
	}
	if strings.Contains(text, "secret-path-42") {
		t.Errorf("/metrics carries a raw path")
	}

	cases := []struct {
		method, path string
		status       int
		contains     string
	}{
		{"GET", "/health", 503, `"projectors":"stalled: voice.calls"`},
		{"POST", "/metrics", 405, `"code":"method_not_allowed"`},
		{"GET", "/nope", 404, `"code":"not_found"`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.method, c.path), func(t *testing.T) {
			resp, raw := call(t, c.method, admin.URL+c.path, "", nil)
			if resp.StatusCode != c.status || !strings.Contains(string(raw), c.contains) {
				t.Fatalf("status %d body %s", resp.StatusCode, raw)
			}
		})
	}
}

func TestNewSurfaceRejectsBadInput(t *testing.T) {
	reg := prometheus.NewRegistry()
	health := fakeHealth{}
	cases := []struct {
		name, surface string
		deps          readapi.Deps
		want          string
	}{
		{"unknown surface", "billing", readapi.Deps{Registry: reg, Health: health}, `unknown surface "billing"`},
		{"admin is not a surface", "admin", readapi.Deps{Registry: reg, Health: health}, "unknown surface"},
		{"no registry", "api", readapi.Deps{Health: health}, "Registry is required"},
		{"no health", "api", readapi.Deps{Registry: reg}, "Health is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := readapi.NewSurface(c.surface, c.deps)
			if err == nil || s != nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("NewSurface = %v, %v; want error containing %q", s, err, c.want)
			}
		})
	}
}

func TestNewServerTimeouts(t *testing.T) {
	s := readapi.NewServer(":0", http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Fatalf("unset limits: %+v", s)
	}
	if s.ReadHeaderTimeout > s.ReadTimeout {
		t.Fatalf("ReadHeaderTimeout %v > ReadTimeout %v", s.ReadHeaderTimeout, s.ReadTimeout)
	}
}

func TestVoiceReadinessNamesEachDependency(t *testing.T) {
	checks := map[string]error{"telephony": kernel.Unavailable("circuit breaker open: sip did not answer", nil),
		"payments": nil, "blobs": errors.New("dial tcp: connection refused")}
	s, err := readapi.NewSurface("voice", readapi.Deps{Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(),
		Health: fakeHealth{readapi.Readiness{}}, Checks: func(context.Context) map[string]error { return checks }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler)
	defer srv.Close()
	resp, raw := call(t, "GET", srv.URL+"/health/ready", "", nil)
	var body struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	_ = json.Unmarshal(raw, &body)
	if resp.StatusCode != http.StatusServiceUnavailable || body.Status != "not_ready" ||
		body.Checks["telephony"] != "circuit breaker open: sip did not answer" || body.Checks["payments"] != "ok" ||
		body.Checks["blobs"] != "unavailable" || body.Checks["database"] != "ok" || strings.Contains(string(raw), "refused") {
		t.Fatalf("ready: %d %s", resp.StatusCode, raw)
	}
	checks = map[string]error{"telephony": nil, "payments": nil, "blobs": nil}
	if resp, raw := call(t, "GET", srv.URL+"/health/ready", "", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("all healthy: %d %s", resp.StatusCode, raw)
	}
}
