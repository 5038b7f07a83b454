package storebench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"
)

// Units of a figure.
const (
	UnitRate = "ev/s" // events (or transactions) per second: higher is better
	UnitMs   = "ms"   // milliseconds: lower is better
)

// Target is the goal a figure is checked against. Zero fields are unset; a
// target with every field unset checks nothing.
type Target struct {
	Min      float64 // Ours must be at least Min
	Max      float64 // Ours must be at most Max
	MinRatio float64 // Ours/Baseline must be at least MinRatio
}

// Set reports whether the target checks anything.
func (t Target) Set() bool { return t.Min != 0 || t.Max != 0 || t.MinRatio != 0 }

// Met reports whether f meets the target.
func (t Target) Met(f Figure) bool {
	switch {
	case t.Min != 0 && f.Ours < t.Min:
		return false
	case t.Max != 0 && f.Ours > t.Max:
		return false
	case t.MinRatio != 0 && (f.Baseline <= 0 || f.Ours/f.Baseline < t.MinRatio):
		return false
	}
	return true
}

func (t Target) text(unit string) string {
	switch {
	case t.MinRatio != 0:
		return fmt.Sprintf(">= %.0f%% of base", t.MinRatio*100)
	case t.Min != 0:
		return ">= " + number(t.Min) + " " + unit
	case t.Max != 0:
		return "<= " + number(t.Max) + " " + unit
	}
	return "-"
}

// Figure is one measured value: ours, the raw baseline measured in the same
// run (0 when there is none) and the target it is checked against.
type Figure struct {
	Name     string
	Unit     string // UnitRate or UnitMs
	Ours     float64
	Baseline float64
	Target   Target
	Samples  int // how many operations or samples the value comes from
	// Reference marks a raw PostgreSQL figure with nothing of ours to
	// compare: its value is in Baseline.
	Reference bool
}

// Ratio is Ours/Baseline, or 0 without a baseline.
func (f Figure) Ratio() float64 {
	if f.Baseline <= 0 {
		return 0
	}
	return f.Ours / f.Baseline
}

// Result is "PASS" or "MISS" for a figure with a target, "-" otherwise.
func (f Figure) Result() string {
	switch {
	case !f.Target.Set():
		return "-"
	case f.Target.Met(f):
		return "PASS"
	}
	return "MISS"
}

// Report is the outcome of a Run.
type Report struct {
	Bench   string // what was measured: "eventstore" when empty
	Mode    string // "full", "quick" or "custom"
	Server  string // PostgreSQL version and relevant settings
	CPUs    int
	Elapsed time.Duration
	Figures []Figure
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

// Print writes the report as a table, one line per figure.
func (r Report) Print(w io.Writer) error {
	bench := r.Bench
	if bench == "" {
		bench = "eventstore"
	}
	fmt.Fprintf(w, "strata bench %s (%s) on %s, %d CPUs, %s\n\n", bench, r.Mode, r.Server, r.CPUs, r.Elapsed.Round(time.Second))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "FIGURE\t%14s\t%14s\t%5s\tTARGET\tRESULT\n", "OURS", "BASELINE", "RATIO")
	for _, f := range r.Figures {
		ours, base, ratio := value(f.Ours, f.Unit), "-", "-"
		if f.Reference {
			ours = "-"
		}
		if f.Baseline > 0 {
			base = value(f.Baseline, f.Unit)
		}
		if f.Baseline > 0 && !f.Reference {
			ratio = strconv.FormatFloat(f.Ratio(), 'f', 2, 64)
		}
		fmt.Fprintf(tw, "%s\t%14s\t%14s\t%5s\t%s\t%s\n", f.Name, ours, base, ratio, f.Target.text(f.Unit), f.Result())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	missed := r.Missed()
	_, err := fmt.Fprintf(w, "\n%d figures, %d targets missed\n", len(r.Figures), len(missed))
	return err
}

func value(v float64, unit string) string { return number(v) + " " + unit }

// number prints rates as integers and small values with 2 decimals.
func number(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// durations collects latency samples.
type durations []time.Duration

// quantile returns the q-quantile (nearest rank) in milliseconds.
func (d durations) quantile(q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
