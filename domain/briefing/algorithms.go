package briefing

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// RuleVersion is the version of every algorithm's rules (windows,
// thresholds, weights, lexicons) written down in RULES.md. A change to any
// of them changes the version, so results from different rules are told
// apart.
const RuleVersion = "v1"

const day = 24 * time.Hour

// Window says how far back from the end of the as-of day (asOf+24h,
// exclusive) an algorithm reads each kind; 0 = that kind is not read.
// An observation is read when end-window <= its time < end.
type Window struct{ Indicators, Mentions, Filings, Documents, Activities time.Duration }

var windows = map[string]Window{
	// 15 monthly unemployment values ending with one up to 62 days old
	// reach back at most 62+428 days; 500 covers it.
	AlgoSentiment:     {Indicators: 500 * day},
	AlgoContent:       {Mentions: 7 * day, Documents: 7 * day},
	AlgoInfluence:     {Activities: 90 * day},
	AlgoAcquisition:   {Filings: 30 * day, Mentions: 30 * day, Documents: 30 * day},
	AlgoEnvironmental: {Filings: 90 * day, Mentions: 90 * day, Documents: 90 * day},
	AlgoCompetitive:   {Filings: day},
}

// WindowOf returns the window of an algorithm, false for an unknown one.
func WindowOf(algo string) (Window, bool) {
	w, ok := windows[algo]
	return w, ok
}

// Run runs one algorithm over in for the day of asOf (truncated to its UTC
// day). Observations outside the algorithm's window are ignored whatever
// the caller passed. Result.Inputs counts the observations the algorithm
// used (inside the window, of a kind it reads, with the fields its rules
// need, a resubmitted observation once; for market_sentiment, the fresh
// readings the regime was decided on); with none, NoInput is set and
// there is no output. Slices in the result are never nil. Run fails only
// for an unknown algorithm.
func Run(algo string, in Inputs, asOf time.Time) (Result, error) {
	w, ok := windows[algo]
	if !ok {
		return Result{}, fmt.Errorf("briefing: unknown algorithm %q", algo)
	}
	f := newFrame(asOf, w)
	var r Result
	switch algo {
	case AlgoSentiment:
		r = marketSentiment(in, f)
	case AlgoContent:
		r = contentIntelligence(in, f)
	case AlgoInfluence:
		r = developerInfluence(in, f)
	case AlgoAcquisition:
		r = acquisitionSignal(in, f)
	case AlgoEnvironmental:
		r = environmentalRisk(in, f)
	case AlgoCompetitive:
		r = competitiveMovement(in, f)
	}
	r.Algo, r.AsOf, r.RuleVersion = algo, f.day, RuleVersion
	if r.Inputs == 0 {
		r.NoInput = true
		r.Signals, r.Correlations, r.Trending, r.Regime = nil, nil, nil, nil
	}
	if r.Signals == nil {
		r.Signals = []Signal{}
	}
	if r.Correlations == nil {
		r.Correlations = []Correlation{}
	}
	if r.Trending == nil {
		r.Trending = []Trending{}
	}
	slices.SortFunc(r.Signals, func(a, b Signal) int { return strings.Compare(a.Subject, b.Subject) })
	slices.SortFunc(r.Correlations, func(a, b Correlation) int {
		return cmp.Or(strings.Compare(a.EntityA, b.EntityA), strings.Compare(a.EntityB, b.EntityB), strings.Compare(a.Type, b.Type))
	})
	return r, nil
}

// span is the half-open interval [from, to); an empty one holds nothing.
type span struct{ from, to time.Time }

func (s span) has(t time.Time) bool { return !t.Before(s.from) && t.Before(s.to) }

// frame is an as-of day and what an algorithm reads of each kind.
type frame struct {
	day, end                time.Time
	ind, men, fil, doc, act span
}

func newFrame(asOf time.Time, w Window) frame {
	u := asOf.UTC()
	d := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	end := d.Add(day)
	back := func(w time.Duration) span { return span{end.Add(-w), end} }
	return frame{day: d, end: end,
		ind: back(w.Indicators), men: back(w.Mentions), fil: back(w.Filings),
		doc: back(w.Documents), act: back(w.Activities)}
}

