package search_test

import (
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

func TestFilters(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "g", Namespace: "global", Layer: "semantic", EntityIDs: []string{"alice"}, Text: "Alice plays chess on weekends"},
		search.Doc{ID: "s1", Namespace: "session:1", Layer: "episodic", EntityIDs: []string{"alice", "bob"}, Text: "Alice played chess with Bob today"},
		search.Doc{ID: "s2", Namespace: "session:2", Layer: "working", EntityIDs: []string{"bob"}, Text: "Bob is studying chess openings"},
		search.Doc{ID: "p", Namespace: "project:x", Layer: "semantic", Text: "The chess engine project uses Go"},
	)
	tests := []struct {
		name string
		q    search.Query
		want []string // exact set, any order
	}{
		{"namespace only", search.Query{Namespace: "session:1"}, []string{"s1"}},
		{"other namespace only", search.Query{Namespace: "session:2"}, []string{"s2"}},
		{"global alone", search.Query{Namespace: "global"}, []string{"g"}},
		{"unknown namespace", search.Query{Namespace: "session:9"}, nil},
		{"cross namespace", search.Query{Namespace: "session:1", CrossNamespace: true}, []string{"g", "s1", "s2", "p"}},
		{"cross namespace, unknown requested", search.Query{Namespace: "session:9", CrossNamespace: true}, []string{"g", "s1", "s2", "p"}},
		{"layer", search.Query{Namespace: "session:1", CrossNamespace: true, Layer: "semantic"}, []string{"g", "p"}},
		{"unknown layer", search.Query{Namespace: "global", CrossNamespace: true, Layer: "procedural"}, nil},
		{"entity", search.Query{Namespace: "global", CrossNamespace: true, EntityID: "bob"}, []string{"s1", "s2"}},
		{"entity and layer", search.Query{Namespace: "global", CrossNamespace: true, EntityID: "alice", Layer: "episodic"}, []string{"s1"}},
		{"entity and namespace", search.Query{Namespace: "session:2", EntityID: "alice"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.q.Text, tt.q.Now = "chess", now
			got := ids(ix.Search(tt.q))
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestNamespaceBoost(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "mine", Namespace: "session:1", Text: "The deploy script lives in the ops repository", CreatedAt: day(2)},
		search.Doc{ID: "theirs", Namespace: "session:2", Text: "The deploy script lives in the ops repository", CreatedAt: day(1)},
	)
	for _, ns := range []string{"session:1", "session:2"} {
		hits := ix.Search(search.Query{Text: "deploy script", Namespace: ns, CrossNamespace: true, Now: now})
		// The two texts are duplicates: only the requested namespace's survives.
		want := map[string]string{"session:1": "mine", "session:2": "theirs"}[ns]
		if len(hits) == 0 || hits[0].ID != want {
			t.Errorf("namespace %s: got %v, want %s first", ns, ids(hits), want)
		}
	}
}

func TestAsOf(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	asOf := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	ix := fill(t, search.Config{},
		search.Doc{ID: "later", Text: "Alice works at Initech", CreatedAt: asOf.Add(time.Hour)},
		search.Doc{ID: "ended", Text: "Alice works at Acme", CreatedAt: t0, Facts: []search.Interval{{From: t0, Until: t0.AddDate(0, 3, 0)}}},
		search.Doc{ID: "current", Text: "Alice works at Globex", CreatedAt: t0.AddDate(0, 3, 0), Facts: []search.Interval{{From: t0.AddDate(0, 3, 0)}}},
		search.Doc{ID: "nofacts", Text: "Alice works remotely", CreatedAt: t0},
		search.Doc{ID: "future", Text: "Alice works at Hooli soon", CreatedAt: t0, Facts: []search.Interval{{From: asOf.AddDate(0, 1, 0)}}},
		search.Doc{ID: "mixed", Text: "Alice works with Bob and Carol", CreatedAt: t0, Facts: []search.Interval{{From: t0, Until: t0.AddDate(0, 1, 0)}, {From: t0}}},
		search.Doc{ID: "boundary", Text: "Alice works at Umbrella", CreatedAt: t0, Facts: []search.Interval{{From: t0, Until: asOf}}},
		search.Doc{ID: "exactly", Text: "Alice works nights", CreatedAt: asOf},
	)
	got := ids(ix.Search(search.Query{Text: "Alice works", Namespace: "global", AsOf: asOf, Now: now, Limit: 20}))
	slices.Sort(got)
	// "mixed" states a fact that had ended by then: it is stale as of then,
	// even though its other fact still held.
	want := []string{"current", "exactly", "nofacts"}
	if !slices.Equal(got, want) {
		t.Errorf("AsOf %v: got %v, want %v", asOf, got, want)
	}
	// Without AsOf nothing is excluded by time.
	got = ids(ix.Search(search.Query{Text: "Alice works", Namespace: "global", Now: now, Limit: 20}))
	for _, id := range []string{"later", "ended", "current", "nofacts", "future", "mixed", "boundary", "exactly"} {
		if !slices.Contains(got, id) {
			t.Errorf("without AsOf: got %v, missing %s", got, id)
		}
	}
}

func TestCurrentFactOutranksSuperseded(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	switched := now.AddDate(0, 0, -20)
	ix := fill(t, search.Config{},
		// The superseded fact is more important and was stated only a day
		// earlier; supersession must still win.
		search.Doc{ID: "old", Text: "Alice lives in Berlin", Importance: 0.8, CreatedAt: switched.AddDate(0, 0, -1), Facts: []search.Interval{{From: t0, Until: switched}}},
		search.Doc{ID: "new", Text: "Alice lives in Paris", Importance: 0.6, CreatedAt: switched, Facts: []search.Interval{{From: switched}}},
	)
	hits := ix.Search(search.Query{Text: "where does Alice live", Namespace: "global", Now: now})
	if got := ids(hits); len(got) < 2 || got[0] != "new" || got[1] != "old" {
		t.Fatalf("got %v, want [new old]", got)
	}
	// As of before the switch the old fact is the valid one.
	hits = ix.Search(search.Query{Text: "where does Alice live", Namespace: "global", AsOf: switched.Add(-time.Minute)})
	if got := ids(hits); len(got) != 1 || got[0] != "old" {
		t.Errorf("as of before the switch: got %v, want [old]", got)
	}
}

func TestNearDuplicateSuppression(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "a", Text: "Alice Chen works at Acme Robotics.", Importance: 0.9},
		search.Doc{ID: "b", Text: "alice chen works at acme robotics", Importance: 0.2},
		search.Doc{ID: "c", Text: "Alice Chen works at Globex Robotics.", Importance: 0.5},
	)
	got := ids(ix.Search(search.Query{Text: "where does Alice Chen work", Namespace: "global", Now: now}))
	if !slices.Contains(got, "a") || slices.Contains(got, "b") || !slices.Contains(got, "c") {
		t.Errorf("got %v, want a and c without its duplicate b", got)
	}
	// A duplicate is only suppressed by a hit that is returned: filtered
	// out, "a" does not hide "b".
	ix.Remove("a")
	if got := ids(ix.Search(search.Query{Text: "Alice Chen", Namespace: "global", Now: now})); !slices.Contains(got, "b") {
		t.Errorf("after removing a: got %v, want b", got)
	}
}
