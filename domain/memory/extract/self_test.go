package extract

import (
	"slices"
	"testing"
)

// The entity a memory is about is recognised where its text names it, even
// when no gazetteer knows the name, and its given name alone is that person
// (not a city of the same name).
func TestSelfNameIsRecognised(t *testing.T) {
	cases := []struct {
		self, text string
		kind       Kind
		want       []string
	}{
		{"Eitan Santoso", "HR status note: Eitan Santoso is full-time at the moment.", Person, []string{"Eitan Santoso status full-time"}},
		{"Sofia Yilmaz", "Sofia Yilmaz said that Sofia lives in Edinburgh at the moment.", Person, []string{"Sofia Yilmaz lives_in Edinburgh"}},
		{"Minjun Balogun", "Minjun Balogun now has the role of developer advocate.", Person, []string{"Minjun Balogun role developer advocate"}},
		{"Zorblax Labs", "Zorblax Labs is headquartered in Oslo.", Org, []string{"Zorblax Labs located_in Oslo"}},
		// Without the memory's entity an unknown name states nothing.
		{"user", "Eitan Santoso is full-time at the moment.", Person, []string{}},
	}
	for _, c := range cases {
		got := rels(Extract(c.text, Options{Self: c.self, SelfKind: c.kind}).Relations)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q (self %q): got %q, want %q", c.text, c.self, got, c.want)
		}
	}
}
