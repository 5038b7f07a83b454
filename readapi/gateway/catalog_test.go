package gateway_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/plans"
)

// The listing has every live model with the seed's fields and the routers;
// it carries a strong ETag and Last-Modified, and answers 304 to
// If-None-Match (weak comparison, winning over If-Modified-Since) and to
// If-Modified-Since, until the catalog changes.
func TestModelsListingAndConditionalRequests(t *testing.T) {
	t.Parallel()
	w := start(t)
	u := w.register()
	r := w.call("GET", "/v1/public/models", nil, "X-API-Key", u.Key)
	if r.status != http.StatusOK || r.body["ok"] != true {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	got := ids(r.body, "models")
	want := []string{"strata-dev-7b-text", "strata-dev-embed", "strata-dev-frontier", "strata-dev-reasoning", "strata-dev-32b-code"}
	if !slices.Equal(got, want) {
		t.Fatalf("models %v, want %v (live only, by tier then id)", got, want)
	}
	if got := ids(r.body, "routers"); !slices.Equal(got, []string{"general", "knowledge-base", "software-engineering", "writing"}) {
		t.Fatalf("routers %v", got)
	}
	code := r.body["models"].([]any)[4].(map[string]any)
	for _, f := range []string{"id", "provider", "label", "capabilities", "context_window", "tags", "tier", "pricing",
		"max_tokens", "supports_tools", "supports_images", "kind", "free"} {
		if _, ok := code[f]; !ok {
			t.Errorf("entry lacks %s: %v", f, code)
		}
	}
	if _, ok := code["upstream"]; ok {
		t.Error("the listing shows where a model is served")
	}
	if p := code["pricing"].(map[string]any); p["input"] != 0.2 || p["cache_read"] != 0.05 {
		t.Errorf("pricing %v", p)
	}
	if code["max_tokens"] != float64(32768) || code["supports_tools"] != true {
		t.Errorf("the 32B code model: %v", code)
	}
	etag, lastMod := r.header.Get("ETag"), r.header.Get("Last-Modified")
	if !strings.HasPrefix(etag, `"`) || len(etag) != 34 || lastMod == "" || r.header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("validators: ETag %q Last-Modified %q Cache-Control %q", etag, lastMod, r.header.Get("Cache-Control"))
	}
	// A bearer JWT sees the same representation.
	if b := w.call("GET", "/v1/public/models", nil, "Authorization", "Bearer "+u.Bearer); b.status != 200 || b.header.Get("ETag") != etag {
		t.Fatalf("bearer: %d %q", b.status, b.header.Get("ETag"))
	}

	older := w.api.Clock.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	for _, c := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"If-None-Match", []string{"If-None-Match", etag}, 304},
		{"If-None-Match weak", []string{"If-None-Match", "W/" + etag}, 304},
		{"If-None-Match list", []string{"If-None-Match", `"other", ` + etag}, 304},
		{"If-None-Match star", []string{"If-None-Match", "*"}, 304},
		{"If-None-Match other", []string{"If-None-Match", `"other"`}, 200},
		{"If-Modified-Since", []string{"If-Modified-Since", lastMod}, 304},
		{"If-Modified-Since older", []string{"If-Modified-Since", older}, 200},
		{"If-None-Match wins (no match)", []string{"If-None-Match", `"other"`, "If-Modified-Since", lastMod}, 200},
		{"If-None-Match wins (match)", []string{"If-None-Match", etag, "If-Modified-Since", older}, 304},
	} {
		r := w.call("GET", "/v1/public/models", nil, append([]string{"X-API-Key", u.Key}, c.headers...)...)
		if r.status != c.want {
			t.Errorf("%s: %d, want %d", c.name, r.status, c.want)
		}
		if r.status == 304 && (len(r.raw) != 0 || r.header.Get("ETag") != etag) {
			t.Errorf("%s: 304 with body %q, ETag %q", c.name, r.raw, r.header.Get("ETag"))
		}
	}
	if h := w.call("HEAD", "/v1/public/models", nil, "X-API-Key", u.Key, "If-None-Match", etag); h.status != 304 {
		t.Errorf("HEAD with If-None-Match: %d", h.status)
	}

	// The catalog changes: the old validators no longer match.
	w.upsert(catalog.Model{ID: "strata-dev-new", Provider: "strata-dev", Label: "New", Tier: catalog.TierFree,
		ContextWindow: 8192, Upstream: catalog.Upstream{ID: "dev"}})
	r = w.call("GET", "/v1/public/models", nil, "X-API-Key", u.Key, "If-None-Match", etag)
	if r.status != 200 || r.header.Get("ETag") == etag || !slices.Contains(ids(r.body, "models"), "strata-dev-new") {
		t.Fatalf("after a change, If-None-Match: %d %q %v", r.status, r.header.Get("ETag"), ids(r.body, "models"))
	}
	if r := w.call("GET", "/v1/public/models", nil, "X-API-Key", u.Key, "If-Modified-Since", lastMod); r.status != 200 {
		t.Fatalf("after a change, If-Modified-Since: %d", r.status)
	}
}

