package audit

import "testing"

func TestParseLLMsTxt(t *testing.T) {
	doc := ParseLLMsTxt([]byte("\xef\xbb\xbf\n# Example\n> Line one\n> line two.\n\nText.\n\n## Docs\n- [API](https://example.com/api.md): the API\n* [Guide](/guide.md)\n- not a link\n```\n## Not a section\n- [Fenced](/x)\n```\n## Optional\n- [Blog](blog.md \"title\")\n"))
	if doc.Title != "Example" || !doc.H1First {
		t.Errorf("title %q h1first %v", doc.Title, doc.H1First)
	}
	if !doc.SummaryAfterH1 || doc.Summary != "Line one line two." {
		t.Errorf("summary %q %v", doc.Summary, doc.SummaryAfterH1)
	}
	if len(doc.Sections) != 2 || doc.Sections[0].Name != "Docs" || doc.Sections[1].Name != "Optional" {
		t.Fatalf("sections %+v", doc.Sections)
	}
	if len(doc.Sections[0].Links) != 2 || doc.Sections[0].Links[0] != (LLMsLink{"API", "https://example.com/api.md", "the API"}) {
		t.Errorf("links %+v", doc.Sections[0].Links)
	}
	if l := doc.Sections[1].Links; len(l) != 1 || l[0].URL != "blog.md" {
		t.Errorf("optional links %+v", l)
	}
	if len(doc.Links) != 3 {
		t.Errorf("all links %+v", doc.Links)
	}
}

func TestParseLLMsTxtShapes(t *testing.T) {
	cases := []struct {
		name             string
		body             string
		h1First, summary bool
	}{
		{"text before the H1", "Intro\n# Example\n> Summary\n", false, true},
		{"no blockquote", "# Example\nSome text\n> late quote\n", true, false},
		{"blank lines between", "\n\n# Example\n\n\n> Summary\n", true, true},
		{"H2 first", "## Docs\n# Example\n", false, false},
		{"no space after #", "#Example\n> s\n", false, false},
	}
	for _, c := range cases {
		doc := ParseLLMsTxt([]byte(c.body))
		if doc.H1First != c.h1First || doc.SummaryAfterH1 != c.summary {
			t.Errorf("%s: h1First %v summary %v", c.name, doc.H1First, doc.SummaryAfterH1)
		}
	}
}

func TestLinkResolves(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://example.com/a.md": true,
		"/docs/a.md":               true,
		"docs/a.md":                true,
		"//example.com/a":          true,
		"":                         false,
		"#top":                     false,
		"mailto:a@example.com":     false,
		"javascript:alert(1)":      false,
		"ftp://example.com/a":      false,
		"http://":                  false,
	} {
		if got := linkResolves(raw); got != want {
			t.Errorf("linkResolves(%q) = %v", raw, got)
		}
	}
}

func llmsScores(body, ct string, status int) map[string]int {
	s := excellent()
	s.LLMsTxt = get("/llms.txt", status, ct, body)
	out := map[string]int{}
	for _, f := range checkLLMsTxt(s).Findings {
		out[f.ID[len("llms_txt."):]] = f.Earned
	}
	return out
}

func TestCheckLLMsSubPoints(t *testing.T) {
	cases := []struct {
		name string
		body string
		ct   string
		want map[string]int
	}{
		{"markdown type", excellentLLMs, "text/markdown; charset=utf-8", map[string]int{"text_type": 2}},
		{"octet-stream", excellentLLMs, "application/octet-stream", map[string]int{"served": 3, "text_type": 0, "h1_first": 3}},
		{"H2 without links", "# E\n> s\n## Docs\nJust text.\n", "text/plain", map[string]int{"sections": 1, "optional": 0, "links": 0}},
		{"links without H2", "# E\n> s\n- [a](/a)\n", "text/plain", map[string]int{"sections": 1, "links": 1}},
		{"bad link", "# E\n> s\n## Docs\n- [a](/a)\n- [b](javascript:x)\n## optional\n- [c](/c)\n", "text/plain", map[string]int{"sections": 3, "optional": 1, "links": 0}},
		{"empty body", "  \n", "text/plain", map[string]int{"served": 0, "text_type": 0}},
	}
	for _, c := range cases {
		got := llmsScores(c.body, c.ct, 200)
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s = %d, want %d (%v)", c.name, k, got[k], v, got)
			}
		}
	}
}
