package text

import (
	"strings"
	"unicode"
)

// Token is one analysed word of a text.
type Token struct {
	// Stem is the index form: the Snowball English stem of an ASCII word,
	// the word itself for numbers, other scripts and CJK characters. Never "".
	Stem string
	// Word is the lower-case, accent-folded surface form without apostrophes
	// or a possessive "'s" (the basis for character n-grams). Never "".
	Word string
	// Capitalised reports that the word began with an upper-case letter in
	// the source (a name, an acronym or the first word of a sentence).
	Capitalised bool
	// Number reports that the token holds a digit; numbers are not stemmed.
	Number bool
	// Joined marks the concatenation of a hyphenated compound's parts; it
	// follows the parts and takes no part in bigrams.
	Joined bool
	// Segment numbers the clause the token belongs to; tokens in different
	// segments are separated by punctuation or a line break.
	Segment int
}

// Analyze splits s into tokens as described in the package documentation:
// Unicode-aware words, stop words dropped, English words stemmed, CJK
// characters as single tokens. The result is in text order; it is empty (nil)
// when s holds no indexable word.
func Analyze(s string) []Token { return analyze(s, nil) }

// analyze is Analyze with an optional stem memo.
func analyze(s string, a *Analyzer) []Token {
	var out []Token
	scan(s, func(w rawWord) {
		if w.cjk {
			out = append(out, Token{Stem: w.text, Word: w.text, Segment: w.seg})
			return
		}
		if isStop(w.text) {
			return
		}
		if strings.IndexByte(w.text, '-') < 0 {
			if t, ok := makeToken(w.text, w.cap, w.seg, a); ok {
				out = append(out, t)
			}
			return
		}
		parts := strings.Split(w.text, "-")
		kept := 0
		for _, p := range parts {
			if p == "" || isStop(p) {
				continue
			}
			if t, ok := makeToken(p, w.cap, w.seg, a); ok {
				out = append(out, t)
				kept++
			}
		}
		if kept >= 2 {
			if t, ok := makeToken(strings.Join(parts, ""), w.cap, w.seg, a); ok {
				t.Joined = true
				out = append(out, t)
			}
		}
	})
	return out
}

// makeToken stems one word (no hyphens). ok is false when nothing is left.
func makeToken(w string, capital bool, seg int, a *Analyzer) (Token, bool) {
	number, ascii := false, true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= '0' && c <= '9' {
			number = true
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if !number && !ascii {
		for _, r := range w {
			if unicode.IsDigit(r) {
				number = true
				break
			}
		}
	}
	surface := stripApostrophes(strings.TrimSuffix(w, "'s"))
	var stem string
	if !number && ascii {
		stem = a.stem(w)
	} else {
		stem = surface
	}
	if stem == "" || surface == "" {
		return Token{}, false
	}
	return Token{Stem: stem, Word: surface, Capitalised: capital, Number: number, Segment: seg}, true
}

func stripApostrophes(s string) string {
	if strings.IndexByte(s, '\'') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "'", "")
}

// Tokens is the stems of [Analyze] in text order (Joined compounds
// included): lower-case, stop words dropped, English words stemmed, numbers
// and CJK characters kept as tokens.
func Tokens(s string) []string {
	toks := Analyze(s)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Stem
	}
	return out
}

// Bigram is the term for two adjacent stems: a + "_" + b.
func Bigram(a, b string) string { return a + "_" + b }

// Bigrams is the word bigrams of toks: one [Bigram] per pair of consecutive
// non-Joined tokens in the same segment, in text order. Stop words were
// already removed, so "bank of america" yields "bank_america".
func Bigrams(toks []Token) []string {
	var out []string
	prev := -1
	for i, t := range toks {
		if t.Joined {
			continue
		}
		if prev >= 0 && toks[prev].Segment == t.Segment {
			out = append(out, Bigram(toks[prev].Stem, t.Stem))
		}
		prev = i
	}
	return out
}

// Terms is the phrase-aware term list of s: [Tokens] followed by the
// [Bigrams] of adjacent stems ("machine learning" → "machin", "learn",
// "machin_learn").
func Terms(s string) []string {
	toks := Analyze(s)
	out := make([]string, 0, 2*len(toks))
	for _, t := range toks {
		out = append(out, t.Stem)
	}
	return append(out, Bigrams(toks)...)
}
