package search

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/memory/text"
)

// group is one BM25 query position: alternative terms sharing a weight. The
// BM25 normaliser counts a group once, with its rarest alternative.
type group struct {
	alts []string
	w    float64
}

// feat is one query token's contribution to the query vector.
type feat struct {
	tok   text.Token
	w     float64
	grams bool
}

// spec is a query variant before it meets the index.
type spec struct {
	groups []group
	feats  []feat
}

// origSpec is the query as written: every distinct stem (weight 1; with a
// Lexicon, a noun's kind term is its alternative) and every distinct bigram
// (BigramWeight), every token in the vector.
func origSpec(toks []text.Token, lex Lexicon) spec {
	var sp spec
	seen := make(map[string]bool)
	for _, t := range toks {
		sp.feats = append(sp.feats, feat{tok: t, w: 1, grams: true})
		if !seen[t.Stem] {
			seen[t.Stem] = true
			g := group{alts: []string{t.Stem}, w: 1}
			g.alts = append(g.alts, queryKinds(lex, t)...)
			sp.groups = append(sp.groups, g)
		}
	}
	for _, b := range text.Bigrams(toks) {
		if !seen[b] {
			seen[b] = true
			sp.groups = append(sp.groups, group{alts: []string{b}, w: BigramWeight})
		}
	}
	return sp
}

// synonymSpec substitutes every stem that has synonyms by its synonyms (one
// group of alternatives, each alternative's vector weight 1/count) and keeps
// the bigrams of unsubstituted stems. ok is false when no stem has synonyms.
func synonymSpec(toks []text.Token, syn Synonyms) (sp spec, ok bool) {
	subst := make(map[string]bool)
	seen := make(map[string]bool)
	for _, t := range toks {
		if seen[t.Stem] {
			continue
		}
		seen[t.Stem] = true
		var alts []string
		var altToks []text.Token
		for _, w := range syn.Synonyms(t.Stem) {
			for _, at := range text.Analyze(w) {
				if at.Stem != t.Stem && !slices.Contains(alts, at.Stem) {
					alts = append(alts, at.Stem)
					altToks = append(altToks, at)
				}
			}
		}
		if len(alts) == 0 {
			sp.groups = append(sp.groups, group{alts: []string{t.Stem}, w: 1})
			sp.feats = append(sp.feats, feat{tok: t, w: 1, grams: true})
			continue
		}
		subst[t.Stem] = true
		sp.groups = append(sp.groups, group{alts: alts, w: 1})
		for _, at := range altToks {
			sp.feats = append(sp.feats, feat{tok: at, w: 1 / float64(len(altToks)), grams: true})
		}
	}
	if len(subst) == 0 {
		return spec{}, false
	}
	for _, b := range text.Bigrams(toks) {
		l, r, _ := strings.Cut(b, "_")
		if !subst[l] && !subst[r] && !seen[b] {
			seen[b] = true
			sp.groups = append(sp.groups, group{alts: []string{b}, w: BigramWeight})
		}
	}
	return sp, true
}

// qterm is a known query term: its id and BM25 weight (group weight × idf).
type qterm struct {
	id int32
	w  float64
}

// qdim is one query vector dimension: w = qtf·idf; id is the dimension's
// posting list, or −1 when no document has it; probe marks the dimensions
// the candidate pass reads (word features and 4- and 5-grams, which are
// selective; 3-grams only count in exact scoring).
type qdim struct {
	dim    uint32
	id     int32
	w, idf float64
	probe  bool
}

// plan is a query variant resolved against the index at search time.
type plan struct {
	terms  []qterm
	bmNorm float64 // Σ over groups of weight × the group's largest idf
	dims   []qdim  // sorted by dim
	qnorm  float64
}

// bm25IDF is BM25's idf, ln(1 + (N − df + 0.5)/(df + 0.5)), always > 0.
func bm25IDF(n, df float64) float64 { return math.Log1p((n - df + 0.5) / (df + 0.5)) }

