package audit_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/audit/audittest"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/eventstore"
	projaudit "github.com/strata-platform/strata/projections/audit"
)

const base = "/api/v1/public/ax-audit"

func host(s *audittest.Site) string { u, _ := url.Parse(s.URL); return u.Host }

// quick answers the seed's scan shape without findings; full stores a
// report whose findings show once unlocked with an address (a lead whose
// address is sealed).
func TestFullReportUnlockAndLeads(t *testing.T) {
	site := audittest.Serve(t, audittest.Excellent)
	w := newWorld(t, "https://cal.example.com/acme/audit-review", host(site))

	q := w.call("POST", base, map[string]string{"url": site.URL})
	if q.Status != http.StatusOK || q.Body["max_score"] != float64(100) || q.Body["grade"] == nil || len(q.Body["checks"].([]any)) != 7 {
		t.Fatalf("quick: %d %s", q.Status, q.Raw)
	}
	if bytes.Contains(q.Raw, []byte(`"findings"`)) {
		t.Error("the quick scan shows findings")
	}
	if n := w.count(`SELECT count(*) FROM es.events`); n != 0 {
		t.Errorf("a quick scan stored %d events", n)
	}

	full := w.call("POST", base+"/full", map[string]string{"url": site.URL, "industry": "saas"})
	if full.Status != http.StatusCreated || full.Body["report_id"] == nil {
		t.Fatalf("full: %d %s", full.Status, full.Raw)
	}
	id := full.Body["report_id"].(string)
	rep := w.call("GET", base+"/reports/"+id, nil)
	if rep.Status != http.StatusOK || rep.Body["unlocked"] != false || rep.Body["findings"] != nil || rep.Body["score"] != full.Body["score"] {
		t.Fatalf("report before unlock: %d %s", rep.Status, rep.Raw)
	}
	for _, bad := range []map[string]string{{"report_id": id, "email": "not-an-address"}, {"report_id": id}, {"email": "a@b.co"},
		{"report_id": uuid.NewString(), "email": "ada@example.com"}} {
		if r := w.call("POST", base+"/unlock", bad); r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
			t.Errorf("unlock %v: %d %s", bad, r.Status, r.Raw)
		}
	}
	un := w.call("POST", base+"/unlock", map[string]string{"report_id": id, "email": "ada@example.com"})
	if un.Status != http.StatusOK || un.Body["lead_id"] == nil || !bytes.Contains(un.Raw, []byte(`"findings"`)) || !bytes.Contains(un.Raw, []byte(`"evidence"`)) {
		t.Fatalf("unlock: %d %s", un.Status, un.Raw)
	}
	rep = w.call("GET", base+"/reports/"+id, nil)
	if rep.Body["unlocked"] != true || rep.Body["findings"] == nil {
		t.Errorf("report after unlock: %s", rep.Raw)
	}
	if r := w.call("GET", base+"/reports/"+uuid.NewString(), nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown report: %d", r.Status)
	}
	if r := w.call("GET", base+"/reports/nope", nil); r.Status != http.StatusNotFound {
		t.Errorf("a report id that is no id: %d", r.Status)
	}

	lead := w.call("POST", base+"/leads", map[string]any{"url": site.URL, "email": "grace@example.com", "score": 72, "findings_count": 4,
		"dimensions_failed": []string{"llms_txt"}, "package_interest": "pro", "utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "fall"})
	if lead.Status != http.StatusCreated || lead.Body["status"] != "new" || lead.Body["lead_id"] == nil {
		t.Fatalf("lead: %d %s", lead.Status, lead.Raw)
	}
	b, _ := url.Parse(lead.Body["booking_url"].(string))
	if b.Host != "cal.example.com" || b.Query().Get("email") != "grace@example.com" || b.Query().Get("score") != "72" || b.Query().Get("utm_source") != "newsletter" {
		t.Errorf("booking url: %s", b)
	}
	for _, bad := range []map[string]any{{"url": site.URL}, {"email": "x@example.com"}, {"url": "x", "email": "x@example.com"},
		{"url": site.URL, "email": "x@example.com", "score": 101}, {"url": site.URL, "email": "x@example.com", "dimensions_failed": []string{"vibes"}}} {
		if r := w.call("POST", base+"/leads", bad); r.Status != http.StatusBadRequest {
			t.Errorf("lead %v: %d %s", bad, r.Status, r.Raw)
		}
	}
	// No address in clear anywhere: events, read model.
	for _, q := range []string{`SELECT count(*) FROM es.events WHERE payload::text LIKE '%ada@example.com%' OR payload::text LIKE '%grace@example.com%'`,
		`SELECT count(*) FROM ` + projaudit.Schema + `.leads WHERE url LIKE '%@%'`} {
		if n := w.count(q); n != 0 {
			t.Errorf("%s: %d", q, n)
		}
	}
	if n := w.count(`SELECT count(*) FROM ` + projaudit.Schema + `.leads`); n != 2 {
		t.Errorf("%d leads (unlock and form), want 2", n)
	}
}

func (w *world) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.db.SQL.QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// Benchmarks come from stored full scans only: below the minimum the
// answer says insufficient_data with the count; with enough, the
// distribution and percentiles of the latest scan of each site.
func TestBenchmarksFromStoredScans(t *testing.T) {
	w := newWorld(t, "")
	store := func(host string, score int, at time.Time) {
		ev := &audit.ReportStored{ReportID: uuid.NewString(), Industry: "fintech", Host: host, At: at,
			Scan: audit.Scan{URL: "https://" + host + "/", Score: score, MaxScore: 100, Grade: audit.GradeOf(score), ScannedAt: at, RubricVersion: audit.RubricVersion}}
		app, err := w.store.Append(context.Background(), eventstore.Stream{Type: audit.StreamReport, ID: audit.ReportStream(ev.ReportID)}, eventstore.NoStream, ev)
		if err != nil {
			t.Fatal(err)
		}
		_ = app
	}
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i, s := range []int{40, 90, 50} {
		store(fmt.Sprintf("site%d.example.com", i), s, t0)
	}
	waitRows(t, w, 3)
	r := w.call("GET", base+"/benchmark/fintech", nil)
	if r.Status != http.StatusOK || r.Body["status"] != "insufficient_data" || r.Body["scans"] != float64(3) || r.Body["avg_score"] != nil {
		t.Fatalf("too few scans: %d %s", r.Status, r.Raw)
	}
	if r := w.call("GET", base+"/benchmark/fintech/percentile?score=50", nil); r.Body["status"] != "insufficient_data" || r.Body["percentile"] != nil {
		t.Errorf("percentile with too few: %s", r.Raw)
	}
	for i, s := range []int{60, 70, 80, 55, 65, 75, 85} {
		store(fmt.Sprintf("site%d.example.com", i+3), s, t0)
	}
	store("site0.example.com", 10, t0.Add(-time.Hour)) // an older scan of site0: not counted
	waitRows(t, w, 11)
	r = w.call("GET", base+"/benchmark/fintech", nil)
	// the latest of each site: 40 90 50 60 70 80 55 65 75 85 (as domain/audit's distribution test)
	if r.Body["status"] != "ok" || r.Body["avg_score"] != 67.0 || r.Body["p25"] != 56.3 || r.Body["p50"] != 67.5 || r.Body["p75"] != 78.8 || r.Body["p90"] != 85.5 {
		t.Fatalf("benchmark: %s", r.Raw)
	}
	p := w.call("GET", base+"/benchmark/fintech/percentile?score=70", nil)
	if p.Body["percentile"] != 55.0 || p.Body["industry"] != "fintech" || p.Body["score"] != float64(70) || p.Body["message"] == "" {
		t.Errorf("percentile: %s", p.Raw)
	}
	for _, bad := range []string{"/benchmark/astrology", "/benchmark/astrology/percentile?score=5"} {
		if r := w.call("GET", base+bad, nil); r.Status != http.StatusNotFound {
			t.Errorf("%s: %d", bad, r.Status)
		}
	}
	for _, bad := range []string{"", "?score=101", "?score=x"} {
		if r := w.call("GET", base+"/benchmark/fintech/percentile"+bad, nil); r.Status != http.StatusBadRequest {
			t.Errorf("percentile%s: %d", bad, r.Status)
		}
	}
	ind := w.call("GET", base+"/benchmark", nil)
	if ind.Status != http.StatusOK || !bytes.Contains(ind.Raw, []byte(`{"industry":"fintech","scans":10,"available":true}`)) {
		t.Errorf("industries: %s", ind.Raw)
	}
}

func waitRows(t *testing.T, w *world, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for w.count(`SELECT count(*) FROM `+projaudit.Schema+`.reports`) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the read model never held %d reports", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The limits are per client address: over one, 429 with Retry-After and
// the X-RateLimit headers.
func TestRateLimits(t *testing.T) {
	w := newWorld(t, "")
	lead := map[string]any{"url": "https://acme.example.com/", "email": "x@example.com"}
	var last reply
	for i := 0; i < 21; i++ {
		last = w.call("POST", base+"/leads", lead)
		if i < 20 && last.Status != http.StatusCreated {
			t.Fatalf("lead %d: %d %s", i, last.Status, last.Raw)
		}
	}
	if last.Status != http.StatusTooManyRequests || last.Header.Get("Retry-After") != "55" || last.Header.Get("X-RateLimit-Limit") != "20" {
		t.Errorf("the 21st lead in a minute: %d %v %s", last.Status, last.Header, last.Raw)
	}
}

// The badge is a 1200x630 PNG with an ETag; the same ETag back is 304.
func TestBadgeRoute(t *testing.T) {
	w := newWorld(t, "")
	r := w.call("GET", base+"/badge?url=https://acme.example.com&score=91&grade=A", nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("ETag") == "" {
		t.Fatalf("badge: %d %v", r.Status, r.Header)
	}
	img, err := png.Decode(bytes.NewReader(r.Raw))
	if err != nil || img.Bounds().Dx() != 1200 || img.Bounds().Dy() != 630 {
		t.Fatalf("badge image: %v %v", err, img)
	}
	if again := w.call("GET", base+"/badge?url=https://acme.example.com&score=91&grade=A", nil, "If-None-Match", r.Header.Get("ETag")); again.Status != http.StatusNotModified {
		t.Errorf("revalidation: %d", again.Status)
	}
	for _, q := range []string{"url=https://a.example&score=101&grade=A", "url=https://a.example&score=50&grade=E", "score=50&grade=A", "url=https://a.example&grade=A"} {
		if r := w.call("GET", base+"/badge?"+q, nil); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), "field") {
			t.Errorf("badge?%s: %d %s", q, r.Status, r.Raw)
		}
	}
}
