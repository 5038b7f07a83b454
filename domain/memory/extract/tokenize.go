package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word or punctuation mark of a text, with byte offsets.
type token struct {
	text       string // surface form
	low        string // lower-cased surface form
	start, end int    // byte offsets in the text
	word       bool   // letters or digits (false: punctuation, symbol, emoji)
	capital    bool   // first rune is upper-case
	sentStart  bool   // first word of a sentence or of a clause after ':'
	sent       int    // sentence index
}

// sentence is a token range [from, to) ending at a sentence boundary.
type sentence struct {
	from, to int
	question bool
}

// abbreviations never end a sentence when followed by '.'.
var abbreviations = setOf("dr mr mrs ms mx prof st jr sr vs etc e.g i.e approx dept fig no")

// orgAbbreviations end a sentence only when the next word is capitalised.
var orgAbbreviations = setOf("inc corp ltd co llc plc")

func isCJK(r rune) bool {
	return r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// contractionSuffix reports whether s (lower-case letters after an
// apostrophe) is a clitic that is split off: 's 'm 'd 'll 're 've.
func contractionSuffix(s string) bool {
	switch s {
	case "s", "m", "d", "ll", "re", "ve":
		return true
	}
	return false
}

// tokenize splits text into tokens and sentences. Words keep internal
// '.', '-', '_' and trailing '+'/'#' (Node.js, scikit-learn, C++, C#);
// clitics ('s, n't, 'm, ...) become tokens of their own.
func tokenize(text string) ([]token, []sentence) {
	toks := make([]token, 0, len(text)/4+4)
	newline := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n' || r == '\r':
			newline = true
			i += size
			continue
		case unicode.IsSpace(r):
			i += size
			continue
		}
		if newline && len(toks) > 0 {
			toks = append(toks, token{text: "\n", low: "\n", start: i, end: i})
		}
		newline = false
		startsDotWord := r == '.' && i+1 < len(text) && isASCIILetter(text[i+1]) &&
			(i == 0 || text[i-1] == ' ')
		if !isWordRune(r) && !startsDotWord {
			toks = append(toks, token{text: text[i : i+size], low: text[i : i+size], start: i, end: i + size})
			i += size
			continue
		}
		j := scanWord(text, i, isCJK(r))
		word := text[i:j]
		// Split n't (don't -> do n't) and clitics ('s, 'm, ...).
		if k := clitic(word); k > 0 {
			toks = append(toks, newWordToken(text, i, i+k), newWordToken(text, i+k, j))
		} else {
			toks = append(toks, newWordToken(text, i, j))
		}
		i = j
	}
	return toks, segment(toks)
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// scanWord returns the end of the word starting at i.
func scanWord(text string, i int, cjk bool) int {
	_, size := utf8.DecodeRuneInString(text[i:])
	j := i + size
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if isWordRune(r) {
			if isCJK(r) != cjk && !unicode.IsMark(r) {
				break
			}
			j += size
			continue
		}
		if cjk {
			break
		}
		next, nsize := utf8.DecodeRuneInString(text[min(j+size, len(text)):])
		if nsize == 0 {
			next = 0
		}
		switch r {
		case '.', '-', '_':
			if isWordRune(next) && !isCJK(next) {
				j += size
				continue
			}
		case '\'', '’':
			if unicode.IsLetter(next) {
				j += size
				continue
			}
		case '+', '#':
			for j < len(text) && (text[j] == '+' || text[j] == '#') {
				j++
			}
			return j
		}
		break
	}
	return j
}

// clitic returns the byte length of the stem when word ends in a clitic
// ("Alice's" -> 5, "don't" -> 2), else 0.
func clitic(word string) int {
	if !strings.ContainsAny(word, "'’") {
		return 0
	}
	lw := strings.ToLower(word)
	if strings.HasSuffix(lw, "n't") && len(lw) > 3 {
		return len(word) - 3
	}
	if strings.HasSuffix(lw, "n’t") && len(lw) > 5 {
		return len(word) - len("n’t")
	}
	for _, ap := range []string{"'", "’"} {
		k := strings.LastIndex(word, ap)
		if k > 0 && contractionSuffix(lw[k+len(ap):]) {
			return k
		}
	}
	return 0
}

func newWordToken(text string, i, j int) token {
	s := text[i:j]
	low := strings.ToLower(s)
	low = strings.ReplaceAll(low, "’", "'")
	r, _ := utf8.DecodeRuneInString(s)
	if r == '.' && len(s) > 1 {
		r, _ = utf8.DecodeRuneInString(s[1:])
	}
	return token{text: s, low: low, start: i, end: j, word: true, capital: unicode.IsUpper(r)}
}

// segment assigns sentence indices and returns the sentences.
func segment(toks []token) []sentence {
	var sents []sentence
	from := 0
	clauseStart := true
	for k := range toks {
		t := &toks[k]
		t.sent = len(sents)
		if t.word {
			t.sentStart = clauseStart
			clauseStart = false
		}
		end, question := false, false
		switch t.text {
		case "\n", "!", "。", "！", ";", "；":
			end = true
		case "?", "？":
			end, question = true, true
		case ":":
			clauseStart = true
		case ".":
			end = !abbreviationBefore(toks, k)
		}
		if end {
			sents = append(sents, sentence{from: from, to: k + 1, question: question})
			from = k + 1
			clauseStart = true
		}
	}
	if from < len(toks) {
		sents = append(sents, sentence{from: from, to: len(toks)})
	}
	return sents
}

// abbreviationBefore reports whether the '.' at k closes an abbreviation
// or an initial rather than a sentence.
func abbreviationBefore(toks []token, k int) bool {
	if k == 0 || !toks[k-1].word || toks[k-1].end != toks[k].start {
		return false
	}
	p := toks[k-1]
	if abbreviations[p.low] {
		return true
	}
	if utf8.RuneCountInString(p.text) == 1 && p.capital {
		return true // an initial: "J. Smith"
	}
	if orgAbbreviations[p.low] {
		return k+1 < len(toks) && toks[k+1].word && !toks[k+1].capital
	}
	return false
}

// setOf builds a read-only set from space-separated words.
func setOf(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
