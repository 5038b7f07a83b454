// Package openapitest is what the surfaces' OpenAPI tests share: loading an
// embedded description with kin-openapi and the checks every operation of
// every description passes.
package openapitest

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// Load loads spec and validates it with kin-openapi (OpenAPI 3.1: schemas
// as JSON Schema 2020-12), failing t when it does not load or is invalid.
func Load(t testing.TB, spec []byte) *openapi3.T {
	t.Helper()
	ctx := context.Background()
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	if err := doc.Validate(ctx, openapi3.EnableMultiError()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document:\n%v", err)
	}
	return doc
}

// EachOperation checks that every operation of doc has an operationId
// used once, at least one tag and at least one response, and calls check
// (when not nil) with each operation and where it is ("GET /path"), in
// path and method order.
func EachOperation(t testing.TB, doc *openapi3.T, check func(where string, op *openapi3.Operation)) {
	t.Helper()
	paths := doc.Paths.Map()
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	seen := map[string]string{}
	for _, path := range keys {
		ops := paths[path].Operations()
		methods := make([]string, 0, len(ops))
		for m := range ops {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, method := range methods {
			op, where := ops[method], method+" "+path
			switch {
			case op.OperationID == "":
				t.Errorf("%s has no operationId", where)
			case seen[op.OperationID] != "":
				t.Errorf("%s repeats operationId %s of %s", where, op.OperationID, seen[op.OperationID])
			}
			seen[op.OperationID] = where
			if len(op.Tags) == 0 {
				t.Errorf("%s has no tags", where)
			}
			if op.Responses == nil || op.Responses.Len() == 0 {
				t.Errorf("%s has no responses", where)
			}
			if check != nil {
				check(where, op)
			}
		}
	}
}

// RoutesMatch fails t unless the routes a router serves (each "METHOD
// /path", as gorilla/mux templates them) and doc's operations are the same
// set, both ways, and no route is registered twice.
func RoutesMatch(t testing.TB, doc *openapi3.T, routed []string) {
	t.Helper()
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	var diff []string
	for _, r := range routed {
		if !slices.Contains(documented, r) {
			diff = append(diff, "  + routed, not in openapi.json: "+r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(routed, d) {
			diff = append(diff, "  - in openapi.json, not routed: "+d)
		}
	}
	if len(routed) != len(slices.Compact(slices.Sorted(slices.Values(routed)))) {
		t.Errorf("a route is registered twice: %v", routed)
	}
	if len(diff) > 0 {
		slices.Sort(diff)
		t.Errorf("routes (%d) and openapi.json operations (%d) differ:\n%s", len(routed), len(documented), strings.Join(diff, "\n"))
	}
}
