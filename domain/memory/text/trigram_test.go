package text_test

import (
	"slices"
	"testing"

	"github.com/strata-platform/strata/domain/memory/text"
)

func TestTrigrams(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// pg_trgm: SELECT show_trgm('word') → {"  w"," wo","ord","rd ","wor"}
		{"word", []string{"  w", " wo", "ord", "rd ", "wor"}},
		// SELECT show_trgm('Cat!') → {"  c"," ca","at ","cat"}
		{"Cat!", []string{"  c", " ca", "at ", "cat"}},
		{"a", []string{"  a", " a "}},
		{"", nil},
		{"!!", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			for g := range text.Trigrams(tt.in) {
				got = append(got, g)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Trigrams(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTrigramSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float32 // pg_trgm returns real (float4)
	}{
		// The pg_trgm documentation's example.
		{"word", "two words", 0.36363637},
		{"word", "word", 1},
		{"Word", "wORD", 1},
		{"cat", "dog", 0},
		// 8 common of 9 and 11 trigrams: 8/12.
		{"postgres", "postgresql", 0.6666667},
		// 8 common ("  p" … "res") of 11 and 10 trigrams: 8/13.
		{"postgresql", "postgress", 0.61538464},
		{"", "word", 0},
		{"", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			got := text.TrigramSimilarity(tt.a, tt.b)
			if float32(got) != tt.want {
				t.Errorf("TrigramSimilarity(%q, %q) = %v, want %v", tt.a, tt.b, float32(got), tt.want)
			}
			if back := text.TrigramSimilarity(tt.b, tt.a); back != got {
				t.Errorf("not symmetric: %v vs %v", got, back)
			}
		})
	}
}
