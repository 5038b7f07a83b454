package waterfall

import (
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

// BenchmarkRunAndBreakpoints10Classes measures what a 10-class cap table
// costs end to end: the equilibrium and distribution at one exit, and every
// breakpoint up to $1B.
func BenchmarkRunAndBreakpoints10Classes(b *testing.B) {
	in := Sample10(num.Int(150_000_000))
	maxExit := num.Int(1_000_000_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(in); err != nil {
			b.Fatal(err)
		}
		if _, err := Breakpoints(in, maxExit); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunFixedChoices10Classes is the in-run baseline: one distribution
// of the same table with the choices fixed (no equilibrium, no breakpoints).
func BenchmarkRunFixedChoices10Classes(b *testing.B) {
	in := Sample10(num.Int(150_000_000))
	m := newModel(in)
	e := qNum(in.ExitValue)
	prof := make([]byte, len(m.players))
	for k := range prof {
		prof[k] = byte(k % 2)
	}
	b.ReportAllocs()
	for b.Loop() {
		ev := evaluator{e0: e}
		d := m.distribute(&ev, constant(e), m.newPlan(prof))
		_ = m.result(e, prof, d)
	}
}

// BenchmarkRun10Classes is Run alone (equilibrium and distribution).
func BenchmarkRun10Classes(b *testing.B) {
	in := Sample10(num.Int(150_000_000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBreakpoints10Classes is Breakpoints alone, up to $1B.
func BenchmarkBreakpoints10Classes(b *testing.B) {
	in := Sample10(num.Int(150_000_000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Breakpoints(in, num.Int(1_000_000_000)); err != nil {
			b.Fatal(err)
		}
	}
}
