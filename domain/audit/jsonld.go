package audit

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// JSONLDBlock is one <script type="application/ld+json"> of a page.
type JSONLDBlock struct {
	Raw   string `json:"raw"`
	Valid bool   `json:"valid"` // parses as JSON
	Value any    `json:"-"`
	// SchemaOrg: every top-level object (of the block, its array or
	// @graph container) carries an @context naming schema.org.
	SchemaOrg bool `json:"schema_org"`
}

// ExtractJSONLD finds the JSON-LD script blocks of an HTML document.
func ExtractJSONLD(page []byte) []JSONLDBlock {
	var out []JSONLDBlock
	z := html.NewTokenizer(bytes.NewReader(page))
	inLD := false
	var buf strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF && inLD {
				out = append(out, newBlock(buf.String()))
			}
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "script" {
				continue
			}
			isLD := false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "type" {
					mt, _, err := mime.ParseMediaType(strings.TrimSpace(string(v)))
					if err != nil {
						mt = strings.ToLower(strings.TrimSpace(string(v)))
					}
					isLD = mt == "application/ld+json"
				}
			}
			if isLD {
				inLD = true
				buf.Reset()
			}
		case html.TextToken:
			if inLD {
				buf.Write(z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if inLD && string(name) == "script" {
				out = append(out, newBlock(buf.String()))
				inLD = false
			}
		}
	}
}

func newBlock(raw string) JSONLDBlock {
	b := JSONLDBlock{Raw: strings.TrimSpace(raw)}
	var v any
	if err := json.Unmarshal([]byte(b.Raw), &v); err != nil {
		return b
	}
	b.Valid, b.Value = true, v
	b.SchemaOrg = topLevelSchemaOrg(v)
	return b
}

// topLevelSchemaOrg: an object with a schema.org @context, or an array of
// such objects.
func topLevelSchemaOrg(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return contextIsSchemaOrg(x["@context"])
	case []any:
		if len(x) == 0 {
			return false
		}
		for _, e := range x {
			if !topLevelSchemaOrg(e) {
				return false
			}
		}
		return true
	}
	return false
}

func contextIsSchemaOrg(c any) bool {
	switch x := c.(type) {
	case string:
		return strings.Contains(strings.ToLower(x), "schema.org")
	case []any:
		for _, e := range x {
			if contextIsSchemaOrg(e) {
				return true
			}
		}
	case map[string]any:
		if contextIsSchemaOrg(x["@vocab"]) {
			return true
		}
		for _, e := range x {
			if s, ok := e.(string); ok && strings.Contains(strings.ToLower(s), "schema.org") {
				return true
			}
		}
	}
	return false
}

// JSONLDEntity is one typed node: its types (short names) and properties.
type JSONLDEntity struct {
	Types []string
	Props map[string]any
}

// JSONLDEntities walks a value (objects, arrays, @graph) and lists its
// typed nodes, nested ones included, in document order.
func JSONLDEntities(v any) []JSONLDEntity {
	var out []JSONLDEntity
	var walk func(any, int)
	walk = func(v any, depth int) {
		if depth > 16 {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			if t := typesOf(x["@type"]); len(t) > 0 {
				out = append(out, JSONLDEntity{Types: t, Props: x})
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "@context" || k == "@type" {
					continue
				}
				walk(x[k], depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}

// typesOf normalises @type: "Organization", "schema:Organization" and
// "https://schema.org/Organization" are all "Organization".
func typesOf(v any) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if i := strings.LastIndexAny(s, "/:#"); i >= 0 {
			s = s[i+1:]
		}
		if s != "" {
			out = append(out, s)
		}
	}
	switch x := v.(type) {
	case string:
		add(x)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				add(s)
			}
		}
	}
	return out
}

// keyProperties are the properties the audit looks for per recognised
// type (documented in RUBRIC.md); a type not listed is not recognised.
var keyProperties = map[string][]string{
	"Organization":        {"name", "url", "logo"},
	"Corporation":         {"name", "url", "logo"},
	"LocalBusiness":       {"name", "address", "telephone"},
	"WebSite":             {"name", "url"},
	"WebPage":             {"name", "url"},
	"SoftwareApplication": {"name", "description", "applicationCategory"},
	"WebApplication":      {"name", "description", "applicationCategory"},
	"WebAPI":              {"name", "description", "documentation"},
	"Product":             {"name", "description", "offers"},
	"Service":             {"name", "description", "provider"},
	"Article":             {"headline", "author", "datePublished"},
	"NewsArticle":         {"headline", "author", "datePublished"},
	"BlogPosting":         {"headline", "author", "datePublished"},
	"TechArticle":         {"headline", "author", "datePublished"},
	"FAQPage":             {"mainEntity"},
	"BreadcrumbList":      {"itemListElement"},
	"Person":              {"name", "url"},
	"Event":               {"name", "startDate", "location"},
	"Dataset":             {"name", "description", "license"},
}

// RecognisedTypes lists the recognised schema.org types, sorted.
func RecognisedTypes() []string {
	out := make([]string, 0, len(keyProperties))
	for k := range keyProperties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func present(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(x) != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}
