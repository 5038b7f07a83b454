package audit

import (
	"fmt"
	"strings"
)

const maxLLMsTxt = 15

// checkLLMsTxt scores /llms.txt by the llmstxt.org format (15 points).
func checkLLMsTxt(s Snapshot) CheckResult {
	r := s.LLMsTxt
	ev := describe(r)
	served := r.OK() && len(trimBOM(r.Body)) > 0 && !looksHTML(r.Body)
	var fs []Finding

	why := ev
	if r.OK() && looksHTML(r.Body) {
		why += "; the body is an HTML page, not llms.txt (a catch-all route?)"
	} else if r.OK() && len(trimBOM(r.Body)) == 0 {
		why += "; the body is empty"
	}
	fs = append(fs, finding("llms_txt.served", "/llms.txt is served (2xx, a non-empty text body)", 3, b2i(served, 3), why,
		"Publish a Markdown file at /llms.txt (https://llmstxt.org) describing the site for language models, and answer 200."))

	if !served {
		const fix = "Publish /llms.txt first (see llms_txt.served)."
		nf := "no llms.txt to read: " + ev
		fs = append(fs,
			finding("llms_txt.text_type", "Served as text/plain or text/markdown", 2, 0, nf, fix),
			finding("llms_txt.h1_first", "An H1 (# Name) is the first line", 3, 0, nf, fix),
			finding("llms_txt.summary", "A blockquote summary follows the H1", 2, 0, nf, fix),
			finding("llms_txt.sections", "H2 sections of markdown link lists", 3, 0, nf, fix),
			finding("llms_txt.optional", "An \"## Optional\" section", 1, 0, nf, fix),
			finding("llms_txt.links", "Links are absolute or site-relative URLs", 1, 0, nf, fix),
		)
		return result(CheckLLMsTxt, maxLLMsTxt, fs)
	}

	doc := ParseLLMsTxt(r.Body)
	mt := mediaType(r)
	textOK := mt == "text/plain" || mt == "text/markdown" || mt == "text/x-markdown"
	fs = append(fs, finding("llms_txt.text_type", "Served as text/plain or text/markdown", 2, b2i(textOK, 2),
		fmt.Sprintf("%s: Content-Type %q", r.URL, r.Header.Get("Content-Type")),
		"Serve /llms.txt with Content-Type: text/plain; charset=utf-8 (or text/markdown)."))

	first := firstLine(r.Body)
	fs = append(fs, finding("llms_txt.h1_first", "An H1 (# Name) is the first line", 3, b2i(doc.H1First, 3),
		fmt.Sprintf("%s: first line %q", r.URL, excerptString(first)),
		"Start the file with one H1 line naming the site or project: \"# Name\"."))

	fs = append(fs, finding("llms_txt.summary", "A blockquote summary follows the H1", 2, b2i(doc.SummaryAfterH1 && doc.Summary != "", 2),
		summaryEvidence(r.URL, doc),
		"Put a one-paragraph summary as a blockquote right after the H1: \"> What this site is and what it offers.\""))

	withLinks, h2 := 0, len(doc.Sections)
	for _, sec := range doc.Sections {
		if len(sec.Links) > 0 {
			withLinks++
		}
	}
	secPts := 0
	switch {
	case withLinks > 0:
		secPts = 3
	case h2 > 0 || len(doc.Links) > 0:
		secPts = 1
	}
	fs = append(fs, finding("llms_txt.sections", "H2 sections of markdown link lists", 3, secPts,
		fmt.Sprintf("%s: %d H2 %s, %d with link lists, %d list-item %s", r.URL, h2, plural(h2, "section", "sections"), withLinks, len(doc.Links), plural(len(doc.Links), "link", "links")),
		"Group the important pages under H2 headings (\"## Docs\"), each a list of \"- [Name](https://example.com/page.md): what it is\"."))

	optional := false
	for _, sec := range doc.Sections {
		if strings.EqualFold(strings.TrimSpace(sec.Name), "optional") {
			optional = true
		}
	}
	fs = append(fs, finding("llms_txt.optional", "An \"## Optional\" section", 1, b2i(optional, 1),
		fmt.Sprintf("%s: sections %s", r.URL, sectionNames(doc)),
		"Add an \"## Optional\" section for secondary links a model can skip when its context is short."))

	bad := []string{}
	for _, l := range doc.Links {
		if !linkResolves(l.URL) {
			bad = append(bad, fmt.Sprintf("%q", l.URL))
		}
	}
	linksOK := len(doc.Links) > 0 && len(bad) == 0
	lev := fmt.Sprintf("%s: %d links, %d not resolvable", r.URL, len(doc.Links), len(bad))
	if len(bad) > 0 {
		lev += " (" + excerptString(strings.Join(bad, ", ")) + ")"
	}
	fs = append(fs, finding("llms_txt.links", "Links are absolute or site-relative URLs", 1, b2i(linksOK, 1), lev,
		"Use absolute https:// URLs or site-relative paths (/docs/page.md) in every list item; no empty or fragment-only links."))
	return result(CheckLLMsTxt, maxLLMsTxt, fs)
}

func b2i(ok bool, pts int) int {
	if ok {
		return pts
	}
	return 0
}

func firstLine(b []byte) string {
	for _, l := range strings.Split(string(trimBOM(b)), "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

func summaryEvidence(u string, doc LLMsTxt) string {
	if doc.SummaryAfterH1 && doc.Summary != "" {
		return fmt.Sprintf("%s: summary %q", u, excerptString(doc.Summary))
	}
	if doc.Title == "" {
		return u + ": no H1, so no summary after it"
	}
	return u + ": the line after the H1 is not a blockquote"
}

func sectionNames(doc LLMsTxt) string {
	if len(doc.Sections) == 0 {
		return "(none)"
	}
	var n []string
	for _, s := range doc.Sections {
		n = append(n, fmt.Sprintf("%q", s.Name))
	}
	return excerptString(strings.Join(n, ", "))
}
