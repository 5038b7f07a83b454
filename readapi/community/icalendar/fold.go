package icalendar

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// maxLineOctets is the RFC 5545 §3.1 limit of a physical line, CRLF excluded.
const maxLineOctets = 75

// writer collects folded content lines.
type writer struct{ buf bytes.Buffer }

func (w *writer) bytes() []byte { return w.buf.Bytes() }

// line writes one content line, which must be valid UTF-8 without CR or LF
// (escapeText and cleanURI make sure of it), folded and ended with CRLF. A fold
// goes at the last character boundary that keeps the physical line within
// maxLineOctets, so a multi-byte character moves whole to the next line.
func (w *writer) line(s string) {
	limit := maxLineOctets
	for len(s) > limit {
		cut := limit
		// s[cut] is the first byte that does not fit; step back to the start
		// of its character. A character has at most 4 bytes, so cut stays > 0.
		for !utf8.RuneStart(s[cut]) {
			cut--
		}
		w.buf.WriteString(s[:cut])
		w.buf.WriteString("\r\n ")
		s = s[cut:]
		limit = maxLineOctets - 1 // the leading space counts
	}
	w.buf.WriteString(s)
	w.buf.WriteString("\r\n")
}

// escapeText returns s as an RFC 5545 §3.3.11 TEXT value. Invalid UTF-8 bytes
// become U+FFFD (one per byte, as ranging over a string yields them); CRLF,
// lone CR and lone LF each become "\n"; "\", ";" and "," are backslash-escaped;
// HTAB is kept (TEXT allows it: TSAFE-CHAR includes WSP); other C0 control
// characters and DEL are removed. Newlines are recognised before control
// characters are removed, so "\r\x00\n" is two newlines.
func escapeText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	prevCR := false
	for _, r := range s {
		if r == '\n' && prevCR {
			prevCR = false
			continue // the LF of a CRLF already written as "\n"
		}
		prevCR = r == '\r'
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\r' || r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteRune(r)
		case isControl(r):
			// removed
		default:
			b.WriteRune(r) // utf8.RuneError for invalid bytes: written as U+FFFD
		}
	}
	return b.String()
}

// cleanURI returns s fit for a URI value: not escaped (a URI has its own
// escaping), but with every control character, CR and LF included, removed
// and invalid UTF-8 bytes replaced by U+FFFD.
func cleanURI(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if !isControl(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports the characters no value may hold raw: U+0000–U+001F and
// U+007F.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
