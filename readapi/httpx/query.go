package httpx

import (
	"net/http"
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
