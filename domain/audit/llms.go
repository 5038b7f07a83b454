package audit

import (
	"net/url"
	"regexp"
	"strings"
)

// LLMsTxt is an llms.txt file read by the llmstxt.org format: an H1 with
// the site's name (the only required part), a blockquote summary, free
// text, then H2 sections of link lists "- [name](url): notes"; a section
// named "Optional" holds what can be skipped.
type LLMsTxt struct {
	Title          string        `json:"title"`
	H1First        bool          `json:"h1_first"`         // the first non-blank line is "# Title"
	Summary        string        `json:"summary"`          // the blockquote
	SummaryAfterH1 bool          `json:"summary_after_h1"` // the next non-blank line after the H1 is "> ..."
	Sections       []LLMsSection `json:"sections"`
	Links          []LLMsLink    `json:"links"` // every list-item link, in order (any section or none)
}

// LLMsSection is one H2 section.
type LLMsSection struct {
	Name  string     `json:"name"`
	Links []LLMsLink `json:"links"`
}

// LLMsLink is one "- [name](url): notes" list item.
type LLMsLink struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Notes string `json:"notes,omitempty"`
}

var (
	llmsLinkItem = regexp.MustCompile(`^[-*+]\s+\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)\s*(?::\s*(.*))?$`)
	mdAnyLink    = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
)

// ParseLLMsTxt reads an llms.txt body. Lines inside fenced code blocks are
// skipped.
func ParseLLMsTxt(body []byte) LLMsTxt {
	text := strings.ReplaceAll(string(trimBOM(body)), "\r\n", "\n")
	var doc LLMsTxt
	var cur *LLMsSection
	seen := 0 // non-blank lines seen
	h1Line := -1
	lastQuote := -1
	fenced := false
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fenced = !fenced
			seen++
			continue
		}
		if fenced || line == "" {
			continue
		}
		seen++
		switch {
		case strings.HasPrefix(line, "# "):
			if doc.Title == "" {
				doc.Title = strings.TrimSpace(line[2:])
				doc.H1First = seen == 1
				h1Line = seen
			}
		case strings.HasPrefix(line, ">"):
			if h1Line > 0 && (seen == h1Line+1 || doc.SummaryAfterH1 && seen == lastQuote+1) {
				doc.SummaryAfterH1 = true
				lastQuote = seen
				if q := strings.TrimSpace(strings.TrimPrefix(line, ">")); q != "" {
					if doc.Summary != "" {
						doc.Summary += " "
					}
					doc.Summary += q
				}
			}
		case strings.HasPrefix(line, "## "):
			doc.Sections = append(doc.Sections, LLMsSection{Name: strings.TrimSpace(line[3:])})
			cur = &doc.Sections[len(doc.Sections)-1]
		default:
			if m := llmsLinkItem.FindStringSubmatch(line); m != nil {
				l := LLMsLink{Name: strings.TrimSpace(m[1]), URL: m[2], Notes: strings.TrimSpace(m[3])}
				doc.Links = append(doc.Links, l)
				if cur != nil {
					cur.Links = append(cur.Links, l)
				}
			}
		}
	}
	return doc
}

// allURLs is every markdown link target in the body (list items or not).
func llmsAllURLs(body []byte) []string {
	var out []string
	for _, m := range mdAnyLink.FindAllSubmatch(body, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// linkResolves reports whether an llms.txt link is an absolute http(s) URL
// or a reference that resolves to one against the llms.txt URL (a
// site-relative "/docs/x.md" or a relative "docs/x.md"); empty, fragment-
// only and other-scheme links do not.
func linkResolves(raw string) bool {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.HasPrefix(raw, "#") {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if u.Scheme != "" {
		return (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	}
	return u.Opaque == "" && (u.Path != "" || u.Host != "")
}