// round4 rounds a score to the 4 decimals results carry.
func round4(x float64) float64 { return roundTo(x, 1e4) }

// roundTo rounds x to 1/unit, 0 never negative (so it prints as 0.00).
func roundTo(x, unit float64) float64 {
	if r := math.Round(x*unit) / unit; r != 0 {
		return r
	}
	return 0
}

// ordered returns the indexes in [0, n) that keep accepts, in a
// canonical order, dropping each row that repeats the identity (source,
// source id) of one kept before it; rows without a source id are never
// duplicates. The order is a total order on the rows' contents (so the
// result does not depend on the order rows came in): by a 64-bit FNV-1a
// hash of the identity (of the time too, for a row without a source id),
// then by source id, source, time and rest (every other field). Sorting
// by the hash first keeps the sort to integer comparisons but for rows
// sharing a hash: a repeated identity, rarely a collision.
func ordered(n int, keep func(int) bool, ident func(int) (id, source string, at time.Time), rest func(a, b int) int) []int32 {
	type key struct {
		h uint64
		i int32
	}
	keys := make([]key, 0, n)
	for i := range n {
		if keep(i) {
			id, src, at := ident(i)
			h := fnv1a(fnv1a(fnvBasis, src)*fnvPrime, id) // the 0 byte between source and id
			if id == "" {
				h = (h ^ uint64(at.Unix())) * fnvPrime
				h = (h ^ uint64(at.Nanosecond())) * fnvPrime
			}
			keys = append(keys, key{h, int32(i)})
		}
	}
	full := func(a, b int) int {
		ia, sa, ta := ident(a)
		ib, sb, tb := ident(b)
		if c := strings.Compare(ia, ib); c != 0 {
			return c
		}
		if c := strings.Compare(sa, sb); c != 0 {
			return c
		}
		if c := ta.Compare(tb); c != 0 {
			return c
		}
		return rest(a, b)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.h != b.h {
			return cmp.Compare(a.h, b.h)
		}
		return full(int(a.i), int(b.i))
	})
	out := make([]int32, 0, len(keys))
	for k, x := range keys {
		if k > 0 && x.h == keys[k-1].h {
			ia, sa, _ := ident(int(x.i))
			ib, sb, _ := ident(int(keys[k-1].i))
			if ia != "" && ia == ib && sa == sb {
				continue
			}
		}
		out = append(out, x.i)
	}
	return out
}

const (
	fnvBasis = 14695981039346656037
	fnvPrime = 1099511628211
)

func fnv1a(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// The rest of a row, after identity and time.

func cmpMention(a, b *Mention) int {
	return cmpStrings(a.Company, b.Company, a.URL, b.URL, a.Title, b.Title, a.Text, b.Text)
}

func cmpFiling(a, b *Filing) int {
	return cmpStrings(a.Company, b.Company, a.Form, b.Form, a.URL, b.URL, a.Title, b.Title, a.Text, b.Text)
}

func cmpDocument(a, b *Document) int {
	if c := slices.Compare(a.Companies, b.Companies); c != 0 {
		return c
	}
	return cmpStrings(a.URL, b.URL, a.Title, b.Title, a.Text, b.Text)
}

// cmpStrings compares pairs (a1, b1, a2, b2, ...) in turn.
func cmpStrings(pairs ...string) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if c := strings.Compare(pairs[i], pairs[i+1]); c != 0 {
			return c
		}
	}
	return 0
}

// blank says whether a name is empty once trimmed (normKey would be "").
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// mentionsIn returns the mentions of in inside s naming a company, in
// order, each identity once.
func mentionsIn(in Inputs, s span) []int32 {
	ms := in.Mentions
	return ordered(len(ms),
		func(i int) bool { return s.has(ms[i].At) && !blank(ms[i].Company) },
		func(i int) (string, string, time.Time) { return ms[i].ID, ms[i].Source, ms[i].At },
		func(a, b int) int { return cmpMention(&ms[a], &ms[b]) })
}

