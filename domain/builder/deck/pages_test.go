package deck

import (
	"slices"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	d := Deck{
		Title:     "Acme <&> Co",
		Subtitle:  "Bookings for dog groomers",
		Generated: generated,
		Slides: []Slide{
			{
				Title:   "Traction",
				Bullets: []string{"3 deals in the CRM", "two\nlines", "  ", "1 invoice"},
				Source:  "From the company's systems: 3 deals, 1 invoice",
				Notes:   "Mention the pilot.\nThen the ask.",
			},
			{Title: "Empty"},
			{Title: "Ctrl\x00", Bullets: []string{"a\r\nb"}},
		},
	}
	want := `Acme <&> Co
Bookings for dog groomers

Traction
- 3 deals in the CRM
- two
  lines
- 1 invoice
From the company's systems: 3 deals, 1 invoice
Notes: Mention the pilot.
       Then the ask.

Empty

Ctrl
- a
  b
`
	if got := string(Text(d)); got != want {
		t.Errorf("Text:\n%s\nwant:\n%s", got, want)
	}
	if got := string(Text(Deck{})); got != "" {
		t.Errorf("Text of an empty deck = %q", got)
	}
}

func TestPaginate(t *testing.T) {
	huge := strings.Repeat("word ", 700)
	cases := []struct {
		name   string
		slide  Slide
		counts []int    // bullets per page
		titles []string // page titles
		sizes  []int    // font size per page
	}{
		{"no bullets", Slide{Title: "T"}, []int{0}, []string{"T"}, []int{2400}},
		{"blank bullets dropped", Slide{Title: "T", Bullets: []string{" ", "\x00", "x"}}, []int{1}, []string{"T"}, []int{2400}},
		{"six fit one page", Slide{Title: "T", Bullets: numbered(6, "short")}, []int{6}, []string{"T"}, []int{2400}},
		{"fourteen continue", Slide{Title: "T", Bullets: numbered(14, "short")}, []int{6, 6, 2},
			[]string{"T", "T (cont.)", "T (cont.)"}, []int{2400, 2400, 2400}},
		{"untitled continuation", Slide{Bullets: numbered(7, "short")}, []int{6, 1}, []string{"", "(cont.)"}, []int{2400, 2400}},
		{"long bullets split by height", Slide{Title: "T", Bullets: numbered(5, strings.Repeat("Medium length bullet text here. ", 8))},
			[]int{4, 1}, []string{"T", "T (cont.)"}, []int{1800, 2400}},
		{"a huge bullet alone at the smallest size", Slide{Title: "T", Bullets: []string{"before", huge, "after"}},
			[]int{1, 1, 1}, []string{"T", "T (cont.)", "T (cont.)"}, []int{2400, minFontSize, 2400}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pages := paginate(c.slide)
			var counts, sizes []int
			var titles []string
			for _, p := range pages {
				counts = append(counts, len(p.bullets))
				titles = append(titles, p.title)
				sizes = append(sizes, p.size)
			}
			if !slices.Equal(counts, c.counts) || !slices.Equal(sizes, c.sizes) || strings.Join(titles, "|") != strings.Join(c.titles, "|") {
				t.Errorf("pages: counts %v titles %q sizes %v; want %v %q %v", counts, titles, sizes, c.counts, c.titles, c.sizes)
			}
		})
	}
}

func TestNotesOnlyOnFirstPage(t *testing.T) {
	pages := paginate(Slide{Title: "T", Bullets: numbered(8, "x"), Notes: "say it", Source: "src"})
	if len(pages) != 2 || pages[0].notes != "say it" || pages[1].notes != "" {
		t.Fatalf("notes per page: %+v", pages)
	}
	if pages[0].source != "src" || pages[1].source != "src" {
		t.Errorf("the source line is not on every page: %+v", pages)
	}
	pptx := mustPPTX(t, Deck{Title: "N", Slides: []Slide{{Title: "T", Bullets: numbered(8, "x"), Notes: "say it"}}})
	if n, err := Validate(pptx); err != nil || n != 3 {
		t.Fatalf("Validate: %d slides, %v", n, err)
	}
	parts := unzip(t, pptx)
	if _, ok := parts["ppt/notesSlides/notesSlide1.xml"]; !ok {
		t.Error("no notes slide")
	}
	if _, ok := parts["ppt/notesSlides/notesSlide2.xml"]; ok {
		t.Error("a continuation page has notes")
	}
	if !strings.Contains(parts["ppt/slides/_rels/slide2.xml.rels"], "notesSlide1.xml") {
		t.Error("slide 2 does not relate to its notes")
	}
	if _, ok := unzip(t, mustPPTX(t, Deck{Title: "N"}))["ppt/notesMasters/notesMaster1.xml"]; ok {
		t.Error("a deck without notes carries a notes master")
	}
}
