package text

import (
	"unicode"
	"unicode/utf8"
)

// rawWord is one word as the scanner sees it, before stop-word removal and
// stemming.
type rawWord struct {
	text string // lower-case, accent-folded; may hold internal ' - and .
	cap  bool   // the first rune was upper- or title-case in the source
	cjk  bool   // a single Han/Kana/Hangul character
	seg  int    // clause index
}

// scan splits s into raw words in order and hands each to emit. It never
// allocates more than the words themselves.
func scan(s string, emit func(rawWord)) {
	var buf []byte
	seg := 0
	inWord, capital, lastAlnum, lastDigit := false, false, false, false
	flush := func() {
		if len(buf) > 0 {
			// Trailing joiners (possible only after dropped marks) are not part
			// of the word.
			for len(buf) > 0 && (buf[len(buf)-1] == '\'' || buf[len(buf)-1] == '-' || buf[len(buf)-1] == '.') {
				buf = buf[:len(buf)-1]
			}
			if len(buf) > 0 {
				emit(rawWord{text: string(buf), cap: capital, seg: seg})
			}
		}
		buf = buf[:0]
		inWord, lastAlnum, lastDigit = false, false, false
	}
	next := func(i int) rune {
		if i >= len(s) {
			return -1
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		return r
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case isCJK(r):
			flush()
			emit(rawWord{text: string(unicode.ToLower(r)), cjk: true, seg: seg})
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				inWord = true
				capital = unicode.IsUpper(r) || unicode.IsTitle(r)
			}
			buf = appendFolded(buf, unicode.ToLower(r))
			lastAlnum, lastDigit = true, unicode.IsDigit(r)
		case r >= 0x300 && r <= 0x36F, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
			// Combining diacritics (accent folding) and variation selectors
			// (emoji presentation) are dropped without splitting the word.
		case unicode.IsMark(r):
			if inWord {
				buf = utf8.AppendRune(buf, r)
			}
		case r == '\'' || r == '\u2019' || r == '\u02BC':
			if inWord && lastAlnum && unicode.IsLetter(next(i)) {
				buf = append(buf, '\'')
				lastAlnum, lastDigit = false, false
			} else {
				flush()
			}
		case r == '-' || r == '\u2010' || r == '\u2011':
			if nx := next(i); inWord && lastAlnum && (unicode.IsLetter(nx) || unicode.IsDigit(nx)) && !isCJK(nx) {
				buf = append(buf, '-')
				lastAlnum, lastDigit = false, false
			} else {
				flush()
				seg++
			}
		case (r == '.' || r == ',') && lastDigit && unicode.IsDigit(next(i)):
			if r == '.' {
				buf = append(buf, '.')
			}
			lastAlnum, lastDigit = false, false
		default:
			flush()
			if unicode.IsPunct(r) || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
				seg++
			}
		}
	}
	flush()
}

// isCJK reports whether r is a Han, Hiragana, Katakana or Hangul character
// (including the Katakana-Hiragana prolonged sound mark), which the analyser
// treats as a token on its own.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || r == 0x30FC
}

// appendFolded appends the lower-case rune r to b, folding Latin letters with
// diacritics (Latin-1 Supplement and Latin Extended-A) to ASCII.
func appendFolded(b []byte, r rune) []byte {
	if r < 0xDF || r > 0x17F {
		return utf8.AppendRune(b, r)
	}
	if f := foldLatin(r); f != "" {
		return append(b, f...)
	}
	return utf8.AppendRune(b, r)
}

// foldLatin is the ASCII form of a lower-case Latin-1 or Latin Extended-A
// letter, or "" when it has none.
func foldLatin(r rune) string {
	switch {
	case r == 0xDF:
		return "ss"
	case r >= 0xE0 && r <= 0xE5:
		return "a"
	case r == 0xE6:
		return "ae"
	case r == 0xE7:
		return "c"
	case r >= 0xE8 && r <= 0xEB:
		return "e"
	case r >= 0xEC && r <= 0xEF:
		return "i"
	case r == 0xF0:
		return "d"
	case r == 0xF1:
		return "n"
	case r >= 0xF2 && r <= 0xF6, r == 0xF8:
		return "o"
	case r >= 0xF9 && r <= 0xFC:
		return "u"
	case r == 0xFD, r == 0xFF:
		return "y"
	case r == 0xFE:
		return "th"
	}
	// Latin Extended-A: upper/lower pairs share a base letter.
	for _, f := range [...]struct {
		lo, hi rune
		s      string
	}{
		{0x100, 0x105, "a"}, {0x106, 0x10D, "c"}, {0x10E, 0x111, "d"},
		{0x112, 0x11B, "e"}, {0x11C, 0x123, "g"}, {0x124, 0x127, "h"},
		{0x128, 0x131, "i"}, {0x132, 0x133, "ij"}, {0x134, 0x135, "j"},
		{0x136, 0x138, "k"}, {0x139, 0x142, "l"}, {0x143, 0x14B, "n"},
		{0x14C, 0x151, "o"}, {0x152, 0x153, "oe"}, {0x154, 0x159, "r"},
		{0x15A, 0x161, "s"}, {0x162, 0x167, "t"}, {0x168, 0x173, "u"},
		{0x174, 0x175, "w"}, {0x176, 0x178, "y"}, {0x179, 0x17E, "z"},
		{0x17F, 0x17F, "s"},
	} {
		if r >= f.lo && r <= f.hi {
			return f.s
		}
	}
	return ""
}
