package catalog

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of an entry's fields.
const (
	MaxLabel         = 200
	MaxTags          = 32
	MaxContextWindow = 100_000_000
	MaxScore         = 1000
)

var (
	modelID    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$`)
	tagRE      = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)
	upstreamID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
)

// Validate checks a normalized file as a whole: every entry's fields, ids
// unique and not a router's, every retired alias naming a live model of
// its tier or below, every router's table and every tier's default naming
// live chat models of the router's (the default's) tier or below.
func (f File) Validate() error {
	live := map[string]Model{}
	seen := map[string]int{}
	for i, m := range f.Models {
		if err := m.validate(fmt.Sprintf("models[%d]", i)); err != nil {
			return err
		}
		if j, dup := seen[m.ID]; dup {
			return kernel.Invalid(fmt.Sprintf("models[%d].id", i), "unique",
				fmt.Sprintf("model %q is listed twice (models[%d] and models[%d])", m.ID, j, i))
		}
		seen[m.ID] = i
		if m.Live() {
			live[m.ID] = m
		}
	}
	for i, m := range f.Models {
		if m.Live() {
			continue
		}
		field := fmt.Sprintf("models[%d].replaced_by", i)
		r, ok := live[m.ReplacedBy]
		if !ok {
			return kernel.Invalid(field, "live_model",
				fmt.Sprintf("retired model %q must be replaced by a live model of the catalog; %q is not one", m.ID, m.ReplacedBy))
		}
		if !m.Tier.Allows(r.Tier) {
			return kernel.Invalid(field, "tier_not_above:"+string(m.Tier),
				fmt.Sprintf("retired model %q (tier %s) must be replaced by a model its callers may use; %q is of tier %s",
					m.ID, m.Tier, r.ID, r.Tier))
		}
	}
	if err := f.validateRouters(live); err != nil {
		return err
	}
	return f.validateDefaults(live)
}

func (m Model) validate(at string) error {
	bad := func(field, rule, format string, args ...any) error {
		return kernel.Invalid(at+"."+field, rule, fmt.Sprintf("model %q: ", m.ID)+fmt.Sprintf(format, args...))
	}
	if m.ID == "" {
		return kernel.Invalid(at+".id", "required", at+": every model needs an id")
	}
	if !modelID.MatchString(m.ID) {
		return bad("id", "pattern", "an id is 1 to 200 letters, digits and . _ : / @ + -, starting with a letter or digit")
	}
	if slices.Contains(RouterIDs(), m.ID) {
		return bad("id", "not_router_id", "%s is a router's id", m.ID)
	}
	if !m.Tier.Valid() {
		return bad("tier", "enum:free,basic,professional,enterprise", "tier must be free, basic, professional or enterprise")
	}
	if !slices.Contains(Kinds(), m.Kind) {
		return bad("kind", "enum:"+strings.Join(Kinds(), ","), "kind must be one of %s", strings.Join(Kinds(), ", "))
	}
	switch m.Status {
	case StatusLive:
		if m.ReplacedBy != "" {
			return bad("replaced_by", "only_retired", "only a retired model has replaced_by")
		}
	case StatusRetired:
		if m.ReplacedBy == "" {
			return bad("replaced_by", "required", "a retired model must name the live model that replaces it")
		}
		if m.ReplacedBy == m.ID {
			return bad("replaced_by", "not_itself", "a retired model cannot replace itself")
		}
	default:
		return bad("status", "enum:live,retired", "status must be live or retired")
	}
	if err := m.validateText(bad); err != nil {
		return err
	}
	if err := m.validateNumbers(bad); err != nil {
		return err
	}
	return m.validatePricing(bad)
}

type refusal func(field, rule, format string, args ...any) error

func (m Model) validateText(bad refusal) error {
	if m.Live() {
		if strings.TrimSpace(m.Provider) == "" {
			return bad("provider", "required", "provider is required")
		}
		if strings.TrimSpace(m.Label) == "" {
			return bad("label", "required", "label is required")
		}
		if m.Upstream.ID == "" {
			return bad("upstream.id", "required", "upstream.id names the upstream that serves the model")
		}
	}
	if utf8.RuneCountInString(m.Provider) > MaxLabel || utf8.RuneCountInString(m.Label) > MaxLabel {
		return bad("label", fmt.Sprintf("max_length:%d", MaxLabel), "provider and label are at most %d characters", MaxLabel)
	}
	if m.Upstream.ID != "" && !upstreamID.MatchString(m.Upstream.ID) {
		return bad("upstream.id", "pattern", "upstream.id is lower-case letters, digits, _ and -")
	}
	if utf8.RuneCountInString(m.Upstream.Model) > 200 {
		return bad("upstream.model", "max_length:200", "upstream.model is at most 200 characters")
	}
	if len(m.Tags) > MaxTags {
		return bad("tags", fmt.Sprintf("max_items:%d", MaxTags), "at most %d tags", MaxTags)
	}
	for i, t := range m.Tags {
		if !tagRE.MatchString(t) {
			return bad(fmt.Sprintf("tags[%d]", i), "pattern", "tag %q must be lower-case letters, digits and -", t)
		}
		if slices.Index(m.Tags, t) != i {
			return bad(fmt.Sprintf("tags[%d]", i), "unique", "tag %q is listed twice", t)
		}
	}
	return nil
}

func (m Model) validateNumbers(bad refusal) error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"intelligence", m.Capabilities.Intelligence}, {"speed", m.Capabilities.Speed}, {"cost", m.Capabilities.Cost}} {
		name, v := c.name, c.v
		if v < 0 || v > MaxScore {
			return bad("capabilities."+name, fmt.Sprintf("range:0-%d", MaxScore), "capabilities.%s must be from 0 to %d", name, MaxScore)
		}
	}
	if m.ContextWindow < 0 || m.ContextWindow > MaxContextWindow {
		return bad("context_window", fmt.Sprintf("range:1-%d", MaxContextWindow), "context_window must be from 1 to %d", MaxContextWindow)
	}
	if m.Live() && (m.Kind == KindChat || m.Kind == KindEmbeddings) && m.ContextWindow == 0 {
		return bad("context_window", "required", "a %s model needs its context_window", m.Kind)
	}
	if m.MaxTokens < 0 {
		return bad("max_tokens", "min:1", "max_tokens must be positive")
	}
	if m.MaxTokens > 0 && m.Kind != KindChat {
		return bad("max_tokens", "chat_only", "max_tokens is the ceiling of a chat model's replies; a %s model has none", m.Kind)
	}
	if m.ContextWindow > 0 && m.MaxTokens > m.ContextWindow {
		return bad("max_tokens", fmt.Sprintf("max:%d", m.ContextWindow), "max_tokens %d exceeds the context_window %d",
			m.MaxTokens, m.ContextWindow)
	}
	return nil
}

func (m Model) validatePricing(bad refusal) error {
	for _, p := range []struct {
		name string
		v    json.Number
	}{{"input", m.Pricing.Input}, {"output", m.Pricing.Output}, {"cache_read", m.Pricing.CacheRead}} {
		r, ok := ParsePrice(p.v)
		if !ok {
			return bad("pricing."+p.name, fmt.Sprintf("decimal:0-%d_places", MaxPricePlaces),
				"pricing.%s must be a non-negative number with at most %d decimal places", p.name, MaxPricePlaces)
		}
		if m.Free && r.Sign() != 0 {
			return bad("pricing."+p.name, "zero_when_free", "a free model has no per-token cost: pricing.%s must be 0", p.name)
		}
	}
	return nil
}

func (f File) validateRouters(live map[string]Model) error {
	seen := map[string]bool{}
	for i, r := range f.Routers {
		at := fmt.Sprintf("routers[%d]", i)
		if !slices.Contains(RouterIDs(), r.ID) {
			return kernel.Invalid(at+".id", "enum:"+strings.Join(RouterIDs(), ","),
				fmt.Sprintf("router %q: a router id is one of %s", r.ID, strings.Join(RouterIDs(), ", ")))
		}
		if seen[r.ID] {
			return kernel.Invalid(at+".id", "unique", fmt.Sprintf("router %q is listed twice", r.ID))
		}
		seen[r.ID] = true
		if !r.Tier.Valid() {
			return kernel.Invalid(at+".tier", "enum:free,basic,professional,enterprise",
				fmt.Sprintf("router %q: tier must be free, basic, professional or enterprise", r.ID))
		}
		for task := range r.Routes {
			if !slices.Contains(Tasks(), task) {
				return kernel.Invalid(at+".routes."+task, "enum:"+strings.Join(Tasks(), ","),
					fmt.Sprintf("router %q: %q is not a task type (%s)", r.ID, task, strings.Join(Tasks(), ", ")))
			}
		}
		for _, task := range Tasks() {
			field := at + ".routes." + task
			id, ok := r.Routes[task]
			if !ok {
				return kernel.Invalid(field, "required", fmt.Sprintf("router %q needs a model for every task type; %s is missing", r.ID, task))
			}
			if err := usable(field, fmt.Sprintf("router %q routes %s to", r.ID, task), live, id, r.Tier); err != nil {
				return err
			}
		}
	}
	return nil
}

func (f File) validateDefaults(live map[string]Model) error {
	for t := range f.Defaults {
		if !t.Valid() {
			return kernel.Invalid("defaults."+string(t), "enum:free,basic,professional,enterprise",
				fmt.Sprintf("defaults: %q is not a tier", t))
		}
	}
	for _, t := range Tiers() {
		id, ok := f.Defaults[t]
		if !ok {
			return kernel.Invalid("defaults."+string(t), "required", fmt.Sprintf("defaults: every tier needs a default model; %s has none", t))
		}
		if err := usable("defaults."+string(t), fmt.Sprintf("the default model of tier %s,", t), live, id, t); err != nil {
			return err
		}
	}
	return nil
}

// usable checks that id names a live chat model of tier t or below.
func usable(field, what string, live map[string]Model, id string, t Tier) error {
	m, ok := live[id]
	if !ok {
		return kernel.Invalid(field, "live_model", fmt.Sprintf("%s %q, which is not a live model of the catalog", what, id))
	}
	if m.Kind != KindChat {
		return kernel.Invalid(field, "kind:chat", fmt.Sprintf("%s %q, a %s model; it must be a chat model", what, id, m.Kind))
	}
	if !t.Allows(m.Tier) {
		return kernel.Invalid(field, "tier_not_above:"+string(t),
			fmt.Sprintf("%s %q of tier %s, above %s", what, id, m.Tier, t))
	}
	return nil
}