// filingsIn returns the filings of in inside s of a company, in order,
// each identity once.
func filingsIn(in Inputs, s span) []int32 {
	fs := in.Filings
	return ordered(len(fs),
		func(i int) bool { return s.has(fs[i].FiledAt) && !blank(fs[i].Company) },
		func(i int) (string, string, time.Time) { return fs[i].ID, fs[i].Source, fs[i].FiledAt },
		func(a, b int) int { return cmpFiling(&fs[a], &fs[b]) })
}

// documentsIn returns the documents of in inside s naming at least one
// company, in order, each identity once.
func documentsIn(in Inputs, s span) []int32 {
	ds := in.Documents
	return ordered(len(ds),
		func(i int) bool {
			if !s.has(ds[i].At) {
				return false
			}
			for _, c := range ds[i].Companies {
				if !blank(c) {
					return true
				}
			}
			return false
		},
		func(i int) (string, string, time.Time) { return ds[i].ID, ds[i].Source, ds[i].At },
		func(a, b int) int { return cmpDocument(&ds[a], &ds[b]) })
}

func cmpEvidence(a, b Evidence) int {
	if c := strings.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	return strings.Compare(a.SourceID, b.SourceID)
}

// keepSmallest inserts x into l (sorted by cmp, distinct) and keeps the
// smallest max: a bounded list whatever the number of rows offered.
func keepSmallest[T any](l []T, x T, max int, cmp func(a, b T) int) []T {
	if len(l) == max && cmp(x, l[max-1]) >= 0 {
		return l // the usual case once full
	}
	i, found := slices.BinarySearchFunc(l, x, cmp)
	if found || i >= max {
		return l
	}
	if len(l) < max {
		var zero T
		l = append(l, zero)
	}
	copy(l[i+1:], l[i:])
	l[i] = x
	return l
}

// normKey is a name's identity: trimmed, lower-cased, inner white space
// collapsed to one space. It allocates only when the name is not already
// in that form.
func normKey(s string) string {
	s = strings.TrimSpace(s)
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r', c == ' ' && space:
			return strings.ToLower(strings.Join(strings.Fields(s), " "))
		}
		space = c == ' '
	}
	return s
}

// names gives the names of companies, developers, repositories dense ids
// by their normKey and remembers how each was spelt: a name is shown as
// its most frequent spelling (trimmed), the lexically smallest on a tie.
// A spelling seen before is found without normalising it again.
type names struct {
	raw  map[string]*rawName
	ids  map[string]int32
	list []nameOf
}

type rawName struct {
	id int32
	n  int
}

type nameOf struct {
	key  string
	raws []string // the spellings, untrimmed, as seen
}

func newNames() *names { return &names{raw: map[string]*rawName{}, ids: map[string]int32{}} }

// add records one use of raw and returns its id, -1 for a blank name.
func (b *names) add(raw string) int32 {
	if r, ok := b.raw[raw]; ok {
		r.n++
		return r.id
	}
	key := normKey(raw)
	if key == "" {
		return -1
	}
	id, ok := b.ids[key]
	if !ok {
		id = int32(len(b.list))
		b.ids[key] = id
		b.list = append(b.list, nameOf{key: key})
	}
	b.raw[raw] = &rawName{id: id, n: 1}
	b.list[id].raws = append(b.list[id].raws, raw)
	return id
}

func (b *names) len() int            { return len(b.list) }
func (b *names) key(id int32) string { return b.list[id].key }

func (b *names) display(id int32) string {
	raws := b.list[id].raws
	if len(raws) == 1 {
		return strings.TrimSpace(raws[0])
	}
	count := map[string]int{}
	for _, r := range raws {
		count[strings.TrimSpace(r)] += b.raw[r].n
	}
	best, n := "", 0
	for sp, c := range count {
		if c > n || c == n && sp < best {
			best, n = sp, c
		}
	}
	return best
}

// Text matching. A text is split into words: runs of letters and digits,
// lower-cased; everything else separates words ("Item 1.01" is the words
// item, 1, 01; "take-over" is take, over). A lexicon phrase matches whole
// words only ("acquire" does not match "acquired"), leftmost-longest and
// without overlaps ("oil spill" is one hit, not also "spill").

