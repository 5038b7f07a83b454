package text

import (
	"sync"

	"github.com/kljensen/snowball/english"
)

// analyzerMemo bounds an Analyzer's memo; a full memo starts over.
const analyzerMemo = 1 << 16

// Analyzer is [Analyze] with a bounded memo of Snowball stems, for callers
// that analyse a lot of text with a recurring vocabulary (an index). Its
// results are exactly Analyze's. The zero value is ready to use; it is safe
// for concurrent use.
type Analyzer struct {
	mu    sync.RWMutex
	stems map[string]string
}

// Analyze is [Analyze], memoising stems.
func (a *Analyzer) Analyze(s string) []Token { return analyze(s, a) }

// stem is the Snowball stem of the lower-case ASCII word w with apostrophes
// removed, memoised when a is not nil.
func (a *Analyzer) stem(w string) string {
	if a == nil {
		return stripApostrophes(english.Stem(w, true))
	}
	a.mu.RLock()
	st, ok := a.stems[w]
	a.mu.RUnlock()
	if ok {
		return st
	}
	st = stripApostrophes(english.Stem(w, true))
	a.mu.Lock()
	if a.stems == nil || len(a.stems) >= analyzerMemo {
		a.stems = make(map[string]string)
	}
	a.stems[w] = st
	a.mu.Unlock()
	return st
}
