package jobs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is a cron expression read in a named time zone. Its runs are the
// wall-clock times the expression names, in that zone, with one rule for the
// days the clocks change:
//   - a time the clocks skip (02:30 on the spring-forward night in
//     America/Los_Angeles) runs at the first instant after the gap (03:00
//     PDT), once;
//   - a time the clocks pass twice (01:30 on the fall-back night) runs at its
//     first occurrence (01:30 PDT), once;
//   - no instant is a run twice: times that land on one instant (02:00 and
//     03:00 of an hourly schedule on the spring-forward night) are one run.
//
// robfig/cron (the usual Go cron library) skips times in a spring-forward
// gap, so Next is our own; ParseSchedule reads the usual five fields.
type Schedule struct {
	spec             string
	loc              *time.Location
	minute, hour     uint64 // bit n: minute or hour n matches
	dom, month, dow  uint64 // day of month 1-31, month 1-12, day of week 0-6 (Sunday 0)
	domStar, dowStar bool   // the field was "*" (or "*/n"): the other day field alone decides
}

// maxSearch bounds Next's search: a schedule with no run within it (such
// as "0 0 30 2 *") has none.
const maxSearch = 10 * 366 * 24 * time.Hour

// ParseSchedule reads a cron expression of five fields — minute (0-59),
// hour (0-23), day of month (1-31), month (1-12 or JAN-DEC), day of week
// (0-7 or SUN-SAT, 0 and 7 both Sunday) — each a "*" or a comma list of
// values and ranges (a-b), any of them with a step (/n); or one of @yearly,
// @annually, @monthly, @weekly, @daily, @midnight, @hourly. As in cron, when
// both day fields are restricted a day matches either. zone is an IANA
// name such as "America/Los_Angeles" ("UTC" for none).
func ParseSchedule(spec, zone string) (*Schedule, error) {
	if zone == "" {
		return nil, fmt.Errorf("schedule %q: a time zone is required (an IANA name, or UTC)", spec)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, fmt.Errorf("schedule %q: time zone %q: %w", spec, zone, err)
	}
	expr := strings.TrimSpace(spec)
	if d, ok := descriptors[expr]; ok {
		expr = d
	}
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return nil, fmt.Errorf("schedule %q: want five fields (minute hour day-of-month month day-of-week), got %d", spec, len(fields))
	}
	s := &Schedule{spec: spec, loc: loc}
	parts := []struct {
		name     string
		dst      *uint64
		min, max int
		names    []string
		star     *bool
	}{
		{"minute", &s.minute, 0, 59, nil, nil},
		{"hour", &s.hour, 0, 23, nil, nil},
		{"day of month", &s.dom, 1, 31, nil, &s.domStar},
		{"month", &s.month, 1, 12, monthNames, nil},
		{"day of week", &s.dow, 0, 7, dayNames, &s.dowStar},
	}
	for i, p := range parts {
		bits, star, err := parseField(fields[i], p.min, p.max, p.names)
		if err != nil {
			return nil, fmt.Errorf("schedule %q: %s: %w", spec, p.name, err)
		}
		*p.dst = bits
		if p.star != nil {
			*p.star = star
		}
	}
	if s.dow&(1<<7) != 0 { // 7 is Sunday too
		s.dow = s.dow&^(1<<7) | 1
	}
	return s, nil
}

var descriptors = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

var (
	monthNames = []string{"", "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
	dayNames   = []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}
)

