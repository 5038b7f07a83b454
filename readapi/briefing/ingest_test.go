package briefing_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

const obsPath = "/api/v1/internal/intelligence/observations"

// A batch records its new observations as one event; the same
// observation again (same kind, source and source id), in the same batch
// or a later one, concurrently or not, counts once.
func TestIngestCountsAnObservationOnce(t *testing.T) {
	w := newWorld(t)
	batch := []map[string]any{
		{"kind": "indicator", "source": "fred", "source_id": "VIXCLS:2026-03-02", "at": "2026-03-02T00:00:00Z", "series": "VIXCLS", "value": 18.5},
		{"kind": "mention", "source": "newswire", "source_id": "m-1", "at": "2026-03-02T10:00:00Z", "company": "Acme Corp", "title": "Acme grows"},
		{"kind": "mention", "source": "newswire", "source_id": "m-1", "at": "2026-03-02T10:00:00Z", "company": "Acme Corp", "title": "Acme grows"},
	}
	got := w.call("POST", obsPath, batch)
	if got.Status != http.StatusOK || got.Body["recorded"] != float64(2) || got.Body["duplicates"] != float64(1) {
		t.Fatalf("first batch: %d %s", got.Status, got.Raw)
	}
	again := w.call("POST", obsPath, map[string]any{"observations": batch})
	if again.Status != http.StatusOK || again.Body["recorded"] != float64(0) || again.Body["duplicates"] != float64(3) {
		t.Fatalf("the same batch again: %d %s", again.Status, again.Raw)
	}
	nd := `{"kind":"filing","source":"sec_edgar","source_id":"0001-26-000001","at":"2026-03-02T16:00:00Z","company":"Acme Corp","form":"8-K"}

{"kind":"mention","source":"newswire","source_id":"m-1","at":"2026-03-02T10:00:00Z","company":"Acme Corp"}`
	if r := w.call("POST", obsPath, nd); r.Status != http.StatusOK || r.Body["recorded"] != float64(1) || r.Body["duplicates"] != float64(1) {
		t.Fatalf("NDJSON: %d %s", r.Status, r.Raw)
	}
	// Ten concurrent submissions of one new observation record it once.
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.call("POST", obsPath, []map[string]any{{"kind": "mention", "source": "newswire", "source_id": "m-race",
				"at": "2026-03-02T11:00:00Z", "company": "Beta"}})
		}()
	}
	wg.Wait()
	if n := w.count(`SELECT count(*) FROM platform.briefing_observation_ids`); n != 4 {
		t.Errorf("%d observation identities, want 4", n)
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.observations_recorded'`); n != 3 {
		t.Errorf("%d batch events, want 3", n)
	}
}

// One invalid observation refuses the batch (nothing recorded) with a 400
// naming it; bodies that are not JSON or NDJSON are refused too.
func TestIngestValidation(t *testing.T) {
	w := newWorld(t)
	good := map[string]any{"kind": "mention", "source": "newswire", "source_id": "ok", "at": "2026-03-02T10:00:00Z", "company": "Acme"}
	cases := []struct {
		bad   map[string]any
		field string
	}{
		{map[string]any{"kind": "tweet", "source": "x", "source_id": "1", "at": "2026-03-02T10:00:00Z"}, "observations[1].kind"},
		{map[string]any{"kind": "indicator", "source": "fred", "source_id": "1", "at": "2026-03-02T00:00:00Z", "series": "VIXCLS"}, "observations[1].value"},
		{map[string]any{"kind": "mention", "source": "s", "source_id": "1", "at": "2026-03-02T10:00:00Z"}, "observations[1].company"},
		{map[string]any{"kind": "mention", "source": "s", "source_id": "1", "company": "A"}, "observations[1].at"},
		{map[string]any{"kind": "mention", "source": "s", "source_id": "1", "at": "2026-03-02T10:00:00Z", "company": "A", "form": "8-K"}, "observations[1].form"},
		{map[string]any{"kind": "filing", "source": "s", "source_id": "1", "at": "2026-03-02T10:00:00Z", "company": "A"}, "observations[1].form"},
		{map[string]any{"kind": "document", "source": "s", "source_id": "1", "at": "2026-03-02T10:00:00Z", "companies": []string{}}, "observations[1].companies"},
		{map[string]any{"kind": "developer_activity", "source": "github", "source_id": "1", "at": "2026-03-02T10:00:00Z",
			"developer": "ada", "repo": "a/b", "metric": "likes", "count": 1}, "observations[1].metric"},
		{map[string]any{"kind": "mention", "source": "s", "source_id": "1", "at": "2026-03-02T10:00:00Z", "company": "A", "colour": "red"}, "colour"},
		{map[string]any{"kind": "mention", "source": "s", "source_id": "1", "at": "yesterday", "company": "A"}, "at"},
	}
	for _, c := range cases {
		got := w.call("POST", obsPath, []map[string]any{good, c.bad})
		if got.Status != http.StatusBadRequest || !contains(got.Raw, c.field) {
			t.Errorf("%v: %d %s (want 400 naming %s)", c.bad, got.Status, got.Raw, c.field)
		}
	}
	if n := w.count(`SELECT count(*) FROM platform.briefing_observation_ids`); n != 0 {
		t.Errorf("%d observations recorded from refused batches", n)
	}
	if r := w.call("POST", obsPath, []map[string]any{}); r.Status != http.StatusBadRequest {
		t.Errorf("an empty batch: %d %s", r.Status, r.Raw)
	}
	if r := w.call("POST", obsPath, "{\"kind\":\"mention\"\n"); r.Status != http.StatusBadRequest || !contains(r.Raw, "line 1") {
		t.Errorf("broken NDJSON: %d %s", r.Status, r.Raw)
	}
	big := make([]string, 10001)
	for i := range big {
		big[i] = fmt.Sprintf(`{"kind":"mention","source":"s","source_id":"%d","at":"2026-03-02T10:00:00Z","company":"A"}`, i)
	}
	if r := w.call("POST", obsPath, strings.Join(big, "\n")); r.Status != http.StatusBadRequest || !contains(r.Raw, "10000") {
		t.Errorf("a batch over 10,000: %d %s", r.Status, r.Raw)
	}
}

// A developer's activity with a count of 0 is a valid observation: stored
// as 0 and read by developer_influence without failing the run.
func TestZeroCountActivity(t *testing.T) {
	w := newWorld(t)
	obs := []map[string]any{
		{"kind": "developer_activity", "source": "github", "source_id": "a-0", "at": "2026-03-02T10:00:00Z", "developer": "ada", "repo": "acme/x", "org": "acme", "metric": "commits", "count": 0},
		{"kind": "developer_activity", "source": "github", "source_id": "a-1", "at": "2026-03-02T11:00:00Z", "developer": "ada", "repo": "acme/x", "org": "acme", "metric": "reviews", "count": 3},
	}
	if r := w.call("POST", obsPath, obs); r.Status != http.StatusOK || r.Body["recorded"] != float64(2) {
		t.Fatalf("ingest: %d %s", r.Status, r.Raw)
	}
	r := w.call("POST", "/api/v1/internal/intelligence/runs", map[string]any{"algo": "developer_influence", "as_of": "2026-03-02"})
	if r.Status != http.StatusOK || !contains(r.Raw, `"inputs":2`) {
		t.Fatalf("influence run: %d %s", r.Status, r.Raw)
	}
	if n := w.count(`SELECT count(*) FROM rm_briefing_v1.observations WHERE count = 0`); n != 1 {
		t.Errorf("%d observations with count 0 stored", n)
	}
}
