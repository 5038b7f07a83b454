package audit

import (
	"reflect"
	"testing"
)

func TestExtractJSONLD(t *testing.T) {
	page := `<html><head>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","name":"E","url":"https://e.com"}</script>
<script type=" Application/LD+JSON; charset=utf-8 ">[{"@context":"http://schema.org/","@type":"Organization","name":"E"}]</script>
<script type="application/json">{"@type":"Product"}</script>
<script>var x = 1;</script>
<script type="application/ld+json">{"@type": "Thing",}</script>
</head><body></body></html>`
	blocks := ExtractJSONLD([]byte(page))
	if len(blocks) != 3 {
		t.Fatalf("%d blocks", len(blocks))
	}
	if !blocks[0].Valid || !blocks[0].SchemaOrg || !blocks[1].Valid || !blocks[1].SchemaOrg {
		t.Errorf("%+v %+v", blocks[0], blocks[1])
	}
	if blocks[2].Valid {
		t.Errorf("trailing comma accepted")
	}
}

func TestJSONLDEntitiesGraph(t *testing.T) {
	blocks := ExtractJSONLD([]byte(`<script type="application/ld+json">{"@context":{"@vocab":"https://schema.org/"},"@graph":[
 {"@type":["schema:Organization","Thing"],"name":"E","founder":{"@type":"Person","name":"Ada"}},
 {"@type":"https://schema.org/WebSite","name":"E"}]}</script>`))
	if len(blocks) != 1 || !blocks[0].SchemaOrg {
		t.Fatalf("%+v", blocks)
	}
	var types [][]string
	for _, e := range JSONLDEntities(blocks[0].Value) {
		types = append(types, e.Types)
	}
	want := [][]string{{"Organization", "Thing"}, {"Person"}, {"WebSite"}}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("types %v, want %v", types, want)
	}
}

func TestContextIsSchemaOrg(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{"https://schema.org", true},
		{"http://schema.org/", true},
		{[]any{"https://www.w3.org/ns/activitystreams", "https://schema.org"}, true},
		{map[string]any{"@vocab": "https://schema.org/"}, true},
		{map[string]any{"s": "https://schema.org/"}, true},
		{"https://example.com/vocab", false},
		{nil, false},
	} {
		if got := contextIsSchemaOrg(c.v); got != c.want {
			t.Errorf("%v: %v", c.v, got)
		}
	}
}

func structuredScores(jsonld ...string) map[string]int {
	s := excellent()
	s.Home = get("/", 200, htmlUTF8, homeHTML(jsonld...))
	out := map[string]int{}
	for _, f := range checkStructured(s).Findings {
		out[f.ID[len("structured_data."):]] = f.Earned
	}
	return out
}

func TestCheckStructuredSubPoints(t *testing.T) {
	cases := []struct {
		name   string
		blocks []string
		want   map[string]int
	}{
		{"product complete", []string{`{"@context":"https://schema.org","@type":"Product","name":"W","description":"A widget","offers":{"@type":"Offer","price":"9"}}`},
			map[string]int{"jsonld_present": 4, "context": 3, "recognised_type": 4, "key_properties": 4}},
		{"unrecognised type", []string{`{"@context":"https://schema.org","@type":"Thing","name":"W"}`},
			map[string]int{"recognised_type": 0, "key_properties": 0}},
		{"one good one invalid", []string{`{"@context":"https://schema.org","@type":"WebSite","name":"W","url":"https://e.com"}`, `{bad`},
			map[string]int{"context": 2, "recognised_type": 4, "key_properties": 4}},
		{"best entity counts", []string{`{"@context":"https://schema.org","@graph":[{"@type":"Article","headline":"H"},{"@type":"WebSite","name":"W","url":"https://e.com"}]}`},
			map[string]int{"key_properties": 4}},
		{"empty properties do not count", []string{`{"@context":"https://schema.org","@type":"WebAPI","name":"","description":"D","documentation":"https://e.com/openapi.json"}`},
			map[string]int{"key_properties": 2}},
		{"array of entities", []string{`[{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question"}]}]`},
			map[string]int{"context": 3, "recognised_type": 4, "key_properties": 4}},
	}
	for _, c := range cases {
		got := structuredScores(c.blocks...)
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s = %d, want %d (%v)", c.name, k, got[k], v, got)
			}
		}
	}
	// A JSON home page has no HTML to read.
	s := excellent()
	s.Home = get("/", 200, "application/json", `{"@context":"https://schema.org"}`)
	if c := checkStructured(s); c.Score != 0 {
		t.Errorf("json home scored %d", c.Score)
	}
}
