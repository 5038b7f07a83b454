package httpx

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
)

// EnumParam reads an optional query parameter that must be one of values:
// "" when absent, else an invalid error (rule "enum") naming the values.
func EnumParam(r *http.Request, name string, values ...string) (string, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return "", nil
	}
	for _, ok := range values {
		if v == ok {
			return v, nil
		}
	}
	return "", kernel.Invalid(name, "enum", name+" must be one of "+strings.Join(values, ", "))
}

// IntParam reads an optional whole-number query parameter within [lo, hi]:
// def when absent, else an invalid error (rule "range:lo-hi") naming the
// bounds.
func IntParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, kernel.Invalid(name, "range:"+strconv.Itoa(lo)+"-"+strconv.Itoa(hi),
			name+" must be a whole number from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi))
	}
	return n, nil
}
