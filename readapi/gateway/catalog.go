// Package gateway serves the inference gateway on the platform API. The
// model catalog's part (catalog*.go): GET /v1/public/models (every live
// model and router), GET /v1/public/models/available (those of the
// caller's tier, with its default model), POST /v1/public/models/resolve
// (which model a request would be served by, beyond the seed), and
// CatalogAPI.Resolve, which the chat routes call with every request.
// Every route takes X-API-Key (or a bearer key or session JWT); a model
// vendor's key (sk-ant-...) is refused with 401 naming the sk_ key to use.
package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/plans"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Plans is what the catalog needs of the platform's plans: the plan that
// applies to an account in a product line (projections/accounts.Directory).
type Plans interface {
	Plan(accountID, line string) (plans.State, plans.Plan, bool)
}

// CatalogConfig is what the catalog's routes need.
type CatalogConfig struct {
	View  *projgateway.CatalogView
	Auth  auth.Authenticator
	Plans Plans
}

// CatalogAPI is the catalog's HTTP layer and the gateway's resolver.
type CatalogAPI struct {
	view  *projgateway.CatalogView
	auth  auth.Authenticator
	plans Plans
}

// NewCatalog returns the catalog's HTTP layer.
func NewCatalog(cfg CatalogConfig) *CatalogAPI {
	return &CatalogAPI{view: cfg.View, auth: cfg.Auth, plans: cfg.Plans}
}

// Access is a caller's standing in the catalog.
type Access struct {
	Tier         catalog.Tier
	PlatformPlan string    // the platform line's plan that applies
	GatewayPlan  string    // the gateway line's plan that applies
	Since        time.Time // when the later of the two last changed (zero: never)
}

// Access returns the catalog tier of the principal's account, from the
// plans that apply to it in the platform and gateway lines
// (catalog.TierOf, the one plan mapping).
func (a *CatalogAPI) Access(p auth.Principal) Access {
	ps, pp, _ := a.plans.Plan(p.UserID, plans.LinePlatform)
	gs, gp, _ := a.plans.Plan(p.UserID, plans.LineGateway)
	since := ps.Since
	if gs.Since.After(since) {
		since = gs.Since
	}
	return Access{Tier: catalog.TierOf(pp.ID, gp.ID), PlatformPlan: pp.ID, GatewayPlan: gp.ID, Since: since}
}

// Resolve is what the gateway's chat routes call with each request: the
// model to call for the principal's request naming model (a model id, a
// router id, or "" for the default of the caller's tier), or a refusal
// (catalog.Catalog.Resolve) carrying its problem-details members (model,
// replaced_by, required_tier, tier) for httpx.WriteError.
func (a *CatalogAPI) Resolve(p auth.Principal, model string, f catalog.Features) (catalog.Resolution, error) {
	acc := a.Access(p)
	res, err := a.view.Catalog().Resolve(model, acc.Tier, f)
	if err != nil {
		return res, RefusalMembers(err)
	}
	return res, nil
}

// RefusalMembers adds a catalog refusal's facts to its error body as
// extension members: model, and replaced_by (model_deprecated) or
// required_tier and tier (tier_required). Other errors are returned as
// they are.
func RefusalMembers(err error) error {
	var ref *catalog.Refusal
	if !errors.As(err, &ref) {
		return err
	}
	m := map[string]any{"model": ref.Model}
	if ref.ReplacedBy != "" {
		m["replaced_by"] = ref.ReplacedBy
	}
	if ref.RequiredTier != "" {
		m["required_tier"], m["tier"] = ref.RequiredTier, ref.CallerTier
	}
	return httpx.WithMembers(err, m)
}

