package text_test

import (
	"testing"

	"github.com/strata-platform/strata/domain/memory/text"
)

func TestNearDuplicate(t *testing.T) {
	tests := []struct {
		name, a, b string
		dup        bool
	}{
		{"case and punctuation", "Alice Chen works at Acme Robotics.", "alice chen works at acme robotics", true},
		{"inflection and stop words", "The user prefers dark mode in the editor", "User preferred the editor in dark mode", true},
		{"one extra word", "Alice likes spicy Thai food", "Alice really likes spicy Thai food", true},
		{"identical", "Meeting moved to Friday", "Meeting moved to Friday", true},
		{"other employer", "Alice works at Acme", "Alice works at Globex", false},
		{"other name, long sentence", "Alice has been a senior engineer at Acme since 2019", "Bob has been a senior engineer at Acme since 2019", false},
		{"other number", "The flight leaves at 9 on gate 12", "The flight leaves at 9 on gate 14", false},
		{"other year", "Alice joined Acme in 2019", "Alice joined Acme in 2020", false},
		{"negated", "Alice likes tea", "Alice does not like tea", false},
		{"contraction negation", "Bob eats meat", "Bob doesn't eat meat", false},
		{"one word of five differs", "Alice likes spicy Thai food", "Alice hates spicy Thai food", false},
		{"unrelated", "The cat sat on the mat", "Quarterly revenue grew strongly", false},
		{"both empty of tokens", "!!!", " !!! ", true},
		{"one empty", "", "Alice", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim, dup := text.NearDuplicate(tt.a, tt.b)
			if dup != tt.dup {
				t.Errorf("NearDuplicate(%q, %q) = %.3f, %v; want dup %v", tt.a, tt.b, sim, dup, tt.dup)
			}
			if sim < 0 || sim > 1 {
				t.Errorf("similarity %v outside [0, 1]", sim)
			}
			sim2, dup2 := text.NearDuplicate(tt.b, tt.a)
			if sim2 != sim || dup2 != dup {
				t.Errorf("not symmetric: (%v, %v) vs (%v, %v)", sim, dup, sim2, dup2)
			}
		})
	}
}

func TestFingerprintSimilarityValues(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"Alice works at Acme", "alice works at acme", 1},
		// {alic, work, acm} vs {alic, work, globex}: 2/3.
		{"Alice works at Acme", "Alice works at Globex", 2.0 / 3},
		{"cat", "dog", 0},
	}
	for _, tt := range tests {
		got := text.NewFingerprint(tt.a).Similarity(text.NewFingerprint(tt.b))
		if d := got - tt.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
