package badge

import (
	"errors"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

// testHandler parses the route's query and writes errors as 400 (invalid)
// or 500, counting the errors it writes.
func testHandler(errs *[]error) http.Handler {
	parse := func(r *http.Request) (Input, error) {
		q := r.URL.Query()
		score, err := strconv.Atoi(q.Get("score"))
		if err != nil {
			return Input{}, kernel.Invalid("score", "integer", "score must be a whole number")
		}
		return Input{Host: q.Get("url"), Score: score, Grade: q.Get("grade")}, nil
	}
	writeErr := func(w http.ResponseWriter, r *http.Request, err error) {
		*errs = append(*errs, err)
		status := http.StatusInternalServerError
		if errors.Is(err, kernel.ErrInvalid) {
			status = http.StatusBadRequest
		}
		http.Error(w, err.Error(), status)
	}
	return Handler(parse, writeErr)
}

func serve(h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

const badgePath = "/api/v1/public/ax-audit/badge?url=example.com&score=87&grade=A"

func TestHandlerOK(t *testing.T) {
	var errs []error
	w := serve(testHandler(&errs), http.MethodGet, badgePath)
	if w.Code != http.StatusOK || len(errs) != 0 {
		t.Fatalf("status %d, errors %v", w.Code, errs)
	}
	want := ETag(Input{Host: "example.com", Score: 87, Grade: "A"})
	h := w.Result().Header
	if h.Get("ETag") != want || h.Get("Content-Type") != "image/png" || h.Get("Cache-Control") != "public, max-age=86400" {
		t.Fatalf("headers %v, want ETag %s", h, want)
	}
	if h.Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
		t.Fatalf("Content-Length %s, body %d bytes", h.Get("Content-Length"), w.Body.Len())
	}
	img, err := png.Decode(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("image %v", b)
	}

	// HEAD: the headers, no body.
	w = serve(testHandler(&errs), http.MethodHead, badgePath)
	if w.Code != http.StatusOK || w.Body.Len() != 0 || w.Result().Header.Get("ETag") != want {
		t.Fatalf("HEAD: status %d, body %d bytes, headers %v", w.Code, w.Body.Len(), w.Result().Header)
	}
}

func TestHandlerNotModified(t *testing.T) {
	tag := ETag(Input{Host: "example.com", Score: 87, Grade: "A"})
	other := ETag(Input{Host: "example.com", Score: 86, Grade: "A"})
	for name, inm := range map[string][]string{
		"exact":          {tag},
		"weak":           {"W/" + tag},
		"list":           {other + ", " + tag},
		"list weak":      {`"abc", W/` + tag + `, "def"`},
		"list no spaces": {other + "," + tag},
		"star":           {"*"},
		"two fields":     {other, tag},
	} {
		t.Run(name, func(t *testing.T) {
			var errs []error
			args := []string{}
			for _, v := range inm {
				args = append(args, "If-None-Match", v)
			}
			w := serve(testHandler(&errs), http.MethodGet, badgePath, args...)
			if w.Code != http.StatusNotModified || w.Body.Len() != 0 || len(errs) != 0 {
				t.Fatalf("status %d, body %d bytes, errors %v; want 304", w.Code, w.Body.Len(), errs)
			}
			h := w.Result().Header
			if h.Get("ETag") != tag || h.Get("Cache-Control") != CacheControl || h.Get("Content-Type") != "" {
				t.Fatalf("304 headers %v", h)
			}
		})
	}
	for name, inm := range map[string]string{
		"other tag":  other,
		"unquoted":   strings.Trim(tag, `"`),
		"prefix":     tag[:len(tag)-2] + `"`,
		"empty":      `""`,
		"malformed":  `"abc, ` + tag,
		"after junk": `abc, ` + tag,
	} {
		t.Run("no match "+name, func(t *testing.T) {
			var errs []error
			w := serve(testHandler(&errs), http.MethodGet, badgePath, "If-None-Match", inm)
			if w.Code != http.StatusOK || w.Result().Header.Get("Content-Type") != "image/png" {
				t.Fatalf("If-None-Match %s: status %d, want 200", inm, w.Code)
			}
		})
	}
}

// A 304 is answered without rendering: a badge that is not in the cache
// stays out of it.
func TestHandlerNotModifiedDoesNotRender(t *testing.T) {
	in := Input{Host: "not-rendered.example", Score: 12, Grade: "F"}
	var errs []error
	w := serve(testHandler(&errs), http.MethodGet, "/b?url=not-rendered.example&score=12&grade=F", "If-None-Match", ETag(in))
	if w.Code != http.StatusNotModified {
		t.Fatalf("status %d", w.Code)
	}
	if cache.Contains(ETag(in)) {
		t.Fatal("a 304 rendered the badge")
	}
}

func TestHandlerBadInput(t *testing.T) {
	for name, target := range map[string]string{
		"score 101":  "/b?url=example.com&score=101&grade=A",
		"score -1":   "/b?url=example.com&score=-1&grade=A",
		"grade E":    "/b?url=example.com&score=50&grade=E",
		"no url":     "/b?score=50&grade=A",
		"parse fail": "/b?url=example.com&score=lots&grade=A",
	} {
		t.Run(name, func(t *testing.T) {
			var errs []error
			w := serve(testHandler(&errs), http.MethodGet, target, "If-None-Match", "*")
			if w.Code != http.StatusBadRequest || len(errs) != 1 || !errors.Is(errs[0], kernel.ErrInvalid) {
				t.Fatalf("status %d, errors %v; want 400 through writeErr", w.Code, errs)
			}
			if h := w.Result().Header; h.Get("ETag") != "" || h.Get("Cache-Control") == CacheControl {
				t.Fatalf("an error carries the badge's cache headers: %v", h)
			}
		})
	}
}

func TestNoneMatch(t *testing.T) {
	tag := `"abc"`
	cases := []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{`"abc"`}, true},
		{[]string{`W/"abc"`}, true},
		{[]string{` "x" ,, W/"abc" `}, true},
		{[]string{`"x"`, `"abc"`}, true},
		{[]string{`*`}, true},
		{[]string{`"abcd"`}, false},
		{[]string{`"ab"`}, false},
		{[]string{`abc`}, false},
		{[]string{`"x`}, false},
		{[]string{`w/"abc"`}, false}, // the weak prefix is case-sensitive
	}
	for _, c := range cases {
		if got := noneMatch(c.values, tag); got != c.want {
			t.Errorf("noneMatch(%q, %s) = %v, want %v", c.values, tag, got, c.want)
		}
	}
}