// words is a reusable buffer of one text's words.
type words struct {
	buf []byte
	at  []int32  // word i is buf[at[2i]:at[2i+1]]
	h   []uint64 // word i's FNV-1a hash
}

// asciiWord maps an ASCII byte to itself lower-cased when it is a letter
// or digit, to 0 otherwise.
var asciiWord = func() (t [utf8.RuneSelf]byte) {
	for c := range byte(utf8.RuneSelf) {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			t[c] = c
		case 'A' <= c && c <= 'Z':
			t[c] = c + 'a' - 'A'
		}
	}
	return t
}()

func (w *words) split(s string) {
	w.buf, w.at, w.h = w.buf[:0], w.at[:0], w.h[:0]
	in := false
	var h uint64
	start := func() {
		w.at = append(w.at, int32(len(w.buf)))
		h = fnvBasis
	}
	end := func() {
		w.at = append(w.at, int32(len(w.buf)))
		w.h = append(w.h, h)
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			i++
			if l := asciiWord[c]; l != 0 {
				if !in {
					start()
					in = true
				}
				w.buf = append(w.buf, l)
				h = (h ^ uint64(l)) * fnvPrime
			} else if in {
				end()
				in = false
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if !in {
				start()
				in = true
			}
			k := len(w.buf)
			w.buf = utf8.AppendRune(w.buf, unicode.ToLower(r))
			for _, b := range w.buf[k:] {
				h = (h ^ uint64(b)) * fnvPrime
			}
		} else if in {
			end()
			in = false
		}
	}
	if in {
		end()
	}
}

func (w *words) n() int            { return len(w.h) }
func (w *words) word(i int) []byte { return w.buf[w.at[2*i]:w.at[2*i+1]] }

// term is one lexicon phrase: the rule or category it counts for and its
// weight (points) there.
type term struct {
	phrase string
	group  int
	weight float64
}

type lexicon struct {
	terms []term
	root  *lexNode
	first [64]uint64 // a bit per hash of the phrases' first words (mod 4096): most words are none
}

type lexNode struct {
	next map[string]*lexNode
	term int32 // index+1 of the term ending here, 0 for none
}

func newLexicon(terms []term) *lexicon {
	l := &lexicon{terms: terms, root: &lexNode{}}
	var w words
	for i, t := range terms {
		w.split(t.phrase)
		if w.n() > 0 {
			l.first[w.h[0]>>6&63] |= 1 << (w.h[0] & 63)
		}
		n := l.root
		for j := range w.n() {
			k := string(w.word(j))
			if n.next == nil {
				n.next = map[string]*lexNode{}
			}
			c := n.next[k]
			if c == nil {
				c = &lexNode{}
				n.next[k] = c
			}
			n = c
		}
		if n == l.root || n.term != 0 {
			panic("briefing: empty or repeated lexicon phrase " + t.phrase)
		}
		n.term = int32(i + 1)
	}
	return l
}

// find appends to hits the index of each term found in s (once per
// occurrence), using w as scratch.
func (l *lexicon) find(w *words, s string, hits []int32) []int32 {
	w.split(s)
	n := w.n()
	for i := 0; i < n; i++ {
		if h := w.h[i]; l.first[h>>6&63]&(1<<(h&63)) == 0 {
			continue
		}
		node := l.root.next[string(w.word(i))]
		best, length := int32(0), 0
		for j := i; node != nil; {
			if node.term != 0 {
				best, length = node.term, j-i+1
			}
			if j++; j >= n {
				break
			}
			node = node.next[string(w.word(j))]
		}
		if best != 0 {
			hits = append(hits, best-1)
			i += length - 1
		}
	}
	return hits
}

// formKey is a filing form's identity: upper case, inner white space
// collapsed. base drops an amendment's "/A".
func formKey(form string) (key, base string, amended bool) {
	key = strings.ToUpper(strings.Join(strings.Fields(form), " "))
	base, amended = strings.CutSuffix(key, "/A")
	return key, strings.TrimSpace(base), amended
}
