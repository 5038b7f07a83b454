package audit

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

const maxOpenAPI = 15

// parsedSpec is the description parsed once per scan.
type parsedSpec struct {
	doc    *openapi3.T
	format string
	err    error
}

func parseSnapshotSpec(s Snapshot) parsedSpec {
	if s.parsed != nil && s.parsedFrom == s.OpenAPI {
		return *s.parsed
	}
	if !s.OpenAPI.OK() {
		return parsedSpec{err: fmt.Errorf("no description found")}
	}
	d, f, err := parseSpec(s.OpenAPI)
	return parsedSpec{doc: d, format: f, err: err}
}

// checkOpenAPI scores the OpenAPI description (15 points).
func checkOpenAPI(s Snapshot) CheckResult { return openAPICheck(s, parseSnapshotSpec(s)) }

func openAPICheck(s Snapshot, ps parsedSpec) CheckResult {
	r := s.OpenAPI
	var fs []Finding
	found := LooksLikeOpenAPI(r)
	fev := ""
	if found {
		fev = fmt.Sprintf("found via %s: %s", firstNonEmpty(s.OpenAPISource, "unknown source"), describe(r))
	} else {
		fev = "no description found"
		if r.OK() {
			fev += "; " + describeBody(r) + " is not an OpenAPI or Swagger document"
		} else if r != nil {
			fev += "; last: " + describe(r)
		}
		if len(s.OpenAPITried) > 0 {
			fev += "; tried " + excerptString(strings.Join(s.OpenAPITried, ", "))
		}
	}
	fs = append(fs, finding("openapi.found", "An OpenAPI description is found", 4, b2i(found, 4), fev,
		"Publish an OpenAPI 3.1 description of the API (for example at /openapi.json) and link it (see openapi.discoverable)."))

	doc := ps.doc
	parsePts, pev := 0, ""
	switch {
	case !found:
		pev = "nothing to parse"
	case ps.err != nil:
		pev = fmt.Sprintf("%s: %s", r.URL, excerptString(ps.err.Error()))
	case ps.format == formatSwagger2:
		parsePts = 2
		pev = fmt.Sprintf("%s: Swagger 2.0 (an older format; converted to read it)", r.URL)
	default:
		parsePts = 4
		pev = fmt.Sprintf("%s: OpenAPI %s loaded", r.URL, doc.OpenAPI)
	}
	fs = append(fs, finding("openapi.parses", "It parses as OpenAPI 3.x", 4, parsePts, pev,
		"Serve a valid OpenAPI 3.0 or 3.1 document (JSON or YAML; migrate Swagger 2.0 with a converter) with internal $refs only; check it with a validator."))

	if doc == nil {
		const fix = "Publish a parseable OpenAPI description first (see openapi.found and openapi.parses)."
		nf := "no parsed description"
		fs = append(fs,
			finding("openapi.info_paths", "info.title, info.version and at least one path", 2, 0, nf, fix),
			finding("openapi.operations_documented", "Operations have a summary or description (≥ 80%)", 2, 0, nf, fix),
			finding("openapi.error_responses", "Operations describe their 4xx errors with a schema (≥ 50%)", 1, 0, nf, fix),
			finding("openapi.components", "Reusable schemas in components.schemas, referenced", 1, 0, nf, fix),
		)
	} else {
		fs = append(fs, specContentFindings(r.URL, doc)...)
	}

	disc := found && (s.OpenAPISource == SourceLinkHeader || s.OpenAPISource == SourceAPICatalog)
	fs = append(fs, finding("openapi.discoverable", "Advertised by a Link service-desc header or /.well-known/api-catalog", 1, b2i(disc, 1),
		fmt.Sprintf("source: %s", firstNonEmpty(s.OpenAPISource, "none")),
		"Advertise the description: send Link: </openapi.json>; rel=\"service-desc\" (RFC 8631) on the home page, or list it in /.well-known/api-catalog (RFC 9727)."))
	return result(CheckOpenAPI, maxOpenAPI, fs)
}

