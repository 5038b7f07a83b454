package search_test

import (
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// Two memories stating the same graph fact in other words are one result;
// a memory stating another value of it, or the same fact in passing while
// it is about something else, stays.
func TestRestatementsOfTheSameFactAreOneResult(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	status := func(value string, from, until time.Time) []search.Interval {
		return []search.Interval{{Subject: "vikram", Predicate: "status", Object: value, From: from, Until: until}}
	}
	ix := fill(t, search.Config{},
		search.Doc{ID: "said", Namespace: "global", EntityIDs: []string{"vikram"}, Importance: 0.6, CreatedAt: day(3),
			Text: "Vikram confirmed that his work status is on sabbatical for the time being", Facts: status("sabbatical", t0.AddDate(0, 6, 0), time.Time{})},
		search.Doc{ID: "again", Namespace: "global", EntityIDs: []string{"vikram"}, Importance: 0.5, CreatedAt: day(2),
			Text: "Vikram let me know that he is on sabbatical for now", Facts: status("sabbatical", t0.AddDate(0, 6, 1), time.Time{})},
		search.Doc{ID: "before", Namespace: "global", EntityIDs: []string{"vikram"}, Importance: 0.5, CreatedAt: day(9),
			Text: "Vikram confirmed that his work status is part-time for the time being", Facts: status("part-time", t0, t0.AddDate(0, 6, 0))},
		search.Doc{ID: "passing", Namespace: "global", EntityIDs: []string{"vikram"}, Importance: 0.4, CreatedAt: day(2),
			Text: "While on sabbatical Vikram is writing a book about compilers and tiny parsers", Facts: status("sabbatical", t0.AddDate(0, 6, 2), time.Time{})},
	)
	got := ids(ix.Search(search.Query{Text: "Vikram sabbatical status", Namespace: "global", Now: now, History: true}))
	if !slices.Contains(got, "said") || slices.Contains(got, "again") {
		t.Errorf("got %v: want said without its restatement again", got)
	}
	if !slices.Contains(got, "before") || !slices.Contains(got, "passing") {
		t.Errorf("got %v: want the earlier value (before) and the memory about something else (passing) kept", got)
	}
}