// /available lists what the caller's plans give: the tier comes from the
// platform and gateway plans set through the plans service, with the
// tier's default model; its validators follow the plans too.
func TestAvailableFollowsThePlans(t *testing.T) {
	t.Parallel()
	w := start(t)
	u := w.register()
	get := func(headers ...string) reply {
		return w.call("GET", "/v1/public/models/available", nil, append([]string{"X-API-Key", u.Key}, headers...)...)
	}
	r := get()
	if r.status != 200 || r.body["tier"] != "free" || r.body["default_model"] != "strata-dev-7b-text" ||
		!slices.Equal(ids(r.body, "models"), []string{"strata-dev-7b-text", "strata-dev-embed"}) || len(ids(r.body, "routers")) != 0 {
		t.Fatalf("a new account: %d %s", r.status, r.raw)
	}
	freeTag, freeMod := r.header.Get("ETag"), r.header.Get("Last-Modified")
	if get("If-None-Match", freeTag).status != 304 || get("If-Modified-Since", freeMod).status != 304 {
		t.Fatal("an unchanged listing was sent again")
	}

	w.api.Clock.Advance(time.Minute)
	w.setPlan(u, plans.LinePlatform, "basic")
	r = get("If-None-Match", freeTag)
	if r.status != 200 || r.body["tier"] != "basic" || r.body["default_model"] != "strata-dev-7b-text" ||
		!slices.Equal(ids(r.body, "models"), []string{"strata-dev-7b-text", "strata-dev-embed", "strata-dev-frontier", "strata-dev-reasoning"}) {
		t.Fatalf("on basic: %d %s", r.status, r.raw)
	}
	if get("If-Modified-Since", freeMod).status != 200 {
		t.Fatal("a plan change left Last-Modified behind")
	}

	w.api.Clock.Advance(time.Minute)
	w.setPlan(u, plans.LineGateway, "pro") // gateway Pro gives the professional tier
	r = get()
	if r.body["tier"] != "professional" || r.body["default_model"] != "strata-dev-32b-code" ||
		!slices.Contains(ids(r.body, "models"), "strata-dev-32b-code") || len(ids(r.body, "routers")) != 4 {
		t.Fatalf("on gateway pro: %s", r.raw)
	}
	w.setPlan(u, plans.LineGateway, "starter")
	if r := get(); r.body["tier"] != "basic" {
		t.Fatalf("back on starter, the platform plan's tier applies: %s", r.raw)
	}
}