func specContentFindings(u string, doc *openapi3.T) []Finding {
	var fs []Finding
	title, version := "", ""
	if doc.Info != nil {
		title, version = strings.TrimSpace(doc.Info.Title), strings.TrimSpace(doc.Info.Version)
	}
	npaths := 0
	if doc.Paths != nil {
		npaths = doc.Paths.Len()
	}
	have := 0
	for _, ok := range []bool{title != "" && version != "", npaths > 0} {
		if ok {
			have++
		}
	}
	fs = append(fs, finding("openapi.info_paths", "info.title, info.version and at least one path", 2, have,
		fmt.Sprintf("%s: title %q, version %q, %d %s", u, excerptString(title), excerptString(version), npaths, plural(npaths, "path", "paths")),
		"Fill info.title and info.version and describe every public path."))

	ops := allOperations(doc)
	documented, withErr := 0, 0
	var undocumented []string
	for _, o := range ops {
		if strings.TrimSpace(o.op.Summary) != "" || strings.TrimSpace(o.op.Description) != "" {
			documented++
		} else if len(undocumented) < 3 {
			undocumented = append(undocumented, opName(o))
		}
		if describesClientErrors(o.op) {
			withErr++
		}
	}
	docPts := 0
	if n := len(ops); n > 0 {
		switch {
		case documented*10 >= n*8:
			docPts = 2
		case documented*2 >= n:
			docPts = 1
		}
	}
	dev := fmt.Sprintf("%s: %d of %d operations have a summary or description", u, documented, len(ops))
	if len(undocumented) > 0 {
		dev += " (missing: " + strings.Join(undocumented, ", ") + ")"
	}
	fs = append(fs, finding("openapi.operations_documented", "Operations have a summary or description (≥ 80%)", 2, docPts, dev,
		"Give every operation a summary (and a description saying when to use it); agents choose operations by these."))

	errOK := len(ops) > 0 && withErr*2 >= len(ops)
	fs = append(fs, finding("openapi.error_responses", "Operations describe their 4xx errors with a schema (≥ 50%)", 1, b2i(errOK, 1),
		fmt.Sprintf("%s: %d of %d operations declare a 4xx (or default) response with content", u, withErr, len(ops)),
		"Declare the 4xx responses (400, 401, 404, 422...) with a schema, ideally application/problem+json (RFC 9457)."))

	nschemas := 0
	if doc.Components != nil {
		nschemas = len(doc.Components.Schemas)
	}
	refs := countSchemaRefs(ops)
	fs = append(fs, finding("openapi.components", "Reusable schemas in components.schemas, referenced", 1, b2i(nschemas > 0 && refs > 0, 1),
		fmt.Sprintf("%s: %d component %s, %d $ref %s from operations", u, nschemas, plural(nschemas, "schema", "schemas"), refs, plural(refs, "use", "uses")),
		"Define the request and response bodies once in components.schemas and $ref them from the operations."))
	return fs
}

func opName(o specOp) string {
	for m, op := range o.item.Operations() {
		if op == o.op {
			return m + " " + o.path
		}
	}
	return o.path
}

// describesClientErrors: a 4xx, 4XX or default response with content.
func describesClientErrors(op *openapi3.Operation) bool {
	if op.Responses == nil {
		return false
	}
	for code, rr := range op.Responses.Map() {
		if !(strings.HasPrefix(code, "4") || code == "default") || rr == nil || rr.Value == nil {
			continue
		}
		for _, mt := range rr.Value.Content {
			if mt != nil && mt.Schema != nil {
				return true
			}
		}
	}
	return false
}

// countSchemaRefs counts request and response body schemas given by $ref.
func countSchemaRefs(ops []specOp) int {
	n := 0
	count := func(c openapi3.Content) {
		for _, mt := range c {
			if mt == nil || mt.Schema == nil {
				continue
			}
			if strings.Contains(mt.Schema.Ref, "#/components/schemas/") {
				n++
			} else if v := mt.Schema.Value; v != nil && v.Items != nil && strings.Contains(v.Items.Ref, "#/components/schemas/") {
				n++
			}
		}
	}
	for _, o := range ops {
		if o.op.RequestBody != nil && o.op.RequestBody.Value != nil {
			count(o.op.RequestBody.Value.Content)
		}
		if o.op.Responses != nil {
			for _, rr := range o.op.Responses.Map() {
				if rr != nil {
					if strings.Contains(rr.Ref, "#/components/") {
						n++
					}
					if rr.Value != nil {
						count(rr.Value.Content)
					}
				}
			}
		}
	}
	return n
}

// Prepare parses the snapshot's OpenAPI description once and keeps the
// result, so Score (and Spec) on it and on its copies do not parse again:
// a crawl scores every page against one site snapshot.
func (s *Snapshot) Prepare() {
	ps := parseSnapshotSpec(*s)
	s.parsed, s.parsedFrom = &ps, s.OpenAPI
}

// Spec is the snapshot's parsed OpenAPI description, nil when there is
// none that parses.
func (s *Snapshot) Spec() *openapi3.T {
	ps := parseSnapshotSpec(*s)
	if ps.err != nil {
		return nil
	}
	return ps.doc
}
