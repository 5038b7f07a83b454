package identity

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestProviderAnswersAreCutAtOneMiB serves answers of exactly 1 MiB and one
// byte more from a loopback server through the providers' transport.
func TestProviderAnswersAreCutAtOneMiB(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `"`+strings.Repeat("a", n-2)+`"`)
	}))
	defer srv.Close()
	client := &http.Client{Transport: limitTransport{http.DefaultTransport}}
	read := func(n int) (int, error) {
		resp, err := client.Get(srv.URL + "?n=" + strconv.Itoa(n))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return len(b), err
	}
	if got, err := read(MaxProviderResponse); err != nil || got != MaxProviderResponse {
		t.Errorf("1 MiB: read %d, %v", got, err)
	}
	if _, err := read(MaxProviderResponse + 1); !errors.Is(err, errProviderTooLarge) {
		t.Errorf("1 MiB + 1: %v", err)
	}
}

func TestProviderErrorCodesAreQuotedOnlyWhenPlain(t *testing.T) {
	for in, want := range map[string]string{
		"bad_verification_code":        "bad_verification_code",
		"invalid_grant":                "invalid_grant",
		"<script>alert(1)</script>":    "error",
		strings.Repeat("x", 65):        "error",
		"":                             "error",
		"incorrect_client_credentials": "incorrect_client_credentials",
	} {
		if got := errorCode(in); got != want {
			t.Errorf("errorCode(%q) = %q, want %q", in, got, want)
		}
	}
}
