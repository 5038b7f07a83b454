// Package deck writes a company's pitch deck as an editable PowerPoint file
// (OOXML PresentationML, .pptx) and as plain text, and validates a .pptx
// package in Go. It is pure: values in, bytes out; no I/O, no clock.
//
// The .pptx is written by hand with the standard library (archive/zip and
// XML text) because no maintained pure-Go PresentationML writer exists and
// the deck needs only a small, fixed set of parts: one slide master with its
// theme, two slide layouts (title, title and content), a notes master when a
// slide has speaker notes, and the slides. Every text sits in a real
// placeholder or text box, so it stays editable in PowerPoint and LibreOffice.
//
// Long bullet lists are split, not hidden: a Slide's bullets are laid out on
// pages of at most MaxBulletsPerPage bullets whose estimated height fits the
// body at MinPackedFontSize; further pages repeat the title followed by
// " (cont.)". The body also carries <a:normAutofit/>, so text that the
// estimate gets wrong (or that a founder adds later) shrinks to fit instead
// of running off the slide.
package deck

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Deck is one pitch deck: a title slide (Title, Subtitle) followed by
// Slides in order.
type Deck struct {
	// Title is the company name, shown on the title slide and written as
	// the document title in docProps/core.xml.
	Title string
	// Subtitle is one line under the title (the idea).
	Subtitle string
	// Slides follow the title slide in order.
	Slides []Slide
	// Generated is written into docProps/core.xml (dcterms:created and
	// dcterms:modified) and as the zip entries' time, so the bytes are a
	// function of the Deck alone. A zero time leaves the dates out of
	// core.xml and stamps the entries 1980-01-01 (the zip format's epoch).
	Generated time.Time
}

// Slide is one content slide: a title, bullets, an optional footer line
// naming where its numbers or text came from, and optional speaker notes.
type Slide struct {
	// Title is the slide's heading.
	Title string
	// Bullets are plain-text paragraphs. Characters XML 1.0 forbids are
	// removed, invalid UTF-8 becomes U+FFFD, and a newline inside a bullet
	// becomes a line break within the same paragraph.
	Bullets []string
	// Notes are speaker notes, written as a notes slide when not empty
	// (on the first page of a Slide that continues over several pages).
	Notes string
	// Source is a footer line saying where the numbers or text came from,
	// e.g. "From the company's systems: 0 deals, 0 invoices". It is
	// repeated on every page of the Slide.
	Source string
}

// PPTX writes d as an editable 16:9 .pptx: a title slide, then one slide
// per page of each Slide (see the package comment for continuation pages).
// The same Deck always gives the same bytes (for a given Go release, whose
// compress/flate output is not promised across releases). The result
// passes Validate and has SlideCount(d) slides. An error means the zip
// could not be written.
func PPTX(d Deck) ([]byte, error) {
	pkg := build(d)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	stamp := zipTime(d.Generated)
	for _, p := range pkg {
		w, err := zw.CreateHeader(&zip.FileHeader{
			Name:     p.name,
			Method:   zip.Deflate,
			Modified: stamp,
		})
		if err != nil {
			return nil, fmt.Errorf("deck: create %s: %w", p.name, err)
		}
		if _, err := w.Write([]byte(p.body)); err != nil {
			return nil, fmt.Errorf("deck: write %s: %w", p.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("deck: close zip: %w", err)
	}
	return buf.Bytes(), nil
}

// SlideCount is the number of slides PPTX(d) writes: the title slide plus
// every page of every Slide (a Slide with no bullets is one page).
func SlideCount(d Deck) int {
	n := 1
	for _, s := range d.Slides {
		n += len(paginate(s))
	}
	return n
}

// Text writes d as plain UTF-8 text with the same content as the .pptx:
// the title, the subtitle, then for each Slide a blank line, its title, its
// bullets as "- " lines (continuation lines of a multi-line bullet indented
// by two spaces), its source line and, when present, "Notes: " and its
// notes. Empty fields are left out; text is cleaned as for the .pptx.
func Text(d Deck) []byte {
	var b strings.Builder
	line := func(prefix, s string) {
		s = clean(s)
		if strings.TrimSpace(s) == "" {
			return
		}
		for i, l := range strings.Split(s, "\n") {
			if i == 0 {
				b.WriteString(prefix)
			} else {
				b.WriteString(strings.Repeat(" ", len(prefix)))
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	line("", d.Title)
	line("", d.Subtitle)
	for _, s := range d.Slides {
		b.WriteByte('\n')
		line("", s.Title)
		for _, bl := range s.Bullets {
			line("- ", bl)
		}
		line("", s.Source)
		line("Notes: ", s.Notes)
	}
	return []byte(b.String())
}

// zipTime is the entries' modification time: Generated in UTC to the
// second, never before the zip epoch.
func zipTime(t time.Time) time.Time {
	epoch := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	t = t.UTC().Truncate(time.Second)
	if t.Before(epoch) {
		return epoch
	}
	return t
}
