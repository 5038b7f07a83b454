package oauthbench_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/readapi/oauth/oauthbench"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRunReportsEveryFigure runs the bench at a tiny size and checks each
// figure is reported with a sane value and, where it has one, a baseline
// (no target is asserted: targets are checked by the command, never in
// tests).
func TestRunReportsEveryFigure(t *testing.T) {
	db := pgtest.DB(t)
	opts := oauthbench.Quick()
	opts.Duration, opts.DB, opts.MailDir = 200*time.Millisecond, db.SQL, t.TempDir()
	rep, err := oauthbench.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"auth code + PKCE flow over HTTP, 8 browsers",
		"auth code + PKCE flow p99, 8 browsers",
		"refresh with rotation over HTTP, 16 clients",
		"refresh with rotation p99, 16 clients",
		"introspection over HTTP, 32 clients",
		"introspection p99, 32 clients",
		"introspection in process",
	}
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures: %+v", len(rep.Figures), rep.Figures)
	}
	for _, name := range want {
		f, ok := rep.Figure(name)
		switch {
		case !ok:
			t.Errorf("no figure %q", name)
		case f.Ours <= 0 || f.Samples <= 0:
			t.Errorf("figure %q: %+v", name, f)
		case name != "auth code + PKCE flow p99, 8 browsers" && f.Baseline <= 0:
			t.Errorf("figure %q has no baseline: %+v", name, f)
		}
	}
}
