package audit

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestParseLinkHeader(t *testing.T) {
	links := ParseLinkHeader([]string{
		`</openapi.json>; rel="service-desc"; type="application/openapi+json", </docs>; rel="service-doc"`,
		`<https://example.com/a,b>; title="x, \"y\"; z"; rel="alternate SERVICE-DESC"; rel="ignored"`,
		`<  /spaced  >;rel=preload`,
		`garbage, </after-garbage>; rel=next`,
	})
	got := make([]string, 0, len(links))
	for _, l := range links {
		got = append(got, l.URL+" "+strings.Join(l.Rel, "|"))
	}
	want := []string{
		"/openapi.json service-desc",
		"/docs service-doc",
		"https://example.com/a,b alternate|service-desc",
		"/spaced preload",
		"/after-garbage next",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if links[2].Params["title"] != `x, "y"; z` || !links[2].HasRel("Service-Desc") || links[0].Params["type"] != "application/openapi+json" {
		t.Errorf("params %+v %+v", links[2].Params, links[0].Params)
	}
}

func TestOpenAPICandidates(t *testing.T) {
	home := get("/app/", 200, htmlUTF8, "", "Link", `<spec/openapi.yaml>; rel="service-desc", <https://other.example.org/openapi.json>; rel="service-desc"`, "Link", `</openapi.json>; rel="describedby service-desc"`)
	catalog := get("/.well-known/api-catalog", 200, "application/linkset+json", `{"linkset":[
		{"anchor":"https://example.com/v2/","service-desc":[{"href":"openapi.json"},{"href":"/openapi.json"}]},
		{"anchor":"https://example.com/v3","service-doc":[{"href":"/docs"}]}]}`)
	llms := get("/llms.txt", 200, "text/plain", "# E\n## API\n- [Spec](/api/swagger.yaml)\n- [Guide](/guide.md)\n- [Other](https://elsewhere.net/openapi.json)\n- [Schema](/files/api-schema.json)\n")
	got := OpenAPICandidates("https://Example.com:443", home, catalog, llms)
	var lines []string
	for _, c := range got {
		lines = append(lines, c.Source+" "+c.URL)
	}
	want := []string{
		"link-header https://example.com/app/spec/openapi.yaml",
		"link-header https://example.com/openapi.json",
		"api-catalog https://example.com/v2/openapi.json",
		"llms.txt https://example.com/api/swagger.yaml",
		"llms.txt https://example.com/files/api-schema.json",
	}
	for _, p := range CommonOpenAPIPaths() {
		if p != "/openapi.json" {
			want = append(want, "common-path https://example.com"+p)
		}
	}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestOpenAPICandidatesCatalogShapes(t *testing.T) {
	for name, body := range map[string]string{
		"plain list of URLs":    `["/a.json"]`,
		"list of href objects":  `[{"href":"/a.json"}]`,
		"list of linkset items": `[{"service-desc":{"href":"/a.json"}}]`,
	} {
		got := OpenAPICandidates(origin, nil, get("/.well-known/api-catalog", 200, "application/json", body), nil)
		if len(got) == 0 || got[0] != (Candidate{origin + "/a.json", SourceAPICatalog}) {
			t.Errorf("%s: %+v", name, got[:min(2, len(got))])
		}
	}
	// A failed or non-JSON catalog adds nothing; without anything, the common paths.
	got := OpenAPICandidates(origin, nil, get("/.well-known/api-catalog", 404, "application/json", `["/a.json"]`), get("/llms.txt", 200, "text/html", homeHTML()))
	if len(got) != len(CommonOpenAPIPaths()) || got[0].Source != SourceCommonPath {
		t.Errorf("%+v", got)
	}
	if OpenAPICandidates("not a url", nil, nil, nil) != nil {
		t.Error("bad origin")
	}
}

func TestParseOpenAPI(t *testing.T) {
	cases := []struct {
		name, ct, body, format, errSub string
	}{
		{"3.1 JSON", "application/json", excellentSpec, formatOpenAPI3, ""},
		{"3.0 YAML", "application/yaml", jsonSpecToYAMLish(), formatOpenAPI3, ""},
		{"swagger JSON", "application/json", swaggerJSON, formatSwagger2, ""},
		{"swagger YAML", "application/yaml", brokenSwaggerYAML, formatSwagger2, ""},
		{"not a description", "application/json", `{"hello":"world"}`, "", "not an OpenAPI description"},
		{"HTML", "text/html", homeHTML(), "", "HTML"},
		{"empty", "application/json", "", "", "empty"},
		{"openapi 4", "application/json", `{"openapi":"4.0.0"}`, "", "unsupported"},
		{"broken ref", "application/json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"#/components/responses/Nope"}}}}}}`, "", "does not load"},
		{"external ref is not fetched", "application/json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"https://evil.example/r.json#/R"}}}}}}`, "", "does not load"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, format, err := parseSpec(get("/openapi", 200, c.ct, c.body))
			if c.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), c.errSub) {
					t.Fatalf("err %v, want %q", err, c.errSub)
				}
				return
			}
			if err != nil || format != c.format || doc == nil || doc.Paths.Len() == 0 {
				t.Fatalf("doc %v format %q err %v", doc != nil, format, err)
			}
		})
	}
	if _, err := ParseOpenAPI(get("/openapi.json", 404, "application/json", excellentSpec)); err == nil {
		t.Error("404 parsed")
	}
	if _, err := ParseOpenAPI(nil); err == nil {
		t.Error("nil parsed")
	}
}

