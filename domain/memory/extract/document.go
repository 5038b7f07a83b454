package extract

import "unicode"

// mention is a selected entity occurrence.
type mention struct {
	i, j      int
	name      string
	kind      Kind
	place     bool
	alsoOrg   bool
	canPerson bool
	canPlace  bool
	canOrg    bool
}

// doc is the working state of one extraction.
type doc struct {
	text  string
	toks  []token
	sents []sentence
	lower bool // the text has no upper-case letter
	ments []mention
	cover []int // token -> mention index + 1; 0 when uncovered
	opt   Options
	res   Result
	buf   []byte
	cands []cand
	hits  []match
	// lastSubj is the subject of the latest fact in sentence lastSent,
	// inherited by "and joined Lyft".
	lastSubj []arg
	lastSent int
	hedgeAt  []int          // per sentence: first "if"/"whether", or -1 (lazy)
	lines    []int          // per token: index of the first token of its line (lazy)
	relSeen  map[string]int // de-duplication index once there are many relations
}

// lineStart returns the first token of the line holding token p.
func (d *doc) lineStart(p int) int {
	if d.lines == nil {
		d.lines = make([]int, len(d.toks))
		start := 0
		for k, t := range d.toks {
			if t.text == "\n" {
				start = k + 1
			}
			d.lines[k] = start
		}
	}
	return d.lines[p]
}

func newDoc(text string, opt Options) *doc {
	toks, sents := tokenize(text)
	d := &doc{text: text, toks: toks, sents: sents, opt: opt, cover: make([]int, len(toks))}
	d.lower = true
	for _, r := range text {
		if unicode.IsUpper(r) {
			d.lower = false
			break
		}
	}
	return d
}

// span returns the text of tokens [i, j).
func (d *doc) span(i, j int) string { return d.text[d.toks[i].start:d.toks[j-1].end] }

// nameLike reports whether token k is a capitalised word, or any word in
// an all-lower-case text.
func (d *doc) nameLike(k int) bool {
	t := d.toks[k]
	return t.word && (t.capital || d.lower)
}

// prevWord returns the lower-case word before token k in its sentence, or "".
func (d *doc) prevWord(k int) string {
	if k-1 >= 0 && d.toks[k-1].sent == d.toks[k].sent {
		return d.toks[k-1].low
	}
	return ""
}
