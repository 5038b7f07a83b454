package communitybench_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/community/communitybench"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestQuickRunReportsEveryFigure runs the bench end to end at a small size
// and checks that every figure is reported with a value, a sample count
// and a baseline where it has one. No target is asserted: targets are
// checked by the command, never in tests.
func TestQuickRunReportsEveryFigure(t *testing.T) {
	opts := communitybench.Quick()
	opts.DB, opts.MailDir = pgtest.DB(t).SQL, t.TempDir()
	opts.Events, opts.RSVPs, opts.People, opts.Members, opts.Requests = 300, 1500, 200, 3, 40
	opts.Rate, opts.Duration = 50, time.Second
	rep, err := communitybench.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		prefix   string
		baseline bool
	}{
		{"seed: decide + append ", false},
		{"seed: read model caught up", false},
		{"GET /browse (by start_time) p95", true},
		{"GET /browse?sort_by=attendee_count", true},
		{"GET /?filter_type=upcoming", true},
		{"GET /my-events p95", true},
		{"POST /{event_id}/rsvp, 8 clients (rate)", true},
		{"POST /{event_id}/rsvp, 8 clients p95", true},
		{"RSVP commands paced at 50/s for 1s (rate reached)", true},
		{"RSVP commands paced at 50/s for 1s p95", true},
	}
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(rep.Figures), len(want), rep.Figures)
	}
	for i, w := range want {
		f := rep.Figures[i]
		switch {
		case !strings.HasPrefix(f.Name, w.prefix):
			t.Errorf("figure %d is %q, want %q...", i, f.Name, w.prefix)
		case f.Ours <= 0 || f.Samples <= 0:
			t.Errorf("figure %q: %+v", f.Name, f)
		case w.baseline && f.Baseline <= 0:
			t.Errorf("figure %q has no baseline: %+v", f.Name, f)
		}
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}
