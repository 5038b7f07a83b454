package audit

import (
	"net/http"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// The audit tiers, in order (the seed's tier table): Free (1 page per
// crawl, quick scan only), Pro (500 pages, full + crawl), Business
// (unlimited pages, adds benchmark), Agency (unlimited pages, white-label,
// all endpoints plus the lead API).
const (
	TierFree     = "free"
	TierPro      = "pro"
	TierBusiness = "business"
	TierAgency   = "agency"
)

var tierRank = map[string]int{TierFree: 0, TierPro: 1, TierBusiness: 2, TierAgency: 3}

var tierLabel = map[string]string{TierFree: "Free", TierPro: "Pro", TierBusiness: "Business", TierAgency: "Agency"}

// The endpoints' minimum tiers when tiers are enforced (Config.Enforce):
// scans, crawls (capped at the tier's pages) and badges for everyone;
// full reports and their unlocking from Pro; benchmarks from Business;
// the lead API for Agency. The checkout is never gated: it is how a tier
// is bought.
const (
	minQuick     = TierFree
	minFull      = TierPro
	minCrawl     = TierFree
	minBadge     = TierFree
	minBenchmark = TierBusiness
	minLeads     = TierAgency
)

// gate serves h to callers whose audit tier is at least min when tiers
// are enforced, and to everyone otherwise (the seed's "no auth": tiers
// then only cap a crawl's pages). A caller below it gets 401 with
// WWW-Authenticate when it sent no credentials, and 403 plan_required
// naming its tier when its account's plan is lower; credentials that do
// not authenticate are 401 as on every route.
func (a *API) gate(min string, h http.HandlerFunc) http.HandlerFunc {
	if !a.cfg.Enforce || min == TierFree {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		anonymous := r.Header.Get("Authorization") == "" && r.Header.Get("X-API-Key") == ""
		tier, err := a.tier(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			httpx.WriteError(w, r, err)
			return
		}
		if tierRank[tier] >= tierRank[min] {
			h(w, r)
			return
		}
		need := "this endpoint needs the audit's " + tierLabel[min] + " plan or higher"
		if anonymous {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindUnauthenticated, Code: "plan_required",
				Message: need + ": send an API key (X-API-Key) or a bearer token of an account on it"})
			return
		}
		httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindForbidden, Code: "plan_required",
			Message: need + "; the account's audit plan is " + tierLabel[tier] + " (POST " + Base + "/checkout buys one)"})
	}
}

// tier is the caller's audit tier from optional credentials (free without
// them, or without Config.Tier).
func (a *API) tier(r *http.Request) (string, error) {
	if a.cfg.Tier == nil {
		return TierFree, nil
	}
	t, err := a.cfg.Tier(r)
	if err != nil {
		return "", err
	}
	t = strings.ToLower(t)
	if _, ok := tierRank[t]; !ok {
		return TierFree, nil
	}
	return t, nil
}
