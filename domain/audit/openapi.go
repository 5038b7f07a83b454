package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// OpenAPI description sources, in discovery order (Snapshot.OpenAPISource).
const (
	SourceLinkHeader = "link-header" // RFC 8631 Link: <...>; rel="service-desc" on the home response
	SourceAPICatalog = "api-catalog" // RFC 9727 /.well-known/api-catalog
	SourceLLMsTxt    = "llms.txt"    // a link in /llms.txt that looks like a description
	SourceCommonPath = "common-path" // a conventional path
)

// Candidate is a URL where an OpenAPI description may be, and how it was found.
type Candidate struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

var commonOpenAPIPaths = []string{
	"/openapi.json",
	"/openapi.yaml",
	"/swagger.json",
	"/api/openapi.json",
	"/v1/openapi.json",
	"/.well-known/openapi.json",
	"/docs/openapi.json",
	"/openapi.yml",
	"/api/openapi.yaml",
	"/swagger.yaml",
	"/api/swagger.json",
	"/v3/api-docs",
	"/api-docs",
}

// CommonOpenAPIPaths are the conventional paths tried last, in order (a copy).
func CommonOpenAPIPaths() []string { return append([]string(nil), commonOpenAPIPaths...) }

// OpenAPICandidates lists where to look for an OpenAPI description, in
// discovery order, deduplicated: the home response's RFC 8631 Link
// service-desc targets (relative references resolved against the home URL),
// the RFC 9727 api-catalog's service-desc links (a linkset; a plain JSON
// list of URLs or {href} objects is tolerated), links in llms.txt that look
// like descriptions, then CommonOpenAPIPaths. Only URLs on origin are kept:
// the quick scan stays on the site it was asked about (a description
// elsewhere would mean requests to a host nobody asked us to scan, and a
// link header could otherwise point the scanner anywhere).
func OpenAPICandidates(origin string, home, apiCatalog, llmsTxt *Response) []Candidate {
	org, ok := originOf(origin)
	if !ok {
		return nil
	}
	var out []Candidate
	seen := map[string]bool{}
	add := func(raw, base, source string) {
		u, ok := resolve(base, raw)
		if !ok || !sameOrigin(org, u) || seen[u] {
			return
		}
		seen[u] = true
		out = append(out, Candidate{URL: u, Source: source})
	}
	if home != nil && home.Err == "" && home.Header != nil {
		for _, l := range ParseLinkHeader(home.Header.Values("Link")) {
			if l.HasRel("service-desc") {
				add(l.URL, firstNonEmpty(baseURL(home), org+"/"), SourceLinkHeader)
			}
		}
	}
	if apiCatalog.OK() {
		for _, h := range apiCatalogDescs(apiCatalog.Body) {
			add(h.href, firstNonEmpty(h.anchor, baseURL(apiCatalog), org+"/"), SourceAPICatalog)
		}
	}
	if llmsTxt.OK() && !looksHTML(llmsTxt.Body) {
		for _, raw := range llmsAllURLs(llmsTxt.Body) {
			if looksLikeDescription(raw) {
				add(raw, firstNonEmpty(baseURL(llmsTxt), org+"/llms.txt"), SourceLLMsTxt)
			}
		}
	}
	for _, p := range commonOpenAPIPaths {
		add(p, org+"/", SourceCommonPath)
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// looksLikeDescription: a link whose path names openapi, swagger or
// api-docs, or a .json/.yaml/.yml file whose path mentions "api".
func looksLikeDescription(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return false
	}
	p := strings.ToLower(u.Path)
	for _, w := range []string{"openapi", "swagger", "api-docs"} {
		if strings.Contains(p, w) {
			return true
		}
	}
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if strings.HasSuffix(p, ext) && strings.Contains(p, "api") {
			return true
		}
	}
	return false
}

// Link is one RFC 8288 link from a Link header.
type Link struct {
	URL    string            `json:"url"`
	Rel    []string          `json:"rel"` // lower case
	Params map[string]string `json:"params,omitempty"`
}

