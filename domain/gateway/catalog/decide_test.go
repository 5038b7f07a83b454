package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

func types(evs []kernel.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventType())
	}
	return out
}

func mustParse(t *testing.T, raw []byte) File {
	t.Helper()
	f, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestImportDecisions(t *testing.T) {
	var s State
	evs, res, err := s.Import(Builtin(), SourceImport, "catalog.json", t0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Builtin().Models); len(evs) != n+1 || len(res.Added) != n || res.Version != int64(n+1) {
		t.Fatalf("first import: %v, result %+v", types(evs), res)
	}
	imp := evs[len(evs)-1].(*Imported)
	if imp.Version != res.Version || imp.Hash != Builtin().Hash() || len(imp.Routers) != 4 || imp.Defaults[TierFree] == "" {
		t.Fatalf("imported event %+v", imp)
	}
	fold(&s, evs)
	if s.Version != res.Version || s.Hash() != res.Hash {
		t.Fatalf("state after import: version %d hash %s, result %+v", s.Version, s.Hash(), res)
	}

	// The same content again, in another order and layout: nothing.
	reordered := edit(t, func(d map[string]any) {
		ms := d["models"].([]any)
		slices.Reverse(ms)
	})
	if evs, res, err := s.Import(mustParse(t, reordered), SourceImport, "again.json", t0.Add(time.Hour)); err != nil || len(evs) != 0 ||
		!res.Unchanged || res.Version != s.Version {
		t.Fatalf("same catalog again: %v %+v %v", types(evs), res, err)
	}

	// A changed model, a retired one, a new router table.
	changed := edit(t, func(d map[string]any) {
		model(d, "strata-dev-32b-code")["context_window"] = 262144
		model(d, "strata-dev-reasoning")["status"] = "retired"
		model(d, "strata-dev-reasoning")["replaced_by"] = "strata-dev-frontier"
		d["routers"].([]any)[1].(map[string]any)["routes"].(map[string]any)["general"] = "strata-dev-frontier"
	})
	evs, res, err = s.Import(mustParse(t, changed), SourceImport, "changed.json", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := types(evs); !slices.Equal(got, []string{"catalog.model_upserted", "catalog.model_retired", "catalog.imported"}) ||
		!slices.Equal(res.Changed, []string{"strata-dev-32b-code"}) || !slices.Equal(res.Retired, []string{"strata-dev-reasoning"}) {
		t.Fatalf("change: %v %+v", got, res)
	}
	fold(&s, evs)
	if m := s.Snapshot(); m.Version != res.Version || !m.Modified.Equal(t0.Add(time.Hour)) {
		t.Fatalf("snapshot version %d modified %v", m.Version, m.Modified)
	}

	// Dropping a model is refused, naming it.
	dropped := edit(t, func(d map[string]any) {
		d["models"] = slices.DeleteFunc(d["models"].([]any), func(m any) bool { return m.(map[string]any)["id"] == "strata-dev-text-legacy" })
	})
	_, _, err = s.Import(mustParse(t, dropped), SourceImport, "dropped.json", t0.Add(2*time.Hour))
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Rule != "keeps_models" || !strings.Contains(ke.Message, `"strata-dev-text-legacy"`) {
		t.Fatalf("a dropped model: %v", err)
	}

	// An operator manages the catalog now: the built-in one is not applied.
	if evs, res, err := s.Import(Builtin(), SourceBuiltin, BuiltinName, t0.Add(3*time.Hour)); err != nil || len(evs) != 0 || !res.Skipped {
		t.Fatalf("built-in over an operator's catalog: %v %+v %v", types(evs), res, err)
	}
}

func TestBuiltinFollowsUntilAnOperatorTakesOver(t *testing.T) {
	var s State
	evs, _, err := s.Import(Builtin(), SourceBuiltin, BuiltinName, t0)
	if err != nil {
		t.Fatal(err)
	}
	fold(&s, evs)
	if s.Managed {
		t.Fatal("the built-in import made the catalog operator-managed")
	}
	next := mustParse(t, edit(t, func(d map[string]any) { model(d, "strata-dev-frontier")["context_window"] = 400000 }))
	if evs, _, err = s.Import(next, SourceBuiltin, BuiltinName, t0.Add(time.Minute)); err != nil || len(evs) != 2 {
		t.Fatalf("a newer built-in catalog: %v %v", types(evs), err)
	}
	fold(&s, evs)
	up, err := s.Upsert(Model{ID: "strata-dev-extra", Provider: "p", Label: "Extra", Tier: TierFree, ContextWindow: 1000,
		Upstream: Upstream{ID: "dev"}}, t0.Add(2*time.Minute))
	if err != nil || len(up) != 1 {
		t.Fatalf("upsert: %v %v", up, err)
	}
	fold(&s, up)
	if m, _ := s.Snapshot().Model("strata-dev-extra"); !s.Managed || m.MaxTokens != 1000 || m.Upstream.Model != "strata-dev-extra" {
		t.Fatalf("after an operator's upsert: managed %v, %+v", s.Managed, m)
	}
	if again, err := s.Upsert(Model{ID: "strata-dev-extra", Provider: "p", Label: "Extra", Tier: TierFree, ContextWindow: 1000,
		Upstream: Upstream{ID: "dev"}}, t0.Add(3*time.Minute)); err != nil || len(again) != 0 {
		t.Fatalf("the same upsert again: %v %v", again, err)
	}
}

func TestRetireKeepsAliasesLive(t *testing.T) {
	s := imported(t, Builtin())
	// Retiring the 7B text model points its alias at the replacement too.
	evs, err := s.Retire("strata-dev-7b-text", "strata-dev-embed", t0.Add(time.Minute))
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Rule != "kind:chat" && ke.Rule != "live_model" {
		t.Fatalf("retiring the free default: %v %v", types(evs), err)
	}
	up, err := s.Upsert(Model{ID: "strata-dev-7b-text-v2", Provider: "strata-dev", Label: "v2", Tier: TierFree, ContextWindow: 32768,
		Free: true, Upstream: Upstream{ID: "dev"}}, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	fold(s, up)
	// Still the default of free and basic: refused, naming where it is used.
	if _, err := s.Retire("strata-dev-7b-text", "strata-dev-7b-text-v2", t0.Add(2*time.Minute)); !errors.As(err, &ke) ||
		!strings.HasPrefix(ke.Field, "defaults.") || ke.Rule != "live_model" {
		t.Fatalf("retiring a default: %v", err)
	}
	// A model no router or default names: it and its aliases move.
	imp := mustParse(t, edit(t, func(d map[string]any) {
		d["models"] = append(d["models"].([]any),
			map[string]any{"id": "strata-dev-7b-text-v2", "provider": "strata-dev", "label": "v2", "tier": "free",
				"context_window": 32768, "free": true, "upstream": map[string]any{"id": "dev"}},
			map[string]any{"id": "strata-dev-old", "tier": "free", "status": "retired", "replaced_by": "strata-dev-frontier-lite"},
			map[string]any{"id": "strata-dev-frontier-lite", "provider": "strata-dev", "label": "lite", "tier": "free",
				"context_window": 8192, "upstream": map[string]any{"id": "dev"}})
	}))
	evs, _, err = s.Import(imp, SourceImport, "more.json", t0.Add(3*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	fold(s, evs)
	evs, err = s.Retire("strata-dev-frontier-lite", "strata-dev-7b-text-v2", t0.Add(4*time.Minute))
	if err != nil || !slices.Equal(types(evs), []string{"catalog.model_retired", "catalog.model_retired"}) {
		t.Fatalf("retire with an alias: %v %v", types(evs), err)
	}
	fold(s, evs)
	if m, _ := s.Snapshot().Model("strata-dev-old"); m.ReplacedBy != "strata-dev-7b-text-v2" {
		t.Fatalf("the alias of a retired model still names %q", m.ReplacedBy)
	}
	if evs, err := s.Retire("strata-dev-frontier-lite", "strata-dev-7b-text-v2", t0.Add(5*time.Minute)); err != nil || len(evs) != 0 {
		t.Fatalf("retiring again: %v %v", types(evs), err)
	}
	if _, err := s.Retire("strata-dev-nope", "strata-dev-7b-text", t0); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("retiring an unknown model: %v", err)
	}
	// The replacement must be usable by the retired model's callers.
	if _, err := s.Retire("strata-dev-7b-text-v2", "strata-dev-32b-code", t0.Add(6*time.Minute)); !errors.As(err, &ke) ||
		ke.Rule != "tier_not_above:free" {
		t.Fatalf("a replacement above the tier: %v", err)
	}
}