func mustSpec(t *testing.T, body string) *openapi3.T {
	t.Helper()
	doc, err := ParseOpenAPI(get("/openapi.json", 200, "application/json", body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestAPIProbes(t *testing.T) {
	u, a, w := APIProbes(origin, nil)
	if u != (ProbeTarget{origin + "/api", "GET"}) || a != (ProbeTarget{origin + "/", "GET"}) || w != (ProbeTarget{origin + "/", "DELETE"}) {
		t.Errorf("defaults %v %v %v", u, a, w)
	}
	u, a, w = APIProbes(origin+"/", mustSpec(t, excellentSpec))
	if u != (ProbeTarget{origin + "/v1/widgets", "GET"}) || a != (ProbeTarget{origin + "/v1/status", "GET"}) || w != (ProbeTarget{origin + "/v1/status", "DELETE"}) {
		t.Errorf("excellent %v %v %v", u, a, w)
	}

	spec := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},
	 "servers":[{"url":"{scheme}://example.com/{base}","variables":{"scheme":{"default":"https"},"base":{"default":"api/v2"}}}],
	 "components":{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}}},
	 "paths":{
	  "/items/{id}":{"get":{"security":[{"k":[]}],"responses":{"200":{"description":"ok"}}}},
	  "/search":{"get":{"security":[{"k":[]}],"parameters":[{"name":"q","in":"query","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}},
	  "/me":{"get":{"security":[{"k":[]}],"responses":{"200":{"description":"ok"}}},"delete":{"responses":{"204":{"description":"gone"}}}},
	  "/open":{"get":{"security":[{}, {"k":[]}],"responses":{"200":{"description":"ok"}}},"delete":{"responses":{"204":{"description":"x"}}},"patch":{"responses":{"204":{"description":"x"}}}}
	 }}`
	u, a, w = APIProbes(origin, mustSpec(t, spec))
	if u != (ProbeTarget{origin + "/api/v2/me", "GET"}) {
		t.Errorf("unauth %v", u)
	}
	if a != (ProbeTarget{origin + "/api/v2/open", "GET"}) || w != (ProbeTarget{origin + "/api/v2/open", "PUT"}) {
		t.Errorf("accept %v wrong %v", a, w)
	}

	// A server on another origin is not probed.
	other := strings.Replace(excellentSpec, "https://example.com/v1", "https://api.other.net/v1", 1)
	u, _, _ = APIProbes(origin, mustSpec(t, other))
	if u.URL != origin+"/api" {
		t.Errorf("other origin %v", u)
	}
	// No servers: the origin's root.
	u, _, _ = APIProbes(origin, mustSpec(t, publicSpec))
	if u.URL != origin+"/v1/widgets" || u.Method != http.MethodGet {
		t.Errorf("relative server %v", u)
	}
}

func TestLooksLikeDescription(t *testing.T) {
	for raw, want := range map[string]bool{
		"/openapi.json": true, "/v1/swagger": true, "/v3/api-docs": true, "/api/spec.yaml": true,
		"/docs/guide.md": false, "/data.json": false, "/openapi/": true,
	} {
		if looksLikeDescription(raw) != want {
			t.Errorf("%s: %v", raw, !want)
		}
	}
}

func openAPIScores(t *testing.T, body, source string) map[string]int {
	s := excellent()
	s.OpenAPI = get("/openapi.json", 200, "application/json", body)
	s.OpenAPISource = source
	out := map[string]int{}
	for _, f := range checkOpenAPI(s).Findings {
		out[f.ID[len("openapi."):]] = f.Earned
	}
	return out
}

func TestCheckOpenAPISubPoints(t *testing.T) {
	thin := `{"openapi":"3.0.3","info":{"title":"T","version":""},"paths":{
	 "/a":{"get":{"summary":"A","responses":{"200":{"description":"ok"}}}},
	 "/b":{"get":{"responses":{"200":{"description":"ok"}}}},
	 "/c":{"get":{"description":"C","responses":{"200":{"description":"ok"}}}}}}`
	got := openAPIScores(t, thin, SourceCommonPath)
	want := map[string]int{"found": 4, "parses": 4, "info_paths": 1, "operations_documented": 1, "error_responses": 0, "components": 0, "discoverable": 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("thin: %v, want %v", got, want)
	}
	noPaths := `{"openapi":"3.1.0","info":{"title":"T","version":"1"}}`
	got = openAPIScores(t, noPaths, SourceAPICatalog)
	want = map[string]int{"found": 4, "parses": 4, "info_paths": 1, "operations_documented": 0, "error_responses": 0, "components": 0, "discoverable": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no paths: %v, want %v", got, want)
	}
}

func TestLooksLikeOpenAPI(t *testing.T) {
	for _, c := range []struct {
		r    *Response
		want bool
	}{
		{get("/openapi.json", 200, "application/json", excellentSpec), true},
		{get("/openapi.yaml", 200, "text/yaml", "# comment\nopenapi: 3.1.0\ninfo: {}\n"), true},
		{get("/swagger.yaml", 200, "application/yaml", brokenSwaggerYAML), true},
		{get("/openapi.json", 200, "text/html", homeHTML()), false},
		{get("/openapi.json", 200, "application/json", `{"hello":"world"}`), false},
		{get("/openapi.json", 404, "application/json", excellentSpec), false},
		{nil, false},
	} {
		if got := LooksLikeOpenAPI(c.r); got != c.want {
			t.Errorf("%s: %v", describe(c.r), got)
		}
	}
}
