package search

import (
	"reflect"
	"testing"
)

func TestDefinitionsNeedMatchingInitials(t *testing.T) {
	for _, c := range []struct {
		text string
		want map[string]string
	}{
		{"our annual recurring revenue (ARR) grew", map[string]string{"ARR": "annual recurring revenue"}},
		{"we set objectives and key results (OKR) quarterly", map[string]string{"OKR": "objectives and key results"}},
		{"the monthly profit and loss (P&L) is late", map[string]string{"P&L": "profit and loss"}},
		{"software as a service (SaaS) pricing", map[string]string{"SaaS": "software as a service"}},
		{"call Bob later (FYI) about it", nil}, // initials do not match
		{"see the appendix (A)", nil},          // one letter is no short form
		{"the quality (QA) team", nil},         // one word does not spell QA
		{"met Alice Chen (AC) for lunch", map[string]string{"AC": "alice chen"}},
	} {
		if got := definitions(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("definitions(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
