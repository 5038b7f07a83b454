package deck

import (
	"strconv"
	"strings"
)

// XML namespaces and the declaration every part starts with.
const (
	xmlDecl = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	nsA     = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsR     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsP     = "http://schemas.openxmlformats.org/presentationml/2006/main"
	// nsPML declares the three namespaces a PresentationML part uses.
	nsPML = `xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`
)

// clean makes s safe for XML 1.0 text: CR LF and lone CR become LF, runes
// outside the XML 1.0 Char production (C0 controls other than tab and LF,
// U+FFFE, U+FFFF) are dropped, and invalid UTF-8 becomes U+FFFD.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\r':
			b.WriteByte('\n')
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20, r == 0xFFFE, r == 0xFFFF:
			// not an XML 1.0 character: dropped
		default:
			b.WriteRune(r) // invalid UTF-8 arrives here as U+FFFD
		}
	}
	return b.String()
}

// textOf is s cleaned and trimmed of surrounding white space.
func textOf(s string) string { return strings.TrimSpace(clean(s)) }

// esc escapes cleaned text for XML character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// runProps is a run's properties as element tag (a:rPr, a:endParaRPr): the
// font size in hundredths of a point (0 to inherit) and any child elements
// (a fill).
func runProps(tag string, size int, children string) string {
	attr := ` lang="en-US" dirty="0"`
	if size > 0 {
		attr += ` sz="` + strconv.Itoa(size) + `"`
	}
	if children == "" {
		return `<` + tag + attr + `/>`
	}
	return `<` + tag + attr + `>` + children + `</` + tag + `>`
}

// para writes one paragraph of cleaned text: each line a run, lines joined
// by <a:br/>. Empty text gives an empty paragraph, which DrawingML allows.
func para(b *strings.Builder, pPr, text string, size int, fill string) {
	b.WriteString(`<a:p>`)
	b.WriteString(pPr)
	props := runProps("a:rPr", size, fill)
	if text != "" {
		for i, line := range strings.Split(text, "\n") {
			if i > 0 {
				b.WriteString(`<a:br>` + props + `</a:br>`)
			}
			if line != "" {
				b.WriteString(`<a:r>` + props + `<a:t>` + esc(line) + `</a:t></a:r>`)
			}
		}
	}
	b.WriteString(runProps("a:endParaRPr", size, fill))
	b.WriteString(`</a:p>`)
}
