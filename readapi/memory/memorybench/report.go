package memorybench

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"
)

// Units of a figure.
const (
	UnitMs     = "ms"       // milliseconds: lower is better
	UnitShare  = "share"    // a fraction of queries or result slots, in [0, 1]
	UnitPoints = "pts"      // percentage points
	UnitMemS   = "mem/s"    // memories per second
	UnitCount  = "calls"    // a number of calls
	UnitMems   = "memories" // a number of memories
)

// Target is the goal a figure is checked against: Ours Op Value, where Op
// is ">=" or "<="; an empty Op checks nothing.
type Target struct {
	Op    string
	Value float64
}

// AtLeast and AtMost build targets.
func AtLeast(v float64) Target { return Target{Op: ">=", Value: v} }

// AtMost is the target Ours <= v.
func AtMost(v float64) Target { return Target{Op: "<=", Value: v} }

// Set reports whether the target checks anything.
func (t Target) Set() bool { return t.Op != "" }

// Met reports whether ours meets the target (an unset target always is).
func (t Target) Met(ours float64) bool {
	switch t.Op {
	case ">=":
		return ours >= t.Value
	case "<=":
		return ours <= t.Value
	}
	return true
}

// Figure is one measured value, next to its baseline when it has one.
type Figure struct {
	Name        string
	Unit        string
	Ours        float64
	Baseline    float64
	HasBaseline bool
	Target      Target
	Samples     int // how many queries, calls or operations the value comes from
}

// Result is "PASS" or "MISS" for a figure with a target, "-" otherwise.
func (f Figure) Result() string {
	switch {
	case !f.Target.Set():
		return "-"
	case f.Target.Met(f.Ours):
		return "PASS"
	}
	return "MISS"
}

// Report is the outcome of a Run.
type Report struct {
	Bench   string
	Mode    string // "full", "quick" or "custom"
	Server  string // PostgreSQL version and what was loaded
	CPUs    int
	Elapsed time.Duration
	Figures []Figure
	// Extraction is the extraction section: each path's entity, relation
	// and ended-fact scores on the labelled set (extraction.go).
	Extraction []ExtractionScore
	Notes      []string // what the baselines are
}

// Figure returns the figure with the given name.
func (r Report) Figure(name string) (Figure, bool) {
	for _, f := range r.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Missed lists the figures whose target was not met.
func (r Report) Missed() []Figure {
	var out []Figure
	for _, f := range r.Figures {
		if f.Result() == "MISS" {
			out = append(out, f)
		}
	}
	return out
}

// Print writes the report as a table, one line per figure, then the
// extraction section, then the notes.
func (r Report) Print(w io.Writer) error {
	fmt.Fprintf(w, "strata bench %s (%s) on %s, %d CPUs, %s\n\n", r.Bench, r.Mode, r.Server, r.CPUs, r.Elapsed.Round(time.Second))
	if len(r.Figures) > 0 {
		if err := r.printFigures(w); err != nil {
			return err
		}
	}
	if len(r.Extraction) > 0 {
		if err := r.printExtraction(w); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "* %s\n", n)
	}
	_, err := fmt.Fprintf(w, "\n%d figures, %d targets missed\n", len(r.Figures), len(r.Missed()))
	return err
}

// printExtraction writes the extraction section: a line per path and score.
func (r Report) printExtraction(w io.Writer) error {
	fmt.Fprintf(w, "extraction (%d labelled sentences)\n", r.Extraction[0].Sentences)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "PATH\tSCORE\tPRECISION\tRECALL\tF1\tTP\tFP\tFN\n")
	for _, s := range r.Extraction {
		for _, row := range []struct {
			name string
			c    PRF
		}{{"entities", s.Entities}, {"entities, typed", s.EntitiesTyped}, {"relations", s.Relations}, {"ended facts", s.Ended}} {
			fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\n", s.Path, row.name, row.c.Precision(), row.c.Recall(),
				row.c.F1(), row.c.TP, row.c.FP, row.c.FN)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// printFigures writes the table of figures.
func (r Report) printFigures(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "FIGURE\t%16s\t%16s\t%5s\tN\tTARGET\tRESULT\n", "OURS", "BASELINE", "RATIO")
	for _, f := range r.Figures {
		base, ratio := "-", "-"
		if f.HasBaseline {
			base = value(f.Baseline, f.Unit)
			if f.Baseline != 0 {
				ratio = strconv.FormatFloat(f.Ours/f.Baseline, 'f', 2, 64)
			}
		}
		target := "-"
		if f.Target.Set() {
			target = f.Target.Op + " " + value(f.Target.Value, f.Unit)
		}
		fmt.Fprintf(tw, "%s\t%16s\t%16s\t%5s\t%d\t%s\t%s\n", f.Name, value(f.Ours, f.Unit), base, ratio, f.Samples, target, f.Result())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// value prints shares with 3 decimals, large values as integers and the
// rest with 2 decimals.
func value(v float64, unit string) string {
	switch {
	case unit == UnitShare:
		return strconv.FormatFloat(v, 'f', 3, 64) + " " + unit
	case math.Abs(v) >= 100 || unit == UnitCount || unit == UnitMems:
		return strconv.FormatFloat(v, 'f', 0, 64) + " " + unit
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " " + unit
}
