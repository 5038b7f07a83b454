package crm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/crm"
)

// received is one request the loopback CRM got.
type received struct {
	Method, Path, Auth, ContentType, Idempotency string
	Body                                         map[string]any
}

// fakeCRM is a loopback CRM answering status to every request.
func fakeCRM(t *testing.T, status int, delay time.Duration) (*httptest.Server, func() []received) {
	t.Helper()
	var mu sync.Mutex
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		rec := received{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			ContentType: r.Header.Get("Content-Type"), Idempotency: r.Header.Get("Idempotency-Key")}
		if err := json.Unmarshal(raw, &rec.Body); err != nil {
			t.Errorf("the body is not JSON: %q", raw)
		}
		mu.Lock()
		got = append(got, rec)
		mu.Unlock()
		if delay > 0 {
			time.Sleep(delay)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"error":"nope"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received {
		mu.Lock()
		defer mu.Unlock()
		return append([]received(nil), got...)
	}
}

var contact = crm.Contact{Email: "ada@example.com", Name: "Ada Lovelace", Source: crm.SourceCheckout, ProductLine: "voice",
	Plan: "pro", UTM: crm.UTM{Source: "newsletter", Campaign: "spring"}, AccountID: "acc-1"}

func TestHTTPPostsTheContactAsJSON(t *testing.T) {
	t.Parallel()
	srv, got := fakeCRM(t, http.StatusCreated, 0)
	a, err := crm.New(crm.Config{URL: srv.URL + "/hooks/contacts", Token: "crm-secret"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != "http" {
		t.Fatalf("adapter %s, want http", a.Name())
	}
	if err := a.Sync(context.Background(), contact); err != nil {
		t.Fatal(err)
	}
	reqs := got()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/hooks/contacts" || r.Auth != "Bearer crm-secret" || r.ContentType != "application/json" ||
		r.Idempotency != "checkout:acc-1" {
		t.Fatalf("request %+v", r)
	}
	want := map[string]any{"email": "ada@example.com", "name": "Ada Lovelace", "source": "checkout", "product_line": "voice",
		"plan": "pro", "utm": map[string]any{"source": "newsletter", "campaign": "spring"}, "account_id": "acc-1"}
	if b, _ := json.Marshal(r.Body); string(b) != mustJSON(want) {
		t.Fatalf("body %s, want %s", b, mustJSON(want))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHTTPFailuresSayWhetherARetryCanHelp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status    int
		permanent bool
	}{
		{http.StatusInternalServerError, false},
		{http.StatusBadGateway, false},
		{http.StatusRequestTimeout, false},
		{http.StatusTooManyRequests, false},
		{http.StatusBadRequest, true},
		{http.StatusUnauthorized, true},
		{http.StatusNotFound, true},
		{http.StatusUnprocessableEntity, true},
		{http.StatusFound, false}, // a redirect is not followed, and not success
	} {
		srv, got := fakeCRM(t, c.status, 0)
		a, err := crm.New(crm.Config{URL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		err = a.Sync(context.Background(), contact)
		var se *crm.StatusError
		if !errors.As(err, &se) || se.Status != c.status {
			t.Fatalf("%d: got %v, want a status error", c.status, err)
		}
		if crm.Permanent(err) != c.permanent {
			t.Errorf("%d: permanent %v, want %v", c.status, crm.Permanent(err), c.permanent)
		}
		if c.status != http.StatusFound && !strings.Contains(err.Error(), `{"error":"nope"}`) {
			t.Errorf("%d: the error does not quote the answer: %v", c.status, err)
		}
		if n := len(got()); n != 1 {
			t.Errorf("%d: %d requests", c.status, n)
		}
		if got()[0].Auth != "" {
			t.Errorf("%d: a bearer token was sent without one configured", c.status)
		}
	}
}

func TestHTTPTimesOutAndUnreachableIsRetryable(t *testing.T) {
	t.Parallel()
	srv, _ := fakeCRM(t, http.StatusOK, 2*time.Second)
	a, err := crm.New(crm.Config{URL: srv.URL, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = a.Sync(context.Background(), contact)
	if err == nil || crm.Permanent(err) || time.Since(start) > 1500*time.Millisecond {
		t.Fatalf("slow CRM: %v after %s, want a retryable timeout", err, time.Since(start))
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	a, _ = crm.New(crm.Config{URL: closed.URL})
	if err := a.Sync(context.Background(), contact); err == nil || crm.Permanent(err) {
		t.Fatalf("unreachable CRM: %v, want a retryable error", err)
	}
}

func TestWithoutAURLNothingIsSent(t *testing.T) {
	t.Parallel()
	a, err := crm.New(crm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.(crm.None); !ok || a.Name() != "none" {
		t.Fatalf("adapter %T %s, want none", a, a.Name())
	}
	if err := a.Sync(context.Background(), contact); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"crm.example.com/hook", "ftp://crm.example.com", "http://"} {
		if _, err := crm.New(crm.Config{URL: bad}); err == nil {
			t.Errorf("URL %q accepted", bad)
		}
	}
}
