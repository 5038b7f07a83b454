package builder

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Tracks a company is built on.
const (
	TrackApp     = "app"
	TrackCompany = "company"
)

// Limits of an enrollment.
const (
	MaxCompanyName = 120
	MaxGoal        = 1000
	// MinWindow and MaxWindow bound the nightly window's length.
	MinWindow = time.Hour
	MaxWindow = 12 * time.Hour
)

// Window is the nightly window, as wall-clock times "HH:MM" in the
// enrollment's time zone; End before Start crosses midnight.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// DefaultWindow is 02:00 to 05:00.
func DefaultWindow() Window { return Window{Start: "02:00", End: "05:00"} }

// Budget bounds one nightly run: proposed tasks, draft artifacts, model
// tokens and seconds. Offline a run spends no tokens and writes no
// drafts.
type Budget struct {
	MaxProposals int `json:"max_proposals"`
	MaxDrafts    int `json:"max_drafts"`
	MaxTokens    int `json:"max_tokens"`
	MaxSeconds   int `json:"max_seconds"`
}

// DefaultBudget: 5 proposals, 2 drafts, 20 000 tokens, 60 seconds.
func DefaultBudget() Budget {
	return Budget{MaxProposals: 5, MaxDrafts: 2, MaxTokens: 20_000, MaxSeconds: 60}
}

// BudgetCaps: at most 20 proposals, 10 drafts, 200 000 tokens, 600
// seconds (the job's own timeout, STRATA_JOBS_TIMEOUT, bounds a run too).
func BudgetCaps() Budget {
	return Budget{MaxProposals: 20, MaxDrafts: 10, MaxTokens: 200_000, MaxSeconds: 600}
}

// BudgetInput is a budget as posted: nil members take DefaultBudget's.
type BudgetInput struct {
	MaxProposals *int `json:"max_proposals"`
	MaxDrafts    *int `json:"max_drafts"`
	MaxTokens    *int `json:"max_tokens"`
	MaxSeconds   *int `json:"max_seconds"`
}

// EnrollInput is a posted enrollment.
type EnrollInput struct {
	CompanyName string
	Track       string
	Goal        string
	TimeZone    string       // "": UTC
	Window      *Window      // nil: DefaultWindow
	Budget      *BudgetInput // nil: DefaultBudget
}

// Enroll decides an enrollment (or a re-enrollment, which replaces the
// previous one whole: omitted options take their defaults, not the
// previous values). Errors name the field: companyName, track, goal,
// timeZone, window.start, window.end, window, budget.<member>.
func Enroll(companyID, founderID string, in EnrollInput, updated bool, at time.Time) (*NightlyEnrolled, error) {
	name := strings.TrimSpace(in.CompanyName)
	switch {
	case name == "":
		return nil, kernel.Invalid("companyName", "required", "companyName is required")
	case utf8.RuneCountInString(name) > MaxCompanyName:
		return nil, kernel.Invalid("companyName", fmt.Sprintf("max_length:%d", MaxCompanyName), fmt.Sprintf("companyName is longer than %d characters", MaxCompanyName))
	case in.Track == "":
		return nil, kernel.Invalid("track", "required", "track is required: app or company")
	case in.Track != TrackApp && in.Track != TrackCompany:
		return nil, kernel.Invalid("track", "enum:app,company", fmt.Sprintf("track %q is not app or company", in.Track))
	case utf8.RuneCountInString(in.Goal) > MaxGoal:
		return nil, kernel.Invalid("goal", fmt.Sprintf("max_length:%d", MaxGoal), fmt.Sprintf("goal is longer than %d characters", MaxGoal))
	}
	zone, err := CheckTimeZone(in.TimeZone)
	if err != nil {
		return nil, err
	}
	w := DefaultWindow()
	if in.Window != nil {
		w = *in.Window
	}
	if err := w.check(); err != nil {
		return nil, err
	}
	b, err := budgetOf(in.Budget)
	if err != nil {
		return nil, err
	}
	return &NightlyEnrolled{CompanyID: companyID, CompanyName: name, Track: in.Track, Goal: strings.TrimSpace(in.Goal), TimeZone: zone,
		Window: w, Budget: b, FounderID: founderID, Updated: updated, At: at}, nil
}

// CheckTimeZone validates an IANA time zone name ("" is UTC; "Local" is
// refused, it means the server's zone).
func CheckTimeZone(zone string) (string, error) {
	if zone == "" {
		return "UTC", nil
	}
	if zone == "Local" || len(zone) > 64 {
		return "", kernel.Invalid("timeZone", "iana", "timeZone must be an IANA time zone such as Europe/Paris or UTC")
	}
	if _, err := time.LoadLocation(zone); err != nil {
		return "", kernel.Invalid("timeZone", "iana", fmt.Sprintf("%q is not an IANA time zone (such as Europe/Paris or UTC)", zone))
	}
	return zone, nil
}

