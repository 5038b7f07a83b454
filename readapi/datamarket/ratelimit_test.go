package datamarket_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimitPerClientAddress(t *testing.T) {
	w := newWorld(t, true)
	w.importSamples()
	reset := strconv.FormatInt(w.clock.Now().Truncate(time.Minute).Add(time.Minute).Unix(), 10)
	// every route shares the budget
	paths := []string{"/stats", "/smb-directory", "/montana/livestock?search=cattle", "/datasets", "/datasets/smb-directory",
		"/seed", "/industries", "/catalog.json", "/smb-directory?per_page=501", "lead-score"}
	for i := 0; i < 60; i++ {
		var r reply
		if p := paths[i%len(paths)]; p == "lead-score" {
			r = w.post("/lead-score", map[string]any{"business_name": "Hudson Ledger"})
		} else {
			r = w.get(p)
		}
		if r.Status == http.StatusTooManyRequests {
			t.Fatalf("request %d refused: %s", i+1, r.Raw)
		}
		h := r.Header
		if h.Get("X-RateLimit-Limit") != "60" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(59-i) || h.Get("X-RateLimit-Reset") != reset {
			t.Fatalf("request %d: limit %q remaining %q reset %q, want 60 %d %s", i+1,
				h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Reset"), 59-i, reset)
		}
	}
	r := w.get("/smb-directory")
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("request 61: %d, want 429", r.Status)
	}
	// the clock is 10:00:05: the window ends in 55 s
	if r.Header.Get("Retry-After") != "55" || r.Header.Get("X-RateLimit-Remaining") != "0" || r.Header.Get("X-RateLimit-Limit") != "60" ||
		r.Header.Get("X-RateLimit-Reset") != reset {
		t.Errorf("429 headers: Retry-After %q remaining %q limit %q reset %q", r.Header.Get("Retry-After"),
			r.Header.Get("X-RateLimit-Remaining"), r.Header.Get("X-RateLimit-Limit"), r.Header.Get("X-RateLimit-Reset"))
	}
	if r.Body["status"] != float64(429) {
		t.Errorf("429 body: %s", r.Raw)
	}
	if r := w.post("/lead-score", map[string]any{"business_name": "x"}); r.Status != http.StatusTooManyRequests {
		t.Errorf("POST after the budget: %d", r.Status)
	}

	// another address has its own budget
	other := w.do(clientFrom("127.0.0.2"), http.MethodGet, "/stats", nil)
	if other.Status != http.StatusOK || other.Header.Get("X-RateLimit-Remaining") != "59" {
		t.Errorf("another address: %d remaining %q", other.Status, other.Header.Get("X-RateLimit-Remaining"))
	}

	// the next minute is a new budget
	w.clock.Advance(time.Minute)
	if r := w.get("/stats"); r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != "59" {
		t.Errorf("next minute: %d remaining %q", r.Status, r.Header.Get("X-RateLimit-Remaining"))
	}
}
