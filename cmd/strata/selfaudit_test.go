package main

import (
	"context"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/mux"

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/discovery"
	"github.com/strata-platform/strata/readapi/openapitest"
)

// TestSelfAudit: Strata passes its own agent-readiness audit. `strata
// serve --surfaces api` with the production wiring is scanned on loopback
// by the audit's scanner, as any site would be, and must grade A+ (at
// least 95 of 100). Every sub-point that did not earn its full points is
// logged with its evidence and fix. The platform API's OpenAPI description
// must also name exactly the routes the production wiring serves there.
func TestSelfAudit(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_API_ADDR": addr, "STRATA_ADMIN_ADDR": freeAddr(t)}
	var mu sync.Mutex
	var apiRouter *mux.Router
	w := productionWiring
	w.Routes = func(surface string, r *mux.Router, app *App) {
		productionWiring.Routes(surface, r, app)
		if surface == "api" {
			mu.Lock()
			apiRouter = r
			mu.Unlock()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	logs := &syncBuffer{}
	go func() { done <- run(ctx, []string{"serve", "--surfaces", "api"}, env, logs, logs, w) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("serve logged:\n%s", logs.String())
		}
	})
	api := "http://" + addr
	waitFor(t, func() bool { return healthy(api) })

	scanner := cmdaudit.NewScanner(cmdaudit.ScannerConfig{Client: outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: []string{addr}}})})
	target, err := scanner.Target(ctx, api+"/")
	if err != nil {
		t.Fatal(err)
	}
	scan, snap, requests, err := scanner.Scan(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("self-audit of %s: %d/%d, grade %s (%d requests; description from %s)", api, scan.Score, scan.MaxScore, scan.Grade, requests, snap.OpenAPISource)
	for _, c := range scan.Checks {
		t.Logf("  %-24s %2d/%2d", c.Name, c.Score, c.MaxScore)
		for _, f := range c.Findings {
			if f.Earned < f.Points {
				t.Logf("    %s: %d/%d\n      evidence: %s\n      fix: %s", f.ID, f.Earned, f.Points, f.Evidence, f.Fix)
			}
		}
	}
	if scan.Score < 95 || scan.Grade != "A+" {
		t.Fatalf("Strata scores %d (%s) on its own audit; issue 26 wants at least 95 (A+)", scan.Score, scan.Grade)
	}
	if snap.OpenAPISource != "link-header" {
		t.Errorf("the description was found through %s, want the home page's Link header", snap.OpenAPISource)
	}

	// The probes the scanner made, as an agent would meet them.
	if r := snap.Unauthenticated; r == nil || r.Status != http.StatusUnauthorized ||
		!strings.HasPrefix(r.Header.Get("WWW-Authenticate"), `Bearer realm="strata"`) ||
		r.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("unauthenticated probe: %+v", r)
	}
	if r := snap.NotFound; r == nil || r.Status != http.StatusNotFound || r.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("not-found probe: %+v", r)
	}
	if r := snap.WrongMethod; r == nil || r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") == "" {
		t.Errorf("wrong-method probe: %+v", r)
	}

	// The description names exactly the routes served.
	mu.Lock()
	r := apiRouter
	mu.Unlock()
	routed, unmethoded := apiRoutes(t, r)
	t.Logf("routes without methods, not documented (planned, answer 404): %v", unmethoded)
	openapitest.RoutesMatch(t, openapitest.Load(t, discovery.Spec()), routed)

	// The description served is the one checked.
	resp, err := http.Get(api + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != string(discovery.Spec()) {
		t.Error("/openapi.json is not discovery.Spec()")
	}
}

// apiRoutes lists the router's routes as "METHOD /template", leaving out
// the home page (GET and HEAD /: a page, not an operation; documenting it
// would make the audit's Accept: JSON probe read the home page) and
// listing apart the routes that take every method (the briefing's planned
// public routes, which answer 404 until released). A path-prefix route is
// documented with a {resource_path} parameter.
func apiRoutes(t *testing.T, r *mux.Router) (routed, unmethoded []string) {
	t.Helper()
	err := r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if route.GetHandler() == nil {
			return nil
		}
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return err
		}
		if re, err := route.GetPathRegexp(); err == nil && !strings.HasSuffix(re, "$") {
			tpl += "{resource_path}"
		}
		methods, err := route.GetMethods()
		if err != nil {
			unmethoded = append(unmethoded, tpl)
			return nil
		}
		for _, m := range methods {
			if tpl == discovery.PathHome {
				continue
			}
			routed = append(routed, m+" "+tpl)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(unmethoded)
	return routed, unmethoded
}