// parseField returns the field's bit set and whether it starts with "*".
func parseField(field string, min, max int, names []string) (uint64, bool, error) {
	var bits uint64
	for _, item := range strings.Split(field, ",") {
		rng, stepText, hasStep := strings.Cut(item, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 || n > max {
				return 0, false, fmt.Errorf("step %q: want a whole number from 1 to %d", stepText, max)
			}
			step = n
		}
		lo, hi := min, max
		switch {
		case rng == "*":
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			var err error
			if lo, err = fieldValue(a, min, max, names); err != nil {
				return 0, false, err
			}
			if hi, err = fieldValue(b, min, max, names); err != nil {
				return 0, false, err
			}
			if lo > hi {
				return 0, false, fmt.Errorf("range %q runs backwards", rng)
			}
		default:
			v, err := fieldValue(rng, min, max, names)
			if err != nil {
				return 0, false, err
			}
			lo, hi = v, v
			if hasStep { // "5/15": from 5 to the end, every 15
				hi = max
			}
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, strings.HasPrefix(field, "*"), nil
}

func fieldValue(text string, min, max int, names []string) (int, error) {
	for i, n := range names {
		if n != "" && strings.EqualFold(text, n) {
			return i, nil
		}
	}
	v, err := strconv.Atoi(text)
	if err != nil || v < min || v > max {
		return 0, fmt.Errorf("value %q: want %d-%d", text, min, max)
	}
	return v, nil
}

// String returns the expression and its zone.
func (s *Schedule) String() string { return s.spec + " (" + s.loc.String() + ")" }

// Location returns the schedule's time zone.
func (s *Schedule) Location() *time.Location { return s.loc }

// Next returns the first run strictly after the instant after (in the
// schedule's zone), or the zero time when there is none within ten years.
// Runs follow the rule on Schedule: Next(Next(t)) never repeats an
// instant, skips no intended time, and runs a repeated wall-clock time once.
func (s *Schedule) Next(after time.Time) time.Time {
	a := after.In(s.loc)
	// A run must be a wall-clock time no earlier instant has shown: later
	// than the wall clock now, and not before the end of an earlier zone
	// period whose clock ran ahead (the hour before a fall-back).
	lo := wall(a).Truncate(time.Minute).Add(time.Minute)
	t := a
	for range 4 {
		start, _ := t.ZoneBounds()
		if start.IsZero() || a.Sub(start) > 48*time.Hour {
			break
		}
		prev := start.Add(-time.Nanosecond).In(s.loc)
		if end := wallAt(start, prev); end.After(lo) {
			lo = ceilMinute(end)
		}
		t = prev
	}
	limit := lo.Add(maxSearch)
	for w := s.firstMatch(lo, limit); !w.IsZero(); w = s.firstMatch(w.Add(time.Minute), limit) {
		if r := s.resolve(w); r.After(after) {
			return r
		}
	}
	return time.Time{}
}

// wall returns t's wall-clock reading in its location as a UTC time (a
// "naive" date and time, compared as such).
func wall(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	return time.Date(y, mo, d, h, mi, sec, t.Nanosecond(), time.UTC)
}

// wallAt returns the wall-clock reading at instant at with the offset in
// force at the instant in (used for the end of in's zone period).
func wallAt(at, in time.Time) time.Time {
	_, off := in.Zone()
	return at.UTC().Add(time.Duration(off) * time.Second)
}

func ceilMinute(t time.Time) time.Time {
	if f := t.Truncate(time.Minute); !f.Equal(t) {
		return f.Add(time.Minute)
	}
	return t
}

// firstMatch returns the first wall-clock minute at or after w (a naive UTC
// time on a minute) that the expression names, or zero at limit.
func (s *Schedule) firstMatch(w, limit time.Time) time.Time {
	for w.Before(limit) {
		y, mo, d := w.Date()
		switch {
		case s.month&(1<<uint(mo)) == 0:
			w = time.Date(y, mo+1, 1, 0, 0, 0, 0, time.UTC)
		case !s.dayMatches(w):
			w = time.Date(y, mo, d+1, 0, 0, 0, 0, time.UTC)
		case s.hour&(1<<uint(w.Hour())) == 0:
			w = time.Date(y, mo, d, w.Hour()+1, 0, 0, 0, time.UTC)
		case s.minute&(1<<uint(w.Minute())) == 0:
			w = w.Add(time.Minute)
		default:
			return w
		}
	}
	return time.Time{}
}

// dayMatches applies cron's rule: with both day fields restricted, either
// may match; otherwise the restricted one (or none) decides.
func (s *Schedule) dayMatches(w time.Time) bool {
	dom := s.dom&(1<<uint(w.Day())) != 0
	dow := s.dow&(1<<uint(w.Weekday())) != 0
	if s.domStar || s.dowStar {
		return dom && dow
	}
	return dom || dow
}

// resolve returns the first instant at which the zone's clock reads w or
// later: w itself when it exists (its first occurrence when it exists
// twice), the end of the gap when the clocks skip it.
func (s *Schedule) resolve(w time.Time) time.Time {
	t := w.Add(-48 * time.Hour).In(s.loc) // an instant whose zone period began before w
	for {
		start, end := t.ZoneBounds()
		_, off := t.Zone()
		if !start.IsZero() && w.Before(wallAt(start, t)) {
			return start.In(s.loc) // the clocks jumped over w into this period
		}
		if end.IsZero() || w.Before(wallAt(end, t)) {
			return w.Add(-time.Duration(off) * time.Second).In(s.loc)
		}
		t = end.In(s.loc)
	}
}
