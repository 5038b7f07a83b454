package community_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	projcommunity "github.com/strata-platform/strata/projections/community"
)

var rsvpStatuses = []string{community.Going, community.Interested, community.NotGoing, community.Waitlisted}

// checkEvent checks the event's row and RSVPs in the read model against a
// replay of its stream.
func checkEvent(t *testing.T, h *harness, e *ev) {
	t.Helper()
	ctx := context.Background()
	fold, err := h.svc.Replay(ctx, e.tenant, e.id)
	if err != nil {
		t.Fatal(err)
	}
	row, err := projcommunity.Event(ctx, h.db, e.tenant, e.id)
	if err != nil {
		t.Fatalf("event %s: %v", e.id, err)
	}
	got := []int{row.Going, row.Interested, row.NotGoing, row.Waitlisted}
	want := make([]int, len(rsvpStatuses))
	total := 0
	for i, s := range rsvpStatuses {
		want[i] = fold.Count(s)
		total += want[i]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("event %s: read model counts going/interested/not_going/waitlisted %v, replay %v", e.id, got, want)
	}
	capacity := stdsql.NullInt64{}
	if fold.Capacity != nil {
		capacity = stdsql.NullInt64{Int64: int64(*fold.Capacity), Valid: true}
	}
	if row.Status != fold.Status || row.Sequence != fold.Sequence || row.Capacity != capacity || row.Waitlist != fold.Waitlist ||
		row.Title != fold.Title || !row.StartTime.Equal(fold.StartTime) || !row.UpdatedAt.Equal(fold.UpdatedAt) ||
		row.CreatorID != fold.CreatorID || row.TenantID != fold.TenantID || row.EventType != fold.EventType ||
		!row.EndTime.Valid || !row.EndTime.Time.Equal(*fold.EndTime) {
		t.Errorf("event %s: row %+v, replay %+v", e.id, row, fold)
	}
	rows, n, err := projcommunity.RSVPs(ctx, h.db, e.id, "", projcommunity.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if n != total || len(rows) != total {
		t.Errorf("event %s: %d RSVP rows (total %d), replay has %d RSVPs", e.id, len(rows), n, total)
	}
	users := map[string]bool{}
	for _, r := range rows {
		f, ok := fold.RSVPByID(r.ID)
		msg := stdsql.NullString{String: f.ResponseMessage, Valid: f.ResponseMessage != ""}
		if !ok || users[r.UserID] || r.UserID != f.UserID || r.Status != f.Status || r.ResponseMessage != msg ||
			!r.CreatedAt.Equal(f.CreatedAt) || !r.UpdatedAt.Equal(f.UpdatedAt) || r.EventID != e.id || r.TenantID != e.tenant {
			t.Errorf("event %s: RSVP row %+v, replay %+v (found %v)", e.id, r, f, ok)
		}
		users[r.UserID] = true
	}
	for _, s := range rsvpStatuses {
		if _, n, err := projcommunity.RSVPs(ctx, h.db, e.id, s, projcommunity.Page{Limit: 1}); err != nil || n != fold.Count(s) {
			t.Errorf("event %s: %d %s RSVP rows (%v), replay %d", e.id, n, s, err, fold.Count(s))
		}
	}
	other := map[string]string{"t1": "t2", "t2": "t1"}[e.tenant]
	if _, err := projcommunity.Event(ctx, h.db, other, e.id); kernel.KindOf(err) != kernel.KindNotFound {
		t.Errorf("event %s read from tenant %s: %v, want not found", e.id, other, err)
	}
}

// checkWorkloadReach fails when the random workload missed a case the test
// is about (it would then prove little).
func checkWorkloadReach(t *testing.T, h *harness, evs []*ev) {
	t.Helper()
	var waitlisted, freed, raised, updated, rescheduled, cancelled int
	err := h.db.QueryRow(`SELECT
			count(*) FILTER (WHERE event_type = 'community.rsvp_changed' AND payload->>'status' = 'waitlisted'),
			count(*) FILTER (WHERE event_type = 'community.rsvp_promoted' AND payload->>'reason' = 'place_freed'),
			count(*) FILTER (WHERE event_type = 'community.rsvp_promoted' AND payload->>'reason' = 'capacity_raised'),
			count(*) FILTER (WHERE event_type = 'community.event_updated'),
			count(*) FILTER (WHERE event_type = 'community.event_updated' AND payload->'changed' ? 'start_time'),
			count(*) FILTER (WHERE event_type = 'community.event_cancelled')
		FROM es.events`).Scan(&waitlisted, &freed, &raised, &updated, &rescheduled, &cancelled)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("workload: %d waitlisted, %d promoted (place freed), %d promoted (capacity raised), %d updates (%d reschedules), %d cancelled",
		waitlisted, freed, raised, updated, rescheduled, cancelled)
	if waitlisted < 10 || freed < 3 || raised < 3 || updated < 10 || rescheduled < 3 || cancelled < 1 || cancelled == len(evs) {
		t.Fatalf("the workload misses cases: %d waitlisted, %d freed, %d raised, %d updates, %d reschedules, %d of %d cancelled",
			waitlisted, freed, raised, updated, rescheduled, cancelled, len(evs))
	}
}

// dump is every row of every table of the schema (events, RSVPs, event
// days, ...), each table ordered by its rows' text (events and RSVPs by id).
func dump(t *testing.T, db *stdsql.DB) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"events", "rsvps", "event_days", "comments", "calendar_feeds"} {
		rows, err := db.Query(`SELECT t::text FROM ` + projcommunity.Schema + `.` + table + ` t ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(table + ":\n")
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s + "\n")
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

// checkEventDays checks the per-day counts against the events' rows.
func checkEventDays(t *testing.T, db *stdsql.DB) {
	t.Helper()
	var wrong, buckets int
	err := db.QueryRow(`WITH want AS (SELECT tenant_id, (start_time AT TIME ZONE 'UTC')::date AS day, status, event_type,
				count(*)::int AS n FROM `+projcommunity.Schema+`.events GROUP BY 1, 2, 3, 4),
			got AS (SELECT * FROM `+projcommunity.Schema+`.event_days WHERE n <> 0)
		SELECT count(*) FILTER (WHERE want.n IS DISTINCT FROM got.n), count(*)
		FROM want FULL JOIN got USING (tenant_id, day, status, event_type)`).Scan(&wrong, &buckets)
	if err != nil {
		t.Fatal(err)
	}
	if wrong != 0 || buckets == 0 {
		t.Errorf("event_days: %d of %d buckets differ from a count of the events", wrong, buckets)
	}
}

// diff lists the lines of a and b that differ, a few at most.
func diff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(la), len(lb)) && len(out) < 10; i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n  live    %s\n  rebuilt %s", i, x, y))
		}
	}
	return strings.Join(out, "\n")
}