// HasRel reports whether the link has the relation type (case-insensitive).
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// ParseLinkHeader parses Link header values (RFC 8288): comma-separated
// "<uri>; param=value; rel=\"a b\"" links, quoted strings with escapes,
// several values. Only a link's first rel parameter counts.
func ParseLinkHeader(values []string) []Link {
	var out []Link
	for _, v := range values {
		i := 0
		for i < len(v) {
			for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == ',') {
				i++
			}
			if i >= len(v) {
				break
			}
			if v[i] != '<' {
				// Not a link-value: skip to the next comma outside quotes.
				i = skipToComma(v, i)
				continue
			}
			end := strings.IndexByte(v[i:], '>')
			if end < 0 {
				break
			}
			l := Link{URL: strings.TrimSpace(v[i+1 : i+end]), Params: map[string]string{}}
			i += end + 1
			relSeen := false
			for i < len(v) {
				for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
					i++
				}
				if i >= len(v) || v[i] == ',' {
					break
				}
				if v[i] != ';' {
					i = skipToComma(v, i)
					break
				}
				i++
				for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
					i++
				}
				start := i
				for i < len(v) && v[i] != '=' && v[i] != ';' && v[i] != ',' && v[i] != ' ' && v[i] != '\t' {
					i++
				}
				name := strings.ToLower(v[start:i])
				for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
					i++
				}
				val := ""
				if i < len(v) && v[i] == '=' {
					i++
					for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
						i++
					}
					if i < len(v) && v[i] == '"' {
						i++
						var b strings.Builder
						for i < len(v) && v[i] != '"' {
							if v[i] == '\\' && i+1 < len(v) {
								i++
							}
							b.WriteByte(v[i])
							i++
						}
						i++ // closing quote
						val = b.String()
					} else {
						start := i
						for i < len(v) && v[i] != ';' && v[i] != ',' && v[i] != ' ' && v[i] != '\t' {
							i++
						}
						val = v[start:i]
					}
				}
				if name == "" {
					continue
				}
				if name == "rel" {
					if relSeen {
						continue
					}
					relSeen = true
					l.Rel = strings.Fields(strings.ToLower(val))
					continue
				}
				if _, dup := l.Params[name]; !dup {
					l.Params[name] = val
				}
			}
			if len(l.Params) == 0 {
				l.Params = nil
			}
			out = append(out, l)
		}
	}
	return out
}

func skipToComma(v string, i int) int {
	inQuote := false
	for i < len(v) {
		switch v[i] {
		case '"':
			inQuote = !inQuote
		case '\\':
			if inQuote {
				i++
			}
		case ',':
			if !inQuote {
				return i
			}
		}
		i++
	}
	return i
}

type catalogLink struct{ href, anchor string }

