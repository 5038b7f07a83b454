package deck

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var generated = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// fixtures are the decks every property test runs on.
func fixtures() map[string]Deck {
	many := Deck{Title: "Many Co", Subtitle: "Lots of slides", Generated: generated}
	for i := 0; i < 40; i++ {
		s := Slide{Title: fmt.Sprintf("Slide %d", i), Source: fmt.Sprintf("From the company's systems: %d deals", i)}
		for j := 0; j < i%9; j++ {
			s.Bullets = append(s.Bullets, fmt.Sprintf("Point %d of slide %d", j, i))
		}
		if i%3 == 0 {
			s.Notes = fmt.Sprintf("Say something about slide %d.\nThen pause.", i)
		}
		many.Slides = append(many.Slides, s)
	}
	return map[string]Deck{
		"empty slides": {Title: "Acme", Subtitle: "Bookings for dog groomers", Generated: generated},
		"zero deck":    {},
		"many slides":  many,
		"unicode": {Title: "Çafé Zürich 東京 🚀", Subtitle: "مرحبا — שלום — Ελληνικά", Generated: generated, Slides: []Slide{{
			Title:   "Márket ñ 市場",
			Bullets: []string{"日本語のテキストがここにあります", "emoji 👩‍💻🎉 and combining e\u0301", "한국어 문장", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 beyond the BMP"},
			Notes:   "Notes in Ελληνικά",
			Source:  "From the company's systems: 0 deals, 0 invoices",
		}}},
		"xml special chars": {Title: `A & B <Co> "quoted" 'single'`, Subtitle: "]]> &amp; <![CDATA[ x ]]>", Generated: generated, Slides: []Slide{{
			Title:   "<script>alert('x')</script>",
			Bullets: []string{"a < b && c > d", `attr="x" & 'y'`, "&lt; stays literal", "<?xml version=\"1.0\"?>"},
			Notes:   "</p:notes> & more",
			Source:  "From <systems> & \"events\"",
		}}},
		"control characters": {Title: "Nul\x00Co\x01\x1f", Subtitle: "bell\a vt\v ff\f \uFFFE\uFFFF bad\xff\xfeutf8", Generated: generated, Slides: []Slide{{
			Title:   "Tab\there\x08",
			Bullets: []string{"line one\r\nline two\rline three\nline four", "\x00\x01\x02", "   ", "", "esc\x1b[31mred"},
			Notes:   "\x00notes\x7f",
			Source:  "src\x0c",
		}}},
		"long bullets": {Title: "Verbose", Generated: generated, Slides: []Slide{
			{Title: "Fourteen bullets", Bullets: numbered(14, "A short bullet")},
			{Title: "One huge bullet", Bullets: []string{strings.Repeat("A very long bullet that goes on. ", 100)}},
			{Title: "", Bullets: numbered(3, strings.Repeat("Medium length bullet text here. ", 8))},
		}},
	}
}

func numbered(n int, text string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%d. %s", i+1, text)
	}
	return out
}

// names are the fixture names in a fixed order.
func names(m map[string]Deck) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestValidateAcceptsEveryFixture(t *testing.T) {
	decks := fixtures()
	for _, name := range names(decks) {
		d := decks[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pptx, err := PPTX(d)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Validate(pptx)
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if want := SlideCount(d); n != want {
				t.Fatalf("Validate counted %d slides, SlideCount says %d", n, want)
			}
			if n < len(d.Slides)+1 {
				t.Fatalf("%d slides for %d Slides and a title slide", n, len(d.Slides))
			}
		})
	}
}

// unzip returns the parts of a package by name.
func unzip(t *testing.T, pptx []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pptx), int64(len(pptx)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name] = string(b)
	}
	return parts
}

// texts is the text of every <a:t> in an XML part, in order.
func texts(t *testing.T, doc string) []string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	var out []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Space == nsA && se.Name.Local == "t" {
			var s string
			if err := d.DecodeElement(&s, &se); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
}

// TestPPTXCarriesEveryText: every line of every field reaches a slide (or a
// notes slide) exactly as cleaned, so escaping loses nothing.
func TestPPTXCarriesEveryText(t *testing.T) {
	decks := fixtures()
	for _, name := range names(decks) {
		d := decks[name]
		pptx, err := PPTX(d)
		if err != nil {
			t.Fatal(err)
		}
		parts := unzip(t, pptx)
		all := map[string]bool{}
		for n, body := range parts {
			if strings.HasPrefix(n, "ppt/slides/slide") || strings.HasPrefix(n, "ppt/notesSlides/notesSlide") {
				for _, s := range texts(t, body) {
					all[s] = true
				}
			}
		}
		var fields []string
		fields = append(fields, d.Title, d.Subtitle)
		for _, s := range d.Slides {
			fields = append(fields, s.Title, s.Notes, s.Source)
			fields = append(fields, s.Bullets...)
		}
		for _, f := range fields {
			for _, line := range strings.Split(textOf(f), "\n") {
				if line != "" && !all[line] {
					t.Errorf("%s: %q is on no slide", name, line)
				}
			}
		}
	}
}

func TestControlCharactersAreDropped(t *testing.T) {
	d := fixtures()["control characters"]
	pptx, err := PPTX(d)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f]|\uFFFE|\uFFFF")
	for name, body := range unzip(t, pptx) {
		if loc := forbidden.FindStringIndex(body); loc != nil {
			t.Errorf("%s holds %q", name, body[loc[0]:loc[1]])
		}
	}
	txt := string(Text(d))
	if loc := forbidden.FindStringIndex(txt); loc != nil {
		t.Errorf("Text holds %q", txt[loc[0]:loc[1]])
	}
	if !strings.Contains(txt, "NulCo") || !strings.Contains(txt, "bad\uFFFD\uFFFDutf8") {
		t.Errorf("Text lost the surrounding characters:\n%s", txt)
	}
}

func TestPPTXIsDeterministic(t *testing.T) {
	for name, d := range fixtures() {
		a, err := PPTX(d)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := PPTX(d)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", name)
		}
	}
	d := fixtures()["unicode"]
	a, _ := PPTX(d)
	d.Generated = d.Generated.Add(time.Hour)
	b, _ := PPTX(d)
	if bytes.Equal(a, b) {
		t.Error("a different Generated time gave the same bytes")
	}
	core := unzip(t, a)["docProps/core.xml"]
	for _, want := range []string{
		`<dcterms:created xsi:type="dcterms:W3CDTF">2025-03-14T09:26:53Z</dcterms:created>`,
		`<dcterms:modified xsi:type="dcterms:W3CDTF">2025-03-14T09:26:53Z</dcterms:modified>`,
	} {
		if !strings.Contains(core, want) {
			t.Errorf("core.xml lacks %s:\n%s", want, core)
		}
	}
	if core := unzip(t, mustPPTX(t, Deck{Title: "x"}))["docProps/core.xml"]; strings.Contains(core, "dcterms:created") {
		t.Errorf("a zero Generated still wrote a date:\n%s", core)
	}
}

func mustPPTX(t *testing.T, d Deck) []byte {
	t.Helper()
	b, err := PPTX(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
