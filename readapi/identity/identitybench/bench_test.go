package identitybench_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRunReportsEveryFigure runs the bench at a tiny size and checks each
// figure is reported with a sane value (no target is asserted: targets are
// checked by the command, on a quiet machine, never in tests).
func TestRunReportsEveryFigure(t *testing.T) {
	db := pgtest.DB(t)
	opts := identitybench.Quick()
	opts.Duration, opts.DB, opts.MailDir = 200*time.Millisecond, db.SQL, t.TempDir()
	rep, err := identitybench.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Figures) != 5 {
		t.Fatalf("%d figures: %+v", len(rep.Figures), rep.Figures)
	}
	for _, f := range rep.Figures {
		if f.Ours <= 0 || f.Samples <= 0 {
			t.Errorf("figure %q: %+v", f.Name, f)
		}
	}
}
