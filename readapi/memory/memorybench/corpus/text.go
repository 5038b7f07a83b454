package corpus

import (
	"sort"
	"strings"
	"unicode"
)

// stopWords are function words ignored by the paraphrase overlap rule.
const stopWords = `a an the and or but nor of to in on at for with from by about as into
onto over under after before than then so if is are was were be been being am has have
had having do does did doing done what which who whom whose where when why how that this
these those it its he she they them their theirs his her hers we our ours us you your
yours i me my mine not no any all some each both either other another such there here
will would can could should shall may might must just also very now too up down out off
again once only own same s t don doesn didn isn wasn aren weren won wouldn let
per via while during until ever one two`

// stopSet returns the stop-word set; built per call (no package state).
func stopSet() map[string]bool {
	m := make(map[string]bool, 160)
	for _, w := range strings.Fields(stopWords) {
		m[w] = true
	}
	return m
}

// rawTokens splits text into letter/digit runs, keeping the original case.
func rawTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stem is a deliberately crude, aggressive suffix stripper: conflating too
// much only makes the paraphrase rule stricter.
func stem(w string) string {
	cut := func(suf string, min int) bool {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= min {
			w = w[:len(w)-len(suf)]
			return true
		}
		return false
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case cut("ing", 3), cut("ed", 3), cut("es", 3):
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		w = w[:len(w)-1]
	}
	_ = cut("er", 4) || cut("ly", 3)
	cut("e", 3)
	return w
}

// nameStripper removes entity names (as case-sensitive token sequences) from
// token streams before content words are compared.
type nameStripper struct {
	byFirst map[string][][]string
}

func newNameStripper(names []string) *nameStripper {
	ns := &nameStripper{byFirst: map[string][][]string{}}
	for _, n := range names {
		toks := rawTokens(n)
		if len(toks) == 0 {
			continue
		}
		ns.byFirst[toks[0]] = append(ns.byFirst[toks[0]], toks)
	}
	for _, seqs := range ns.byFirst {
		sort.Slice(seqs, func(i, j int) bool { return len(seqs[i]) > len(seqs[j]) })
	}
	return ns
}

func (ns *nameStripper) strip(toks []string) []string {
	out := toks[:0:0]
	for i := 0; i < len(toks); {
		skip := 0
		for _, seq := range ns.byFirst[toks[i]] {
			if i+len(seq) <= len(toks) && equalSeq(toks[i:i+len(seq)], seq) {
				skip = len(seq)
				break
			}
		}
		if skip > 0 {
			i += skip
			continue
		}
		out = append(out, toks[i])
		i++
	}
	return out
}

func equalSeq(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// contentWords returns the stemmed content words of text: entity names
// removed, lowercased, stop words and one-letter tokens dropped.
func contentWords(text string, ns *nameStripper, stop map[string]bool) map[string]bool {
	toks := rawTokens(text)
	if ns != nil {
		toks = ns.strip(toks)
	}
	out := make(map[string]bool, len(toks))
	for _, t := range toks {
		t = strings.ToLower(t)
		if len(t) < 2 || stop[t] {
			continue
		}
		out[stem(t)] = true
	}
	return out
}

// sharedContent lists (sorted) the stemmed content words a and b share,
// ignoring entity names and stop words.
func sharedContent(a, b string, ns *nameStripper, stop map[string]bool) []string {
	wa := contentWords(a, ns, stop)
	wb := contentWords(b, ns, stop)
	var out []string
	for w := range wa {
		if wb[w] {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// wordCount counts whitespace-separated words.
func wordCount(s string) int { return len(strings.Fields(s)) }