func parseClock(field, s string) (int, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, kernel.Invalid(field, "format:HH:MM", field+" must be a 24-hour time HH:MM such as 02:00")
	}
	return t.Hour()*60 + t.Minute(), nil
}

// length is the window's nominal length (End before Start crosses midnight).
func (w Window) length() (time.Duration, error) {
	s, err := parseClock("window.start", w.Start)
	if err != nil {
		return 0, err
	}
	e, err := parseClock("window.end", w.End)
	if err != nil {
		return 0, err
	}
	m := (e - s + 24*60) % (24 * 60)
	return time.Duration(m) * time.Minute, nil
}

func (w Window) check() error {
	d, err := w.length()
	if err != nil {
		return err
	}
	if d < MinWindow || d > MaxWindow {
		return kernel.Invalid("window", "length:1h-12h", fmt.Sprintf("the window from %s to %s lasts %s; it must last 1 to 12 hours", w.Start, w.End, d))
	}
	return nil
}

func budgetOf(in *BudgetInput) (Budget, error) {
	b, caps := DefaultBudget(), BudgetCaps()
	if in == nil {
		return b, nil
	}
	for _, m := range []struct {
		name     string
		in       *int
		dst      *int
		min, max int
	}{
		{"max_proposals", in.MaxProposals, &b.MaxProposals, 0, caps.MaxProposals},
		{"max_drafts", in.MaxDrafts, &b.MaxDrafts, 0, caps.MaxDrafts},
		{"max_tokens", in.MaxTokens, &b.MaxTokens, 0, caps.MaxTokens},
		{"max_seconds", in.MaxSeconds, &b.MaxSeconds, 5, caps.MaxSeconds},
	} {
		if m.in == nil {
			continue
		}
		if *m.in < m.min || *m.in > m.max {
			return Budget{}, kernel.Invalid("budget."+m.name, fmt.Sprintf("range:%d-%d", m.min, m.max),
				fmt.Sprintf("budget.%s must be from %d to %d", m.name, m.min, m.max))
		}
		*m.dst = *m.in
	}
	return b, nil
}

// NightWindow is one night's window: its key (the local date it starts
// on, "2006-01-02") and its instants.
type NightWindow struct {
	Night      string
	Start, End time.Time
}

// Contains reports whether t is inside the window.
func (n NightWindow) Contains(t time.Time) bool { return !t.Before(n.Start) && t.Before(n.End) }

// windowOn is the window starting on local date (y, m, d) in loc.
func windowOn(w Window, loc *time.Location, y int, m time.Month, d int) NightWindow {
	s, _ := parseClock("window.start", w.Start)
	e, _ := parseClock("window.end", w.End)
	ed := d
	if e <= s {
		ed++
	}
	start, end := wallTime(loc, y, m, d, s), wallTime(loc, y, m, ed, e)
	return NightWindow{Night: time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), Start: start.UTC(), End: end.UTC()}
}

// wallTime is the instant the clocks of loc read minute-of-day min on
// (y, m, d); a time the clocks skip (the spring-forward gap) is the first
// instant after the gap, as periodic jobs have it (commands/jobs); a time
// that happens twice is its first occurrence.
func wallTime(loc *time.Location, y int, m time.Month, d, min int) time.Time {
	t := time.Date(y, m, d, min/60, min%60, 0, 0, loc)
	if t.Hour() == min/60 && t.Minute() == min%60 {
		return t
	}
	// The gap's end is a bound of t's zone period: the nearer one (Go may
	// place a skipped time before or after the gap).
	start, end := t.ZoneBounds()
	switch {
	case start.IsZero() && end.IsZero():
		return t
	case end.IsZero() || !start.IsZero() && t.Sub(start) <= end.Sub(t):
		return start
	}
	return end
}

// WindowAt returns the window that contains t (inside true), or else the
// next one to start after t.
func (e *NightlyEnrolled) WindowAt(t time.Time) (NightWindow, bool) {
	loc, err := time.LoadLocation(e.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	lt := t.In(loc)
	for _, dd := range []int{-1, 0, 1, 2} {
		n := windowOn(e.Window, loc, lt.Year(), lt.Month(), lt.Day()+dd)
		if n.Contains(t) {
			return n, true
		}
		if n.Start.After(t) {
			return n, false
		}
	}
	return windowOn(e.Window, loc, lt.Year(), lt.Month(), lt.Day()+2), false
}

// NextRun is when the next scheduled run is due after t: now when t is
// inside a window whose night has no report yet (done), else the start of
// the next window.
func (e *NightlyEnrolled) NextRun(t time.Time, done func(night string) bool) time.Time {
	n, inside := e.WindowAt(t)
	if inside && !done(n.Night) {
		return t.UTC()
	}
	if inside {
		n, _ = e.WindowAt(n.End)
	}
	return n.Start
}