// resolve turns sp into a plan with the index's current statistics.
// Callers hold the read lock.
func (ix *Index) resolve(sp spec, e *env) *plan {
	p := &plan{}
	for _, g := range sp.groups {
		// A group's normaliser is its rarest alternative that some document
		// holds. A query word no document holds ("species", "companion")
		// tells no document from another, yet at its maximal idf it used to
		// swell the normaliser until every similarity was small and
		// importance decided the ranking: such a group adds nothing.
		bestHeld := 0.0
		for _, a := range g.alts {
			df := 0.0
			id, ok := ix.terms.lookup(a)
			if ok {
				df = float64(ix.terms.pl[id].df)
			}
			idf := bm25IDF(e.n, df)
			if ok && df > 0 {
				bestHeld = max(bestHeld, idf)
				p.terms = append(p.terms, qterm{id: id, w: g.w * idf})
			}
		}
		p.bmNorm += g.w * bestHeld
	}
	qtf := make(map[uint32]float64)
	selective := make(map[uint32]bool)
	for _, f := range sp.feats {
		eachFeature(f.tok, f.grams, func(h uint32, kind int) {
			d := h & ix.set.mask
			qtf[d] += f.w
			if kind != 3 {
				selective[d] = true
			}
		})
	}
	p.dims = make([]qdim, 0, len(qtf))
	for d, tf := range qtf {
		q := qdim{dim: d, id: -1, probe: selective[d]}
		if id, ok := ix.dims.lookup(d); ok && ix.dims.pl[id].df > 0 {
			q.id = id
		}
		q.idf = e.lnN1 - float64(ix.dimLn[d]) + 1 // ln(df+1), 0 when unseen
		q.w = tf * q.idf
		p.dims = append(p.dims, q)
	}
	// Sorted before summing: a float sum depends on its order, and a map's
	// order changes from run to run.
	slices.SortFunc(p.dims, func(a, b qdim) int { return cmp.Compare(a.dim, b.dim) })
	for _, q := range p.dims {
		if q.id >= 0 { // a dimension no document has is a query word's noise too
			p.qnorm += q.w * q.w
		}
	}
	p.qnorm = math.Sqrt(p.qnorm)
	return p
}

// queryInfo is what the rerank features need to know about the query.
type queryInfo struct {
	bigrams []string // distinct query bigrams
	caps    []string // distinct stems of capitalised, non-number query words
	years   []int
	months  []time.Month
}

func newQueryInfo(toks []text.Token) queryInfo {
	var qi queryInfo
	qi.bigrams = slices.Compact(slices.Sorted(slices.Values(text.Bigrams(toks))))
	for _, t := range toks {
		switch {
		case t.Number:
			if y, ok := year(t.Word); ok && !slices.Contains(qi.years, y) {
				qi.years = append(qi.years, y)
			}
		case t.Capitalised:
			if !slices.Contains(qi.caps, t.Stem) {
				qi.caps = append(qi.caps, t.Stem)
			}
		}
		if m, ok := month(t.Word, t.Capitalised); ok && !slices.Contains(qi.months, m) {
			qi.months = append(qi.months, m)
		}
	}
	return qi
}

// year parses a four-digit year in 1900–2199.
func year(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	y := 0
	for i := 0; i < 4; i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0, false
		}
		y = y*10 + int(w[i]-'0')
	}
	return y, y >= 1900 && y < 2200
}

// month recognises English month names: full names in any case ("may" and
// "march" only capitalised, being common words) and capitalised three-letter
// abbreviations ("Sept" too).
func month(w string, capitalised bool) (time.Month, bool) {
	for m := time.January; m <= time.December; m++ {
		full := strings.ToLower(m.String())
		if w == full && (capitalised || (m != time.May && m != time.March)) {
			return m, true
		}
		if capitalised && (w == full[:3] || (m == time.September && w == "sept")) {
			return m, true
		}
	}
	return 0, false
}
