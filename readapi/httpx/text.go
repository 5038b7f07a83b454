package httpx

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// CheckString reports whether s is text the platform can keep: valid UTF-8
// without the NUL character (PostgreSQL refuses U+0000 in text and jsonb, so
// an event carrying it could never be projected). The error is invalid,
// naming field, with rule "utf8" or "no_nul".
func CheckString(field, s string) error {
	if !utf8.ValidString(s) {
		return kernel.Invalid(field, "utf8", "text must be valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return kernel.Invalid(field, "no_nul", "text may not contain the NUL character (U+0000)")
	}
	return nil
}

// CheckText is middleware that refuses, with 400 in the surface's style,
// any request carrying text the platform cannot keep (see CheckString), in
// one place for every route: the path, every query parameter (names and
// values), every header value, and the whole body when it is JSON
// (CheckJSONText: also duplicate members and nesting) or a form
// (application/x-www-form-urlencoded). Multipart uploads are streamed by
// their handlers, which check their text fields with CheckString.
//
// It must run after BodyLimit, since it reads JSON and form bodies into
// memory (and hands the handler an identical copy).
func CheckText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkRequestText(r); err != nil {
			WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func checkRequestText(r *http.Request) error {
	if err := CheckString("path", r.URL.Path); err != nil {
		return err
	}
	if err := checkValues(r.URL.RawQuery, "query string"); err != nil {
		return err
	}
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range r.Header[name] {
			if err := CheckString(name, v); err != nil {
				return err
			}
		}
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil // the handler reports a content type it does not take
	}
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	isForm := mt == "application/x-www-form-urlencoded"
	if !isJSON && !isForm {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge(mbe.Limit)
		}
		return kernel.Invalid("body", "read", "the request body could not be read")
	}
	if isForm {
		return checkValues(string(body), "form body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil // the handler says whether a body is required
	}
	return CheckJSONText(body)
}

// checkValues checks every name and value of a URL-encoded list, as a
// handler reads them (url.ParseQuery keeps every pair that decodes).
func checkValues(raw, what string) error {
	if raw == "" {
		return nil
	}
	vals, _ := url.ParseQuery(raw)
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := CheckString(what, name); err != nil {
			return err
		}
		for _, v := range vals[name] {
			if err := CheckString(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}
