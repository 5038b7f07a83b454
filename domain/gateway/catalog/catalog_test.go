package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

var t0 = time.Date(2026, 9, 2, 10, 0, 0, 0, time.UTC)

// imported folds the built-in catalog's import into a fresh state.
func imported(t *testing.T, f File) *State {
	t.Helper()
	var s State
	evs, _, err := s.Import(f, SourceImport, "test.json", t0)
	if err != nil {
		t.Fatal(err)
	}
	fold(&s, evs)
	return &s
}

func fold(s *State, evs []kernel.Event) {
	for _, e := range evs {
		s.Fold(e, s.Version+1)
	}
}

// edit returns the built-in file as a generic JSON document changed by fn.
func edit(t *testing.T, fn func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(BuiltinJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	fn(doc)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func model(doc map[string]any, id string) map[string]any {
	for _, m := range doc["models"].([]any) {
		if mm := m.(map[string]any); mm["id"] == id {
			return mm
		}
	}
	panic("no model " + id)
}

func TestBuiltinIsTheDevelopmentCatalog(t *testing.T) {
	c := imported(t, Builtin()).Snapshot()
	for _, m := range c.Models() {
		if !strings.HasPrefix(m.ID, "strata-dev-") || (m.Live() && m.Upstream.ID != "dev") {
			t.Errorf("%s: not a development model (upstream %q)", m.ID, m.Upstream.ID)
		}
	}
	for tier, want := range map[Tier]string{TierFree: "strata-dev-7b-text", TierProfessional: "strata-dev-32b-code",
		TierEnterprise: "strata-dev-32b-code"} {
		if m, ok := c.Default(tier); !ok || m.ID != want {
			t.Errorf("default of %s = %s, want %s (the seed's)", tier, m.ID, want)
		}
	}
	for id, want := range map[string]int{"strata-dev-32b-code": 32768, "strata-dev-frontier": 8192, "strata-dev-7b-text": 4096} {
		if m, _ := c.Model(id); m.MaxTokens != want {
			t.Errorf("%s max_tokens %d, want %d", id, m.MaxTokens, want)
		}
	}
	if m, _ := c.Model("strata-dev-reasoning"); m.SupportsTools {
		t.Error("the reasoning-distilled model must not support tools (the seed's prose)")
	}
	if len(c.Routers("")) != 4 || len(c.Routers(TierBasic)) != 0 {
		t.Errorf("routers: %d, below professional %d", len(c.Routers("")), len(c.Routers(TierBasic)))
	}
	if m, _ := c.Model("strata-dev-text-legacy"); m.Live() || m.ReplacedBy != "strata-dev-7b-text" {
		t.Errorf("the retired alias: %+v", m)
	}
}

func TestParseNamesTheEntryAndTheField(t *testing.T) {
	cases := []struct {
		name        string
		doc         func(doc map[string]any)
		raw         string
		field, rule string
		says        string
	}{
		{name: "max_tokens above the context window", doc: func(d map[string]any) {
			model(d, "strata-dev-32b-code")["max_tokens"] = 200000
		}, field: "models[1].max_tokens", rule: "max:131072", says: `"strata-dev-32b-code"`},
		{name: "unknown tier", doc: func(d map[string]any) { model(d, "strata-dev-frontier")["tier"] = "gold" },
			field: "models[3].tier", rule: "enum:free,basic,professional,enterprise", says: `"strata-dev-frontier"`},
		{name: "unknown field", doc: func(d map[string]any) { model(d, "strata-dev-embed")["colour"] = "red" },
			field: "models[4].colour", rule: "unknown_field"},
		{name: "wrong type", doc: func(d map[string]any) { model(d, "strata-dev-embed")["supports_tools"] = "yes" },
			field: "models[4].supports_tools", rule: "type:boolean"},
		{name: "free model with a price", doc: func(d map[string]any) {
			model(d, "strata-dev-7b-text")["pricing"] = map[string]any{"input": 0.1}
		}, field: "models[0].pricing.input", rule: "zero_when_free", says: `"strata-dev-7b-text"`},
		{name: "too many decimal places", doc: func(d map[string]any) {
			model(d, "strata-dev-32b-code")["pricing"] = map[string]any{"input": json.Number("0.0000000000001")}
		}, field: "models[1].pricing.input", rule: "decimal:0-12_places"},
		{name: "negative price", doc: func(d map[string]any) {
			model(d, "strata-dev-32b-code")["pricing"] = map[string]any{"output": -1}
		}, field: "models[1].pricing.output", rule: "decimal:0-12_places"},
		{name: "retired without replacement", doc: func(d map[string]any) {
			delete(model(d, "strata-dev-text-legacy"), "replaced_by")
		}, field: "models[5].replaced_by", rule: "required", says: `"strata-dev-text-legacy"`},
		{name: "retired replaced by a retired or unknown model", doc: func(d map[string]any) {
			model(d, "strata-dev-text-legacy")["replaced_by"] = "strata-dev-nope"
		}, field: "models[5].replaced_by", rule: "live_model"},
		{name: "replacement above the alias's tier", doc: func(d map[string]any) {
			model(d, "strata-dev-text-legacy")["replaced_by"] = "strata-dev-32b-code"
		}, field: "models[5].replaced_by", rule: "tier_not_above:free"},
		{name: "duplicate id", doc: func(d map[string]any) {
			d["models"] = append(d["models"].([]any), map[string]any{"id": "strata-dev-embed", "tier": "free",
				"status": "retired", "replaced_by": "strata-dev-7b-text"})
		}, field: "models[6].id", rule: "unique"},
		{name: "a model named like a router", doc: func(d map[string]any) { model(d, "strata-dev-embed")["id"] = "general" },
			field: "models[4].id", rule: "not_router_id"},
		{name: "live model without provider", doc: func(d map[string]any) { delete(model(d, "strata-dev-frontier"), "provider") },
			field: "models[3].provider", rule: "required"},
		{name: "router missing a task", doc: func(d map[string]any) {
			delete(d["routers"].([]any)[2].(map[string]any)["routes"].(map[string]any), "general")
		}, field: "routers[2].routes.general", rule: "required", says: `"writing"`},
		{name: "router to an embeddings model", doc: func(d map[string]any) {
			d["routers"].([]any)[0].(map[string]any)["routes"].(map[string]any)["writing"] = "strata-dev-embed"
		}, field: "routers[0].routes.writing", rule: "kind:chat"},
		{name: "default above its tier", doc: func(d map[string]any) {
			d["defaults"].(map[string]any)["free"] = "strata-dev-32b-code"
		}, field: "defaults.free", rule: "tier_not_above:free"},
		{name: "missing default", doc: func(d map[string]any) { delete(d["defaults"].(map[string]any), "basic") },
			field: "defaults.basic", rule: "required"},
		{name: "not JSON", raw: `{"models": [`, field: "file", rule: "json"},
		{name: "malformed JSON", raw: `{"models": [}`, field: "file", rule: "json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := []byte(c.raw)
			if c.doc != nil {
				raw = edit(t, c.doc)
			}
			_, err := Parse(raw)
			var ke *kernel.Error
			if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid {
				t.Fatalf("got %v, want an invalid error", err)
			}
			if ke.Field != c.field || ke.Rule != c.rule || !strings.Contains(ke.Message, c.says) {
				t.Fatalf("field %q rule %q message %q; want %q %q naming %s", ke.Field, ke.Rule, ke.Message, c.field, c.rule, c.says)
			}
		})
	}
}

func TestPricesAreExactAndCanonical(t *testing.T) {
	for in, want := range map[string]string{"0.20": "0.2", "2e-1": "0.2", "15": "15", "0": "0", "": "0", "1.000000000001": "1.000000000001"} {
		if got := canonicalPrice(json.Number(in)); string(got) != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	if _, ok := ParsePrice("1e400"); ok {
		// 1e400 is an integer: allowed, and exact.
	} else {
		t.Error("1e400 refused")
	}
	if _, ok := ParsePrice("0x10"); ok {
		t.Error("a hexadecimal price was read")
	}
}

func TestStampNeverRepeatsASecond(t *testing.T) {
	a := stamp(t0.Add(300*time.Millisecond), time.Time{})
	b := stamp(t0.Add(600*time.Millisecond), a)
	c := stamp(t0.Add(-time.Hour), b) // a clock that went back
	if !b.Truncate(time.Second).After(a.Truncate(time.Second)) || !c.Truncate(time.Second).After(b.Truncate(time.Second)) {
		t.Fatalf("stamps %v %v %v share a second", a, b, c)
	}
	if d := stamp(t0.Add(time.Hour), c); !d.Equal(t0.Add(time.Hour)) {
		t.Fatalf("a later change is stamped %v, want its own time", d)
	}
}
