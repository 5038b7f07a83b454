package text

import (
	"math"
	"slices"
	"strings"
)

// DuplicateThreshold is the least cosine similarity of two statements'
// stem-frequency vectors for [NearDuplicate] to call them the same statement
// (further conditions apply, see [Fingerprint.NearDuplicate]). At 0.85 two
// five-stem statements differing in one stem (cosine 0.8) are distinct, while
// a statement and the same statement with one extra word (4 stems vs 5:
// cosine 0.89) are duplicates.
const DuplicateThreshold = 0.85

// Fingerprint is what near-duplicate detection needs to know about one
// statement. Compute it once per statement with [NewFingerprint] and compare
// many times; the zero value is the fingerprint of an empty text.
type Fingerprint struct {
	stems   []string // sorted, unique
	counts  []float64
	norm    float64
	names   []string // sorted unique stems of capitalised, non-number tokens
	numbers []string // sorted unique number tokens
	negated bool
	bare    string // whitespace-normalised lower-case text, used when no token
}

// NewFingerprint analyses s (see [Analyze]) and records its stem
// frequencies, capitalised names, numbers and whether it is negated.
func NewFingerprint(s string) Fingerprint { return FingerprintTokens(s, Analyze(s)) }

// FingerprintTokens is [NewFingerprint] for a caller that already holds
// toks = Analyze(s) (or an [Analyzer]'s equivalent result).
func FingerprintTokens(s string, toks []Token) Fingerprint {
	var f Fingerprint
	stems := make([]string, 0, len(toks))
	for _, t := range toks {
		stems = append(stems, t.Stem)
		if t.Number {
			f.numbers = append(f.numbers, t.Stem)
		} else if t.Capitalised {
			f.names = append(f.names, t.Stem)
		}
	}
	slices.Sort(stems)
	for i := 0; i < len(stems); {
		j := i + 1
		for j < len(stems) && stems[j] == stems[i] {
			j++
		}
		f.stems = append(f.stems, stems[i])
		c := float64(j - i)
		f.counts = append(f.counts, c)
		f.norm += c * c
		i = j
	}
	f.norm = math.Sqrt(f.norm)
	f.names = sortedUnique(f.names)
	f.numbers = sortedUnique(f.numbers)
	scan(s, func(w rawWord) {
		if isNegation(w.text) {
			f.negated = true
		}
	})
	if len(f.stems) == 0 {
		f.bare = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	}
	return f
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// has reports whether stem occurs in the fingerprinted text.
func (f Fingerprint) has(stem string) bool {
	_, ok := slices.BinarySearch(f.stems, stem)
	return ok
}

// Similarity is the cosine of the two statements' stem-frequency vectors, in
// [0, 1]. Two texts without any token are 1 when equal ignoring case and
// spacing, else 0; one such text against a text with tokens is 0.
func (f Fingerprint) Similarity(g Fingerprint) float64 {
	if len(f.stems) == 0 || len(g.stems) == 0 {
		if len(f.stems) == 0 && len(g.stems) == 0 && f.bare == g.bare {
			return 1
		}
		return 0
	}
	dot := 0.0
	for i, j := 0, 0; i < len(f.stems) && j < len(g.stems); {
		switch c := strings.Compare(f.stems[i], g.stems[j]); {
		case c == 0:
			dot += f.counts[i] * g.counts[j]
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	sim := dot / (f.norm * g.norm)
	if sim > 1-1e-9 { // rounding: identical vectors are exactly 1
		return 1
	}
	return sim
}

// NearDuplicate reports whether f and g state the same thing in other words,
// with their [Fingerprint.Similarity]. They are duplicates when all of these
// hold:
//
//   - the similarity is at least [DuplicateThreshold];
//   - they hold the same set of numbers ("in 2023" ≠ "in 2024");
//   - every capitalised word (a name) of either occurs, in any case, in the
//     other ("works at Acme" ≠ "works at Globex", while "Alice Chen works at
//     Acme Robotics." = "alice chen works at acme robotics");
//   - both or neither are negated ("not", "never", "n't", … — "likes tea" ≠
//     "doesn't like tea").
//
// The relation is symmetric.
func (f Fingerprint) NearDuplicate(g Fingerprint) (similarity float64, dup bool) {
	sim := f.Similarity(g)
	if sim < DuplicateThreshold || f.negated != g.negated || !slices.Equal(f.numbers, g.numbers) {
		return sim, false
	}
	for _, n := range f.names {
		if !g.has(n) {
			return sim, false
		}
	}
	for _, n := range g.names {
		if !f.has(n) {
			return sim, false
		}
	}
	return sim, true
}

// NearDuplicate fingerprints a and b and compares them with
// [Fingerprint.NearDuplicate]: similarity is the cosine of their stem
// frequencies, dup whether they are the same statement in other words.
func NearDuplicate(a, b string) (similarity float64, dup bool) {
	return NewFingerprint(a).NearDuplicate(NewFingerprint(b))
}