// apiCatalogDescs reads service-desc hrefs from an RFC 9727 api-catalog
// (application/linkset+json: {"linkset":[{"anchor":..., "service-desc":[{"href":...}]}]}),
// tolerating a plain JSON list of URL strings, {href}/{url} objects or
// linkset entries.
func apiCatalogDescs(body []byte) []catalogLink {
	var v any
	if err := json.Unmarshal(trimBOM(body), &v); err != nil {
		return nil
	}
	var out []catalogLink
	entry := func(e any) {
		switch x := e.(type) {
		case string:
			out = append(out, catalogLink{href: x})
		case map[string]any:
			anchor, _ := x["anchor"].(string)
			if sd, ok := x["service-desc"]; ok {
				for _, t := range asList(sd) {
					switch t := t.(type) {
					case map[string]any:
						if h, ok := t["href"].(string); ok {
							out = append(out, catalogLink{href: h, anchor: anchor})
						}
					case string:
						out = append(out, catalogLink{href: t, anchor: anchor})
					}
				}
				return
			}
			for _, k := range []string{"href", "url"} {
				if h, ok := x[k].(string); ok {
					out = append(out, catalogLink{href: h})
					return
				}
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if ls, ok := x["linkset"]; ok {
			for _, e := range asList(ls) {
				entry(e)
			}
		} else {
			entry(x)
		}
	case []any:
		for _, e := range x {
			entry(e)
		}
	}
	return out
}

func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	if v == nil {
		return nil
	}
	return []any{v}
}

// Spec formats reported by the openapi check.
const (
	formatOpenAPI3 = "openapi3"
	formatSwagger2 = "swagger2"
)

var yamlVersion = regexp.MustCompile(`(?m)^["']?(openapi|swagger)["']?\s*:\s*["']?([0-9][0-9A-Za-z.\-]*)`)

// LooksLikeOpenAPI reports whether a fetched candidate is an OpenAPI or
// Swagger document (2xx, not HTML, a top-level openapi or swagger field),
// whether or not it then loads: the scanner stops at the first candidate
// that does, and the openapi check counts it as found.
func LooksLikeOpenAPI(r *Response) bool {
	if !r.OK() {
		return false
	}
	body := trimBOM(r.Body)
	if len(body) == 0 || looksHTML(body) {
		return false
	}
	kind, _ := specVersion(body)
	return kind != ""
}

// ParseOpenAPI parses a fetched description: OpenAPI 3.0 or 3.1 (JSON or
// YAML, through kin-openapi's loader, tolerant of what it loads of 3.1),
// or Swagger 2.0 (JSON or YAML) converted to 3.0 with openapi2conv.
// External references are not followed (no network).
func ParseOpenAPI(r *Response) (*openapi3.T, error) {
	doc, _, err := parseSpec(r)
	return doc, err
}

// parseSpec is ParseOpenAPI plus the format it found.
func parseSpec(r *Response) (doc *openapi3.T, format string, err error) {
	if r == nil {
		return nil, "", errors.New("no description fetched")
	}
	if r.Err != "" {
		return nil, "", errors.New("request failed: " + r.Err)
	}
	if !r.OK() {
		return nil, "", fmt.Errorf("status %d", r.Status)
	}
	body := trimBOM(r.Body)
	if len(body) == 0 {
		return nil, "", errors.New("empty body")
	}
	if looksHTML(body) {
		return nil, "", errors.New("the body is an HTML page, not a description")
	}
	defer func() {
		if p := recover(); p != nil {
			doc, format, err = nil, "", fmt.Errorf("the description could not be loaded: %v", p)
		}
	}()
	kind, version := specVersion(body)
	switch kind {
	case "swagger":
		if !strings.HasPrefix(version, "2") {
			return nil, "", fmt.Errorf("unsupported swagger version %q", version)
		}
		js := body
		if !json.Valid(body) {
			var y any
			if err := yaml.Unmarshal(body, &y); err != nil {
				return nil, "", fmt.Errorf("swagger 2.0 YAML does not parse: %v", err)
			}
			js, err = json.Marshal(jsonable(y))
			if err != nil {
				return nil, "", fmt.Errorf("swagger 2.0 YAML does not convert: %v", err)
			}
		}
		var d2 openapi2.T
		if err := json.Unmarshal(js, &d2); err != nil {
			return nil, "", fmt.Errorf("swagger 2.0 does not parse: %v", err)
		}
		d3, err := openapi2conv.ToV3(&d2)
		if err != nil {
			return nil, "", fmt.Errorf("swagger 2.0 does not convert to OpenAPI 3: %v", err)
		}
		return d3, formatSwagger2, nil
	case "openapi":
		if !strings.HasPrefix(version, "3") {
			return nil, "", fmt.Errorf("unsupported openapi version %q", version)
		}
	default:
		return nil, "", errors.New("not an OpenAPI description: no openapi (or swagger) version field")
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	d, err := loader.LoadFromData(body)
	if err != nil {
		return nil, "", fmt.Errorf("OpenAPI %s does not load: %v", version, err)
	}
	return d, formatOpenAPI3, nil
}

// specVersion finds the top-level openapi or swagger field.
func specVersion(body []byte) (kind, version string) {
	var top map[string]any
	if json.Unmarshal(body, &top) == nil {
		for _, k := range []string{"openapi", "swagger"} {
			if v, ok := top[k]; ok {
				return k, fmt.Sprint(v)
			}
		}
		return "", ""
	}
	if m := yamlVersion.FindSubmatch(body); m != nil {
		return string(m[1]), string(m[2])
	}
	return "", ""
}

// jsonable turns YAML-decoded values into JSON-marshalable ones (map keys
// such as response codes decoded as integers become strings).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

// ProbeTarget is a request the scanner makes: URL and method.
type ProbeTarget struct {
	URL    string `json:"url"`
	Method string `json:"method"`
}

type specOp struct {
	path     string
	item     *openapi3.PathItem
	op       *openapi3.Operation
	secured  bool
	required bool // has required parameters
}

// APIProbes picks the three probe requests from a description.
//
// The base is servers[0] (variables set to their defaults) resolved
// against origin; a server on another origin is not used (the scan stays
// on the site) and the defaults apply. Among GET operations whose path has
// no parameters (paths in sorted order, those without required parameters
// first): unauth is the first one whose security requirement is non-empty
// (no credentials are sent: expected 401), else the first one; acceptJSON
// is the first one that needs no credentials, else the first one;
// wrongMethod is acceptJSON's path with a method it does not declare
// (DELETE, else PATCH, else PUT, else POST).
//
// Without a description (or no usable operation): unauth = GET origin/api,
// acceptJSON = GET origin/, wrongMethod = DELETE origin/.
func APIProbes(origin string, spec *openapi3.T) (unauth, acceptJSON, wrongMethod ProbeTarget) {
	org, ok := originOf(origin)
	if !ok {
		org = strings.TrimRight(origin, "/")
	}
	unauth = ProbeTarget{URL: org + "/api", Method: http.MethodGet}
	acceptJSON = ProbeTarget{URL: org + "/", Method: http.MethodGet}
	wrongMethod = ProbeTarget{URL: org + "/", Method: http.MethodDelete}
	if spec == nil || spec.Paths == nil || !ok {
		return
	}
	base, ok := specBase(org, spec)
	if !ok {
		return
	}
	ops := getOps(spec)
	if len(ops) == 0 {
		return
	}
	pick := func(want func(specOp) bool) *specOp {
		for i := range ops {
			if want(ops[i]) {
				return &ops[i]
			}
		}
		return nil
	}
	u := pick(func(o specOp) bool { return o.secured })
	if u == nil {
		u = &ops[0]
	}
	a := pick(func(o specOp) bool { return !o.secured })
	if a == nil {
		a = &ops[0]
	}
	unauth = ProbeTarget{URL: joinPath(base, u.path), Method: http.MethodGet}
	acceptJSON = ProbeTarget{URL: joinPath(base, a.path), Method: http.MethodGet}
	for _, m := range []string{http.MethodDelete, http.MethodPatch, http.MethodPut, http.MethodPost} {
		if a.item.GetOperation(m) == nil {
			wrongMethod = ProbeTarget{URL: joinPath(base, a.path), Method: m}
			break
		}
	}
	return
}

// specBase is servers[0] resolved against origin, without a trailing slash.
func specBase(org string, spec *openapi3.T) (string, bool) {
	if len(spec.Servers) == 0 || spec.Servers[0] == nil || strings.TrimSpace(spec.Servers[0].URL) == "" {
		return org, true
	}
	s := spec.Servers[0]
	raw := s.URL
	for name, v := range s.Variables {
		if v != nil {
			raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
		}
	}
	u, ok := resolve(org+"/", raw)
	if !ok || !sameOrigin(org, u) {
		return "", false
	}
	pu, err := url.Parse(u)
	if err != nil {
		return "", false
	}
	return org + strings.TrimRight(pu.EscapedPath(), "/"), true
}

func joinPath(base, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return base + p
}

// getOps lists GET operations on parameter-free paths, sorted by path, those
// without required parameters first.
func getOps(spec *openapi3.T) []specOp {
	var ops []specOp
	for path, item := range spec.Paths.Map() {
		if item == nil || item.Get == nil || strings.Contains(path, "{") {
			continue
		}
		op := item.Get
		required := false
		for _, ps := range [][]*openapi3.ParameterRef{item.Parameters, op.Parameters} {
			for _, p := range ps {
				if p != nil && p.Value != nil && p.Value.Required {
					required = true
				}
			}
		}
		ops = append(ops, specOp{path: path, item: item, op: op, secured: opSecured(spec, op), required: required})
	}
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].required != ops[j].required {
			return !ops[i].required
		}
		return ops[i].path < ops[j].path
	})
	return ops
}

// opSecured: the operation's effective security requirement (its own, or
// the document's) is non-empty and has no empty alternative ({} means
// anonymous access is allowed).
func opSecured(spec *openapi3.T, op *openapi3.Operation) bool {
	reqs := spec.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 {
		return false
	}
	for _, r := range reqs {
		if len(r) == 0 {
			return false
		}
	}
	return true
}

// allOperations lists every operation of the description, by path then method.
func allOperations(spec *openapi3.T) []specOp {
	if spec == nil || spec.Paths == nil {
		return nil
	}
	var out []specOp
	paths := spec.Paths.Keys()
	sort.Strings(paths)
	for _, p := range paths {
		item := spec.Paths.Value(p)
		if item == nil {
			continue
		}
		ops := item.Operations()
		methods := make([]string, 0, len(ops))
		for m := range ops {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, m := range methods {
			if ops[m] != nil {
				out = append(out, specOp{path: p, item: item, op: ops[m], secured: opSecured(spec, ops[m])})
			}
		}
	}
	return out
}
