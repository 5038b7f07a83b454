package wire

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

func TestTokenAnswer(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var a TokenAnswer
	if err := json.Unmarshal([]byte(`{"access_token":"x","expires_in":"3600","refresh_token_expires_in":60,"scope":"s"}`), &a); err != nil {
		t.Fatal(err)
	}
	tok := a.Tokens(now)
	if tok.AccessToken != "x" || !tok.Expiry.Equal(now.Add(time.Hour)) || !tok.RefreshExpiry.Equal(now.Add(time.Minute)) || tok.Scope != "s" {
		t.Errorf("%+v", tok)
	}
	if tok := (TokenAnswer{AccessToken: "y"}).Tokens(now); !tok.Expiry.IsZero() || !tok.RefreshExpiry.IsZero() {
		t.Errorf("no lifetime given, got %+v", tok)
	}
}

func TestDays(t *testing.T) {
	from := time.Date(2026, 2, 27, 23, 0, 0, 0, time.FixedZone("x", -3*3600)) // 2026-02-28 UTC
	days := Days(from, time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC))
	if len(days) != 2 || days[0] != time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC) {
		t.Errorf("%v", days)
	}
	if len(Days(days[1], days[0])) != 0 {
		t.Error("an empty range has days")
	}
}

func TestSendRefinesAndHidesTheBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"` + strings.Repeat("d", 400) + `"}`))
	}))
	defer srv.Close()
	req, err := NewRequest(context.Background(), http.MethodPost, srv.URL+"/token?secret=zzz", map[string]string{"a": "b"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Send(context.Background(), srv.Client(), req, false, OAuthProblem, RefineOAuth)
	var ce *connections.CallError
	if !errors.As(err, &ce) || ce.Class != connections.Unauthorized || ce.Status != 403 || len(ce.Reason) > 300 ||
		!strings.HasPrefix(ce.Reason, "invalid_grant: ") || strings.Contains(ce.Error(), "zzz") {
		t.Fatalf("%#v", err)
	}
}
