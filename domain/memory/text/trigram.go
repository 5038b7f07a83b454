package text

import (
	"strings"
	"unicode"
)

// Trigrams is the trigram set of s exactly as PostgreSQL's pg_trgm computes
// it: s is lower-cased and split into words (runs of letters and digits);
// each word is padded with two spaces in front and one behind, and every run
// of three consecutive characters of a padded word is a trigram. Characters
// are runes, so non-ASCII words work as in a UTF-8 database.
func Trigrams(s string) map[string]struct{} {
	out := make(map[string]struct{})
	var word []rune
	flush := func() {
		if len(word) == 0 {
			return
		}
		padded := make([]rune, 0, len(word)+3)
		padded = append(padded, ' ', ' ')
		padded = append(padded, word...)
		padded = append(padded, ' ')
		for i := 0; i+3 <= len(padded); i++ {
			out[string(padded[i:i+3])] = struct{}{}
		}
		word = word[:0]
	}
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = append(word, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// TrigramSimilarity is pg_trgm's similarity(a, b): the number of trigrams the
// two [Trigrams] sets share divided by the size of their union, in [0, 1].
// It is 0 when either string has no trigram. For example
// TrigramSimilarity("word", "two words") = 4/11 ≈ 0.36363637.
func TrigramSimilarity(a, b string) float64 {
	ta, tb := Trigrams(a), Trigrams(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	if len(ta) > len(tb) {
		ta, tb = tb, ta
	}
	common := 0
	for t := range ta {
		if _, ok := tb[t]; ok {
			common++
		}
	}
	return float64(common) / float64(len(ta)+len(tb)-common)
}
