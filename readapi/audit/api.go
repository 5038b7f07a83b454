// Package audit serves the agent-readiness audit on the platform API,
// under /api/v1/public/ax-audit, without authentication (unless the tiers
// are enforced: Config.Enforce) and rate limited
// per client address by the platform's shared limiter (so the limits hold
// across processes): scans, stored reports and their unlocking, leads,
// benchmarks from stored scans, and the badge.
package audit

import (
	stdsql "database/sql"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Limits per client address and minute (the seed's; leads are "public but
// rate limited": ours).
const (
	QuickPerMinute = 60
	FullPerMinute  = 20
	BadgePerMinute = 120
	LeadsPerMinute = 20
	ReadsPerMinute = 120
)

// Config is what Routes needs.
type Config struct {
	Service *cmd.Service
	DB      *stdsql.DB
	Limiter *ratelimit.Limiter
	// Tier is the caller's audit tier (free, pro, business, agency) from
	// optional credentials; nil: free. Wrong credentials are an error.
	Tier func(r *http.Request) (string, error)
	// Enforce makes the tier table gate the endpoints (see gate);
	// otherwise every endpoint is public and tiers only cap a crawl's
	// pages (STRATA_AUDIT_TIERS: open or enforced).
	Enforce bool
}

// API is the audit's HTTP layer.
type API struct {
	cfg Config
	svc *cmd.Service
}

// Base is the audit's base path.
const Base = "/api/v1/public/ax-audit"

// Routes adds the audit routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) *API {
	a := &API{cfg: cfg, svc: cfg.Service}
	r.Handle(Base, a.limited("audit.quick", QuickPerMinute, a.gate(minQuick, a.quick))).Methods(http.MethodPost)
	r.Handle(Base+"/full", a.limited("audit.full", FullPerMinute, a.gate(minFull, a.full))).Methods(http.MethodPost)
	r.Handle(Base+"/reports/{report_id}", a.limited("audit.reads", ReadsPerMinute, a.gate(minFull, a.report))).Methods(http.MethodGet)
	r.Handle(Base+"/unlock", a.limited("audit.leads", LeadsPerMinute, a.gate(minFull, a.unlock))).Methods(http.MethodPost)
	r.Handle(Base+"/leads", a.limited("audit.leads", LeadsPerMinute, a.gate(minLeads, a.leads))).Methods(http.MethodPost)
	r.Handle(Base+"/benchmark", a.limited("audit.reads", ReadsPerMinute, a.gate(minBenchmark, a.industries))).Methods(http.MethodGet)
	r.Handle(Base+"/benchmark/{industry}", a.limited("audit.reads", ReadsPerMinute, a.gate(minBenchmark, a.benchmark))).Methods(http.MethodGet)
	r.Handle(Base+"/benchmark/{industry}/percentile", a.limited("audit.reads", ReadsPerMinute,
		a.gate(minBenchmark, a.percentile))).Methods(http.MethodGet)
	r.Handle(Base+"/badge", a.limited("audit.badge", BadgePerMinute, a.gate(minBadge, a.badge().ServeHTTP))).Methods(http.MethodGet)
	a.crawlRoutes(r)
	return a
}

// limited counts the request against the client address's budget of
// scope, with the X-RateLimit headers; over it, 429 with Retry-After.
func (a *API) limited(scope string, perMinute int, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.cfg.Limiter != nil {
			d, err := a.cfg.Limiter.Take(r.Context(), scope+":"+clientAddr(r), perMinute)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			d.Headers(w)
			if !d.Allowed {
				httpx.WriteError(w, r, httpx.RateLimited("rate limit exceeded: "+strconv.Itoa(perMinute)+" requests a minute per client address", d.RetryAfter))
				return
			}
		}
		h(w, r)
	})
}

// clientAddr is the request's peer address (the load balancer's own
// address when one is in front: configure it to limit by the client).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return strings.TrimSpace(r.RemoteAddr)
	}
	return host
}
