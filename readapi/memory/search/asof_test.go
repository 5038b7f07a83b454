package search_test

import (
	"slices"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// A search with AsOf reads a document as it read then: a phrasing merged
// into it later neither matches nor raises its importance.
func TestAsOfReadsVariantsAndImportanceAsTheyWere(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	merged := t0.AddDate(0, 6, 0)
	doc := search.Doc{ID: "m", Namespace: "global", CreatedAt: t0, Text: "Ana plays chess at the club",
		Variants: []string{"Ana took up pottery at the club"}, VariantTimes: []time.Time{merged},
		VariantImportances: []float64{0.9}, Importance: 0.9, FirstImportance: 0.1}
	then := doc.AsOf(merged.Add(-time.Hour))
	if len(then.Variants) != 0 || then.Importance != 0.1 {
		t.Errorf("AsOf before the merge = %+v, want no variant and importance 0.1", then)
	}
	if now := doc.AsOf(merged); len(now.Variants) != 1 || now.Importance != 0.9 {
		t.Errorf("AsOf at the merge = %+v, want the variant and importance 0.9", now)
	}
	ix := fill(t, search.Config{}, doc)
	q := search.Query{Text: "pottery", Namespace: "global", AsOf: merged.Add(-time.Hour), Now: now}
	if got := ids(ix.Search(q)); slices.Contains(got, "m") {
		t.Errorf("as of before the merge, a word only the later phrasing holds matched: %v", got)
	}
	q.AsOf = merged.Add(time.Hour)
	if got := ids(ix.Search(q)); !slices.Contains(got, "m") {
		t.Errorf("as of after the merge: got %v, want m", got)
	}
	// The score as of then counts the importance then: score = 0.80·sim +
	// 0.10·importance + 0.10·recency, recency below 0.02 six months on.
	q.Text = "chess club"
	for _, c := range []struct {
		asOf time.Time
		want float64
	}{{merged.Add(-time.Hour), 0.1}, {merged.Add(time.Hour), 0.9}} {
		q.AsOf = c.asOf
		hits := ix.Search(q)
		if len(hits) != 1 {
			t.Fatalf("as of %v: %v", c.asOf, hits)
		}
		w := search.DefaultWeights()
		if imp := (hits[0].Score - w.Similarity*hits[0].Similarity) / w.Importance; imp < c.want-0.03 || imp > c.want+0.03 {
			t.Errorf("as of %v the score counts importance %.3f, want %.1f", c.asOf, imp, c.want)
		}
	}
}
