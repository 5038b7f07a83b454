package search_test

import (
	"slices"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// Abbreviations match their expansions both ways: from the built-in list,
// and from definitions in the user's own memories (until the defining
// memory is removed).
func TestAbbreviationsMatchTheirExpansions(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "spelled", Text: "Our annual recurring revenue crossed two million in March", CreatedAt: day(10)},
		search.Doc{ID: "short", Text: "The NPS survey came back at 41 this quarter", CreatedAt: day(10)},
		search.Doc{ID: "defined", Text: "We now track customer effort score (CES) after every support ticket", CreatedAt: day(20)},
		search.Doc{ID: "uses", Text: "CES dropped after the new onboarding flow", CreatedAt: day(5)},
		search.Doc{ID: "noise", Text: "Lunch with the design team on Friday", CreatedAt: day(1)},
	)
	search1 := func(q string) []string {
		return ids(ix.Search(search.Query{Text: q, Now: now, CrossNamespace: true, Limit: 3}))
	}
	if got := search1("What is our ARR?"); len(got) == 0 || got[0] != "spelled" {
		t.Fatalf("ARR: %v, want the memory spelling it out first", got)
	}
	if got := search1("net promoter score"); len(got) == 0 || got[0] != "short" {
		t.Fatalf("net promoter score: %v, want the NPS memory first", got)
	}
	if got := search1("How is customer effort score doing?"); !slices.Contains(got, "uses") {
		t.Fatalf("customer effort score: %v, want the memory saying CES (defined in another memory)", got)
	}
	ix.Remove("defined")
	if got := search1("customer effort score"); slices.Contains(got, "uses") {
		t.Fatalf("after the definition is gone: %v, want no expansion of CES", got)
	}
}