// Resolve refuses what the seed says to refuse, in problem details naming
// the field and the code: a retired alias (model_deprecated naming its
// live replacement), tools to a model without tool support, a model or a
// router above the caller's tier, an unknown model.
func TestResolveRefusals(t *testing.T) {
	t.Parallel()
	w := start(t)
	u := w.register()
	w.setPlan(u, plans.LinePlatform, "basic")
	resolve := func(body map[string]any) reply {
		return w.call("POST", "/v1/public/models/resolve", body, "X-API-Key", u.Key)
	}
	r := resolve(map[string]any{"model": "strata-dev-text-legacy"})
	w.refused(r, 400, "model", "model_deprecated")
	if r.body["replaced_by"] != "strata-dev-7b-text" || !strings.Contains(r.body["detail"].(string), `use "strata-dev-7b-text"`) {
		t.Fatalf("model_deprecated without its replacement: %s", r.raw)
	}
	r = resolve(map[string]any{"model": "strata-dev-reasoning", "tools": 2})
	w.refused(r, 400, "tools", "tools_unsupported")
	if !strings.Contains(r.body["detail"].(string), "does not support tool calling") {
		t.Fatalf("tools refusal: %s", r.raw)
	}
	if r := resolve(map[string]any{"model": "strata-dev-frontier", "tools": 2}); r.status != 200 ||
		r.body["model"].(map[string]any)["id"] != "strata-dev-frontier" || r.body["max_tokens"] != float64(4096) {
		t.Fatalf("tools to a model with tools: %d %s", r.status, r.raw)
	}
	r = resolve(map[string]any{"model": "strata-dev-32b-code"})
	w.refused(r, 403, "model", "tier_required")
	if r.body["required_tier"] != "professional" || r.body["tier"] != "basic" {
		t.Fatalf("tier refusal: %s", r.raw)
	}
	w.refused(resolve(map[string]any{"model": "software-engineering", "text": "fix my Go function"}), 403, "model", "tier_required")
	w.refused(resolve(map[string]any{"model": "no-such-model"}), 404, "model", "model_not_found")
	w.refused(resolve(map[string]any{"model": "strata-dev-frontier", "max_tokens": 8193}), 400, "max_tokens", "max:8192")

	w.setPlan(u, plans.LineGateway, "business")
	r = resolve(map[string]any{"model": "software-engineering", "text": "```go\nfunc main() {}\n```"})
	if r.status != 200 || r.body["router"] != "software-engineering" || r.body["task"] != "software-engineering" ||
		r.body["rule"] != "code_block" || r.body["model"].(map[string]any)["id"] != "strata-dev-32b-code" {
		t.Fatalf("a router: %d %s", r.status, r.raw)
	}
	if r := resolve(map[string]any{"model": ""}); r.body["model"].(map[string]any)["id"] != "strata-dev-32b-code" || r.body["rule"] != "default" {
		t.Fatalf("the default of enterprise: %s", r.raw)
	}
}

// A model vendor's key gets 401 telling the caller to use an sk_ key;
// no credentials get the platform's 401.
func TestVendorKeysAreRefused(t *testing.T) {
	t.Parallel()
	w := start(t)
	for _, headers := range [][]string{
		{"X-API-Key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"},
		{"x-api-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"},
		{"Authorization", "Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz"},
	} {
		for _, path := range []string{"/v1/public/models", "/v1/public/models/available"} {
			r := w.call("GET", path, nil, headers...)
			w.refused(r, 401, "X-API-Key", "sk_key")
			if !strings.Contains(r.body["detail"].(string), "sk_live_") || r.header.Get("WWW-Authenticate") == "" {
				t.Fatalf("%v on %s: %s", headers, path, r.raw)
			}
		}
	}
	if r := w.call("GET", "/v1/public/models", nil); r.status != 401 {
		t.Fatalf("no credentials: %d", r.status)
	}
	if r := w.call("GET", "/v1/public/models", nil, "X-API-Key", "sk_live_notakeyatallnotakeyatallnotakeyatallxx"); r.status != 401 {
		t.Fatalf("a bad key: %d", r.status)
	}
}

// Every plan of the platform and gateway lines has its tier in the one
// mapping (so a plan added to domain/plans cannot silently give free).
func TestEveryPlanHasATier(t *testing.T) {
	mapped := map[string]bool{}
	for _, pt := range catalog.PlanTiers() {
		mapped[pt.Line+"/"+pt.Plan] = true
	}
	for _, line := range []string{plans.LinePlatform, plans.LineGateway} {
		l, _ := plans.FindLine(line)
		for _, p := range l.Plans {
			if !mapped[line+"/"+p.ID] {
				t.Errorf("plan %s of %s has no catalog tier in catalog.PlanTiers", p.ID, line)
			}
		}
	}
}
