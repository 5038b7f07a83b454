package extract

import (
	"slices"
	"testing"
)

func TestStatesOfThings(t *testing.T) {
	cases := []struct {
		text string
		want []string // relations
	}{
		{"The checkout bug was fixed on Tuesday.", []string{"checkout bug status fixed"}},
		{"The Acme deal closed last week.", []string{"Acme deal status closed"}},
		{"We cancelled the Heroku plan.", []string{"Heroku plan status cancelled"}},
		{"Ticket #42 is still open.", []string{"Ticket 42 status open"}},
		{"Ana closed the Acme deal.", []string{"Acme deal status closed"}},
		{"QA reopened the checkout bug this morning.", []string{"checkout bug status reopened"}},
		{"The seed round closed at $2M.", []string{"seed round status closed"}},
		{"Our new pricing plan is live.", []string{"pricing plan status live"}},
		{"Acme's renewal was signed.", []string{"Acme's renewal status signed"}},
		{"The Globex deal fell through.", []string{"Globex deal status lost"}},
		{"The data migration is on hold until March.", []string{"data migration status on hold"}},
		{"PR 381 was merged.", []string{"PR 381 status merged"}},
		// Nothing asserted.
		{"We haven't fixed the login bug yet.", nil},
		{"We will fix the checkout bug tomorrow.", nil},
		{"The checkout bug isn't fixed.", nil},
		{"Is the checkout bug still open?", nil},
		{"If the Acme deal closes, we hire.", nil},
		{"The login bug blocked the release.", nil},
		{"The bug was fixed.", nil}, // which bug?
		{"We need to close the Acme deal.", nil},
	}
	for _, c := range cases {
		r := Extract(c.text, Options{Self: "user"})
		var got []string
		for _, x := range r.Relations {
			if x.Predicate == "status" {
				got = append(got, x.Subject+" "+x.Predicate+" "+x.Object)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: status facts %q, want %q", c.text, got, c.want)
		}
	}
}

func TestThingsAreConceptsAndKeepTheNamesInside(t *testing.T) {
	r := Extract("We use the Heroku plan for staging.", Options{Self: "user"})
	if got := ents(r); !slices.Equal(got, []string{"Heroku/org", "Heroku plan/concept"}) {
		t.Fatalf("entities %q", got)
	}
	if got := rels(r.Relations); !slices.Equal(got, []string{"user uses Heroku"}) {
		t.Fatalf("relations %q: the thing must not hide the tool from the uses trigger", got)
	}
	for _, n := range []string{"checkout bug", "Acme deal", "ticket 42", "PR #381"} {
		if !HasStateHead(n) {
			t.Errorf("HasStateHead(%q) = false", n)
		}
	}
	for _, n := range []string{"bug", "Acme", "deal maker", "ticket office"} {
		if HasStateHead(n) {
			t.Errorf("HasStateHead(%q) = true", n)
		}
	}
}
