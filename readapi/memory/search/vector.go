package search

import (
	"slices"

	"github.com/strata-platform/strata/domain/memory/text"
)

// Hashing-trick seeds: word features and character n-grams live in the same
// space but hash differently, so a one-letter word never collides with its
// own n-gram by construction.
const (
	seedGram uint32 = 2166136261
	seedWord uint32 = 2166136261 ^ 0x9e3779b9
)

// hash32 is FNV-1a over s followed by a murmur3 finaliser (so the low bits,
// which select the dimension, are well mixed).
func hash32(seed uint32, s string) uint32 {
	h := seed
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// appendFeatures appends the hashed dimensions of one token: its stem as a
// word feature and, when grams is set and the token is not a number, the
// character 3-, 4- and 5-grams of "<word>" (the surface word with boundary
// marks).
func appendFeatures(dims []uint32, t text.Token, mask uint32, grams bool) []uint32 {
	eachFeature(t, grams, func(h uint32, _ int) { dims = append(dims, h&mask) })
	return dims
}

// eachFeature calls fn with the unmasked hash of each of t's features and
// its kind: 0 for the word feature, n for a character n-gram.
func eachFeature(t text.Token, grams bool, fn func(h uint32, kind int)) {
	fn(hash32(seedWord, t.Stem), 0)
	if t.Number || !grams {
		return
	}
	padded := "<" + t.Word + ">"
	var starts [64]int
	bounds := starts[:0]
	for i := range padded {
		bounds = append(bounds, i)
	}
	bounds = append(bounds, len(padded))
	runes := len(bounds) - 1
	for n := 3; n <= 5; n++ {
		for i := 0; i+n <= runes; i++ {
			fn(hash32(seedGram, padded[bounds[i]:bounds[i+n]]), n)
		}
	}
}

// analysed is a document's index form, computed without the lock.
type analysed struct {
	terms []string // unigram stems and bigrams of Text and every variant
	kinds []string // kind terms (Config.Lexicon), not counted in the length
	dims  []uint32 // hashed features, sorted, one entry per occurrence
	fp    text.Fingerprint
	emb   qvec
}

// analyse computes d's index form.
func analyse(an *text.Analyzer, d Doc, mask uint32, emb Embedder, lex Lexicon) analysed {
	var a analysed
	n := len(d.Text)
	for _, v := range d.Variants {
		n += len(v)
	}
	a.dims = make([]uint32, 0, 3*n) // ≈ 15 features per 5-letter word
	a.terms = make([]string, 0, n/3)
	var seenKind map[string]bool
	if lex != nil {
		seenKind = make(map[string]bool)
	}
	add := func(s string) []text.Token {
		toks := an.Analyze(s)
		for _, t := range toks {
			a.terms = append(a.terms, t.Stem)
			a.dims = appendFeatures(a.dims, t, mask, true)
		}
		a.terms = append(a.terms, text.Bigrams(toks)...)
		if lex != nil {
			a.kinds = kindTerms(lex, toks, seenKind, a.kinds)
		}
		return toks
	}
	a.fp = text.FingerprintTokens(d.Text, add(d.Text))
	for _, v := range d.Variants {
		add(v)
	}
	a.dims = sortDims(a.dims) // exact size: the document keeps it
	switch {
	case d.Embedding != nil:
		a.emb = quantise(d.Embedding)
	case emb != nil && d.Text != "":
		a.emb = quantise(emb.Embed(d.Text))
	}
	return a
}

// isBigram reports whether a term is a bigram: stems never contain '_'
// (the analyser splits words at it), bigrams always do.
func isBigram(term string) bool {
	for i := 0; i < len(term); i++ {
		if term[i] == '_' {
			return true
		}
	}
	return false
}

// sortDims returns the hashed dimensions (< 2^24) of d sorted ascending, in
// a new slice of exactly len(d): an LSD radix sort in three byte passes for
// long slices, which beats a comparison sort on the few hundred dimensions
// of a document.
func sortDims(d []uint32) []uint32 {
	if len(d) < 96 {
		out := append(make([]uint32, 0, len(d)), d...)
		slices.Sort(out)
		return out
	}
	src, dst := d, make([]uint32, len(d))
	for shift := uint(0); shift < 24; shift += 8 {
		var count [257]int
		for _, v := range src {
			count[(v>>shift)&0xff+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, v := range src {
			b := (v >> shift) & 0xff
			dst[count[b]] = v
			count[b]++
		}
		src, dst = dst, src
	}
	// An odd number of passes leaves the result in the new slice.
	return src
}
