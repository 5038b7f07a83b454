package main

import (
	"strings"
	"testing"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// wantFigure is a figure a bench's quick run must report: its name (a
// prefix where the name carries measured counts) and whether it has a
// baseline.
type wantFigure struct {
	name     string
	baseline bool
}

// checkFigures asserts that rep reports exactly the wanted figures, in
// order, each with samples and a value (and a baseline where wanted), and
// logs the printed table. byPrefix compares names by prefix.
func checkFigures(t *testing.T, rep storebench.Report, want []wantFigure, byPrefix bool, logs string) {
	t.Helper()
	if len(rep.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v\n%s", len(rep.Figures), len(want), rep.Figures, logs)
	}
	for i, w := range want {
		f := rep.Figures[i]
		same := f.Name == w.name
		if byPrefix {
			same = strings.HasPrefix(f.Name, w.name)
		}
		switch {
		case !same:
			t.Errorf("figure %d is %q, want %q", i, f.Name, w.name)
		case f.Samples <= 0 || f.Ours <= 0:
			t.Errorf("figure %q has no samples or no value: %+v", f.Name, f)
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
