package openapitest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what would have failed the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const spec = `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
 "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok"}}}},
           "/b": {"post": {"operationId": "b", "responses": {"200": {"description": "ok"}}}}}}`

func TestRoutesMatch(t *testing.T) {
	doc := Load(t, []byte(spec))
	ok := &recorder{TB: t}
	RoutesMatch(ok, doc, []string{"GET /a", "POST /b"})
	if len(ok.errs) != 0 {
		t.Fatalf("matching routes refused: %v", ok.errs)
	}
	bad := &recorder{TB: t}
	RoutesMatch(bad, doc, []string{"GET /a", "GET /c", "GET /a"})
	all := strings.Join(bad.errs, "\n")
	for _, want := range []string{"registered twice", "+ routed, not in openapi.json: GET /c", "- in openapi.json, not routed: POST /b"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
}
