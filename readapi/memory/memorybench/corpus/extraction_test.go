package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/memory/extract"
)

// The extraction set follows its own rules (extraction.md): kinds and
// predicates from the platform's vocabularies, relation sides that are
// labelled entities (or the user), values and names the text holds.
func TestExtractionSetIsWellFormed(t *testing.T) {
	set, err := ExtractionSet()
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 120 || len(set) > 200 {
		t.Fatalf("%d sentences, want 120 to 200", len(set))
	}
	canonical := map[string]bool{"postgresql": true, "kubernetes": true} // written "Postgres", "k8s"
	preds := extract.Predicates()
	seen := map[string]bool{}
	var rels, ended int
	for _, l := range set {
		low := strings.ToLower(l.Text)
		if seen[low] {
			t.Errorf("%q is in the set twice", l.Text)
		}
		seen[low] = true
		names := map[string]bool{}
		for _, e := range l.Entities {
			if !slices.Contains([]string{"person", "org", "tech", "concept"}, e[1]) {
				t.Errorf("%q: entity %v has no platform kind", l.Text, e)
			}
			n := strings.ToLower(e[0])
			if !strings.Contains(low, n) && !canonical[n] {
				t.Errorf("%q: entity %q is not in the text", l.Text, e[0])
			}
			names[n] = true
		}
		for _, r := range append(append([][3]string{}, l.Relations...), l.Ended...) {
			if !slices.Contains(preds, r[1]) {
				t.Errorf("%q: predicate %q is not in the vocabulary", l.Text, r[1])
			}
			value := r[1] == "role" || r[1] == "title" || r[1] == "status"
			if s := strings.ToLower(r[0]); s != SelfSubject && !names[s] {
				t.Errorf("%q: subject of %v is not a labelled entity", l.Text, r)
			}
			if o := strings.ToLower(r[2]); value && !strings.Contains(low, o) || !value && o != SelfSubject && !names[o] {
				t.Errorf("%q: object of %v is not a labelled entity or a value of the text", l.Text, r)
			}
		}
		rels += len(l.Relations)
		ended += len(l.Ended)
	}
	t.Logf("%d sentences, %d relations, %d ended facts", len(set), rels, ended)
}