// Entry is a model as the catalog routes show it: the seed's fields, then
// the gateway's (kind, max_tokens, supports_tools, supports_images, free).
// Where a model is served upstream is not shown.
type Entry struct {
	ID             string               `json:"id"`
	Provider       string               `json:"provider"`
	Label          string               `json:"label"`
	Capabilities   catalog.Capabilities `json:"capabilities"`
	ContextWindow  int                  `json:"context_window"`
	Tags           []string             `json:"tags"`
	Tier           catalog.Tier         `json:"tier"`
	Pricing        catalog.Pricing      `json:"pricing"`
	Kind           string               `json:"kind"`
	MaxTokens      int                  `json:"max_tokens,omitempty"`
	SupportsTools  bool                 `json:"supports_tools"`
	SupportsImages bool                 `json:"supports_images"`
	Free           bool                 `json:"free"`
}

// EntryOf is a model's public entry.
func EntryOf(m catalog.Model) Entry {
	tags := m.Tags
	if tags == nil {
		tags = []string{}
	}
	return Entry{ID: m.ID, Provider: m.Provider, Label: m.Label, Capabilities: m.Capabilities, ContextWindow: m.ContextWindow,
		Tags: tags, Tier: m.Tier, Pricing: m.Pricing, Kind: m.Kind, MaxTokens: m.MaxTokens, SupportsTools: m.SupportsTools,
		SupportsImages: m.SupportsImages, Free: m.Free}
}

// routerEntry is a smart router as the listing shows it (beyond the seed's
// models[]): its id, its tier, and the model of each task type.
type routerEntry struct {
	ID     string            `json:"id"`
	Label  string            `json:"label,omitempty"`
	Tier   catalog.Tier      `json:"tier"`
	Routes map[string]string `json:"routes"`
}

type listing struct {
	OK           bool          `json:"ok"`
	Tier         catalog.Tier  `json:"tier,omitempty"`
	DefaultModel string        `json:"default_model,omitempty"`
	Models       []Entry       `json:"models"`
	Routers      []routerEntry `json:"routers"`
}

func listed(c *catalog.Catalog, up catalog.Tier) listing {
	l := listing{OK: true, Models: []Entry{}, Routers: []routerEntry{}}
	for _, m := range c.Listed(up) {
		l.Models = append(l.Models, EntryOf(m))
	}
	for _, r := range c.Routers(up) {
		l.Routers = append(l.Routers, routerEntry{ID: r.ID, Label: r.Label, Tier: r.Tier, Routes: r.Routes})
	}
	return l
}

// list answers GET /v1/public/models: every live model and router.
func (a *CatalogAPI) list(w http.ResponseWriter, r *http.Request, _ auth.Principal) {
	c := a.view.Catalog()
	serveCached(w, r, listed(c, ""), etag(c, ""), c.Modified)
}

// available answers GET /v1/public/models/available: the models and
// routers of the caller's tier, the tier and its default model. The body
// depends on the caller's plans too: the ETag names the tier, and
// Last-Modified is the later of the catalog's and the plans' last change.
func (a *CatalogAPI) available(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	c := a.view.Catalog()
	acc := a.Access(p)
	l := listed(c, acc.Tier)
	l.Tier = acc.Tier
	if m, ok := c.Default(acc.Tier); ok {
		l.DefaultModel = m.ID
	}
	mod := c.Modified
	if acc.Since.After(mod) {
		mod = acc.Since
	}
	serveCached(w, r, l, etag(c, acc.Tier), mod)
}

// etag is the strong validator of a listing: the catalog's content hash
// (and the tier, for /available, whose body depends on it).
func etag(c *catalog.Catalog, tier catalog.Tier) string {
	tag := c.Hash[:32]
	if tier != "" {
		tag += "-" + string(tier)
	}
	return `"` + tag + `"`
}

// serveCached writes v as JSON with its validators and answers conditional
// requests by RFC 9110 through net/http's ServeContent: If-None-Match
// (weak comparison) wins over If-Modified-Since, and either gives 304 Not
// Modified when the representation has not changed. Clients may keep the
// listing but must revalidate it (Cache-Control: private, no-cache), and
// it varies with the credential.
func serveCached(w http.ResponseWriter, r *http.Request, v any, tag string, mod time.Time) {
	raw, err := json.Marshal(v)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("ETag", tag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Vary", "Authorization, X-API-Key")
	http.ServeContent(w, r, "", mod, bytes.NewReader(append(raw, '\n')))
}
