package memory

import (
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Tokens counts tokens with OpenAI's cl100k_base byte-pair encoding (the
// vocabulary is compiled into the binary: no download). Counting falls
// back to one token per three bytes (an overestimate) if the encoding
// cannot be loaded, so a budget is never exceeded.
type Tokens struct {
	once  sync.Once
	codec tokenizer.Codec
}

// Name names the encoding that counts.
func (t *Tokens) Name() string { return string(tokenizer.Cl100kBase) }

func (t *Tokens) load() tokenizer.Codec {
	t.once.Do(func() {
		c, err := tokenizer.Get(tokenizer.Cl100kBase)
		if err == nil {
			t.codec = c
		}
	})
	return t.codec
}

// Count returns the number of tokens of s.
func (t *Tokens) Count(s string) int {
	if c := t.load(); c != nil {
		if n, err := c.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 2) / 3
}

// Cut returns the longest prefix of s (whole characters) of at most max
// tokens.
func (t *Tokens) Cut(s string, max int) string {
	if t.Count(s) <= max {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // prefix of lo runes fits; of hi does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if t.Count(string(runes[:mid])) <= max {
			lo = mid
		} else {
			hi = mid
		}
	}
	out := string(runes[:lo])
	if !utf8.ValidString(out) {
		return ""
	}
	return out
}
