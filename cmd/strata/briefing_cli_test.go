package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// strata briefing import reads FRED's CSV (and NDJSON); the same file
// again records nothing; strata briefing run classifies the day's regime
// from them and a rerun adds nothing but its run record.
func TestBriefingImportAndRun(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error"}}
	dir := t.TempDir()
	vix := filepath.Join(dir, "VIXCLS.csv")
	if err := os.WriteFile(vix, []byte("observation_date,VIXCLS\n2020-03-13,57.83\n2020-03-16,82.69\n2020-03-17,.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.runWith(productionWiring, "briefing", "import", vix)
	if code != 0 || !strings.Contains(out, "2 observations read, 2 recorded, 0 already recorded") {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	if out, _, code = c.runWith(productionWiring, "briefing", "import", vix); code != 0 || !strings.Contains(out, "2 observations read, 0 recorded, 2 already recorded") {
		t.Fatalf("import again: %d %s", code, out)
	}
	nd := filepath.Join(dir, "mentions.ndjson")
	_ = os.WriteFile(nd, []byte(`{"kind":"mention","source":"wire","source_id":"1","at":"2020-03-16T10:00:00Z","company":"Acme"}`+"\n"), 0o600)
	if out, errOut, code = c.runWith(productionWiring, "briefing", "import", nd); code != 0 || !strings.Contains(out, "1 recorded") {
		t.Fatalf("ndjson: %d %s %s", code, out, errOut)
	}
	out, errOut, code = c.runWith(productionWiring, "briefing", "run", "market_sentiment", "--as-of", "2020-03-16")
	if code != 0 || !strings.Contains(out, "regime risk_off") {
		t.Fatalf("run: %d %s %s", code, out, errOut)
	}
	out, _, code = c.runWith(productionWiring, "briefing", "run", "all", "--as-of", "2020-03-16")
	if code != 0 || !strings.Contains(out, "developer_influence") || !strings.Contains(out, "no input") {
		t.Fatalf("run all: %d %s", code, out)
	}
	var regimes, runs int
	_ = db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.regime_classified'`).Scan(&regimes)
	_ = db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE event_type = 'briefing.algorithm_ran'`).Scan(&runs)
	if regimes != 1 || runs != 7 {
		t.Fatalf("%d regime events (want 1: the rerun found the same), %d runs (want 7)", regimes, runs)
	}
	if _, errOut, code := c.runWith(productionWiring, "briefing", "run", "astrology"); code != 2 || !strings.Contains(errOut, "market_sentiment") {
		t.Fatalf("unknown algorithm: %d %s", code, errOut)
	}
}

// The daily run at 06:00 in its zone is for the day that ended before it,
// in that zone (not UTC's), across a month's end and a DST change.
func TestBriefingDailyRunDay(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	for _, c := range []struct {
		at   time.Time
		zone *time.Location
		want string
	}{
		{time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC), time.UTC, "2026-03-02"},
		{time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC), time.UTC, "2026-02-28"},
		{time.Date(2026, 3, 9, 6, 0, 0, 0, la), la, "2026-03-08"}, // the day after the spring-forward
		{time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC), la, "2025-12-31"},
	} {
		if got := dayBefore(c.at, c.zone); got != c.want {
			t.Errorf("dayBefore(%s in %s) = %s, want %s", c.at, c.zone, got, c.want)
		}
	}
}
