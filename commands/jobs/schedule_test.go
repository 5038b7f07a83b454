package jobs

import (
	"strings"
	"testing"
	"time"
)

func mustSchedule(t *testing.T, spec, zone string) *Schedule {
	t.Helper()
	s, err := ParseSchedule(spec, zone)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// runs lists the schedule's runs after from, up to and including until.
func runs(s *Schedule, from, until time.Time) []time.Time {
	var out []time.Time
	for r := s.Next(from); !r.IsZero() && !r.After(until); r = s.Next(r) {
		out = append(out, r)
	}
	return out
}

func format(ts []time.Time) string {
	var b []string
	for _, t := range ts {
		b = append(b, t.UTC().Format("2006-01-02T15:04Z")+" ("+t.Format("15:04 MST")+")")
	}
	return strings.Join(b, ", ")
}

// The two 2026 clock changes in America/Los_Angeles: 2026-03-08 02:00 PST
// becomes 03:00 PDT (10:00 UTC); 2026-11-01 02:00 PDT becomes 01:00 PST
// (09:00 UTC).
func TestNextAcrossTheLosAngelesClockChanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, spec  string
		from, until string
		want        []string // UTC instants
	}{
		{"weekly 02:00 on the spring-forward Sunday runs once, at 03:00 PDT", "0 2 * * 0",
			"2026-03-01T00:00:00Z", "2026-03-16T00:00:00Z",
			[]string{"2026-03-01T10:00:00Z", "2026-03-08T10:00:00Z", "2026-03-15T09:00:00Z"}},
		{"02:30 in the gap also runs at 03:00 PDT", "30 2 * * *",
			"2026-03-07T00:00:00Z", "2026-03-09T23:00:00Z",
			[]string{"2026-03-07T10:30:00Z", "2026-03-08T10:00:00Z", "2026-03-09T09:30:00Z"}},
		{"weekly 01:30 on the fall-back Sunday runs once, at its first occurrence (PDT)", "30 1 * * 0",
			"2026-10-25T00:00:00Z", "2026-11-09T00:00:00Z",
			[]string{"2026-10-25T08:30:00Z", "2026-11-01T08:30:00Z", "2026-11-08T09:30:00Z"}},
		{"weekly 02:00 on the fall-back Sunday runs once, at 02:00 PST", "0 2 * * 0",
			"2026-10-31T00:00:00Z", "2026-11-02T00:00:00Z",
			[]string{"2026-11-01T10:00:00Z"}},
		{"hourly on the spring-forward night: 02:00 and 03:00 are one run", "0 * * * *",
			"2026-03-08T07:30:00Z", "2026-03-08T12:00:00Z",
			[]string{"2026-03-08T08:00:00Z", "2026-03-08T09:00:00Z", "2026-03-08T10:00:00Z", "2026-03-08T11:00:00Z", "2026-03-08T12:00:00Z"}},
		{"hourly on the fall-back night: 01:00 once, then 02:00 PST", "0 * * * *",
			"2026-11-01T06:30:00Z", "2026-11-01T11:00:00Z",
			[]string{"2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z", "2026-11-01T10:00:00Z", "2026-11-01T11:00:00Z"}},
		{"every 20 minutes across the gap", "*/20 * * * *",
			"2026-03-08T09:30:00Z", "2026-03-08T10:30:00Z",
			[]string{"2026-03-08T09:40:00Z", "2026-03-08T10:00:00Z", "2026-03-08T10:20:00Z"}},
		{"daily 09:00 stays at 09:00 local on both sides", "0 9 * * *",
			"2026-03-07T00:00:00Z", "2026-03-09T23:00:00Z",
			[]string{"2026-03-07T17:00:00Z", "2026-03-08T16:00:00Z", "2026-03-09T16:00:00Z"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSchedule(t, tc.spec, "America/Los_Angeles")
			got := runs(s, utc(tc.from).Add(-time.Nanosecond), utc(tc.until))
			var want []time.Time
			for _, w := range tc.want {
				want = append(want, utc(w).In(s.Location()))
			}
			if format(got) != format(want) {
				t.Fatalf("%s from %s:\n got  %s\n want %s", tc.spec, tc.from, format(got), format(want))
			}
		})
	}
}

// Asked during the second pass of the repeated hour (01:45 PST), the next
// run of a 01:30 schedule is the next day's: 01:30 already ran as PDT.
func TestNextDuringTheRepeatedHourDoesNotRunItAgain(t *testing.T) {
	t.Parallel()
	s := mustSchedule(t, "30 1 * * *", "America/Los_Angeles")
	if got, want := s.Next(utc("2026-11-01T09:45:00Z")), utc("2026-11-02T09:30:00Z"); !got.Equal(want) {
		t.Fatalf("Next(01:45 PST) = %s, want %s", got, want)
	}
	if got, want := s.Next(utc("2026-11-01T08:45:00Z")), utc("2026-11-02T09:30:00Z"); !got.Equal(want) {
		t.Fatalf("Next(01:45 PDT) = %s, want %s", got, want)
	}
	h := mustSchedule(t, "15 * * * *", "America/Los_Angeles")
	if got, want := h.Next(utc("2026-11-01T09:05:00Z")), utc("2026-11-01T10:15:00Z"); !got.Equal(want) {
		t.Fatalf("hourly Next(01:05 PST) = %s, want %s (01:15 ran as PDT)", got, want)
	}
}

// A whole year of a weekly and a daily Pacific schedule: one run per
// Sunday and per day, each at the intended local time or, in the gap, just
// after it; no instant twice.
func TestAYearOfPacificRuns(t *testing.T) {
	t.Parallel()
	from, until := utc("2026-01-01T08:00:00Z"), utc("2027-01-01T08:00:00Z") // the local year 2026
	weekly := runs(mustSchedule(t, "0 2 * * SUN", "America/Los_Angeles"), from.Add(-time.Nanosecond), until)
	if len(weekly) != 52 {
		t.Fatalf("weekly: %d runs in 2026, want 52 Sundays", len(weekly))
	}
	for _, r := range weekly {
		if r.Weekday() != time.Sunday || (r.Hour() != 2 && !(r.Hour() == 3 && r.Month() == time.March && r.Day() == 8)) {
			t.Errorf("weekly run at %s", r.Format(time.RFC1123))
		}
	}
	daily := runs(mustSchedule(t, "0 9 * * *", "America/Los_Angeles"), from.Add(-time.Nanosecond), until)
	if len(daily) != 365 {
		t.Fatalf("daily: %d runs in 2026, want 365", len(daily))
	}
	seen := map[string]bool{}
	for _, r := range daily {
		day := r.Format("2006-01-02")
		if r.Hour() != 9 || r.Minute() != 0 || seen[day] {
			t.Errorf("daily run at %s", r.Format(time.RFC1123))
		}
		seen[day] = true
	}
}

// Against a brute-force oracle: scan every minute, keep the furthest wall
// clock reading seen so far, and call an instant a run when the clock
// reaches an intended wall time for the first time there. Zones with an
// hour (Los Angeles), half an hour (Lord Howe) and a whole day (Apia,
// 2011-12-30) of change.
func TestNextAgreesWithAMinuteByMinuteOracle(t *testing.T) {
	t.Parallel()
	cases := []struct{ zone, from string }{
		{"America/Los_Angeles", "2026-03-07T00:00:00Z"},
		{"America/Los_Angeles", "2026-10-31T00:00:00Z"},
		{"Australia/Lord_Howe", "2026-04-04T00:00:00Z"},
		{"Australia/Lord_Howe", "2026-10-03T00:00:00Z"},
		{"Pacific/Apia", "2011-12-28T00:00:00Z"},
		{"Europe/London", "2026-03-28T00:00:00Z"},
	}
	specs := []string{"0 2 * * *", "30 1 * * *", "0 * * * *", "*/15 * * * *", "45 0-3 * * *", "0 0 * * *", "10 2,3 * * 0"}
	for _, tc := range cases {
		for _, spec := range specs {
			s := mustSchedule(t, spec, tc.zone)
			from := utc(tc.from)
			until := from.Add(72 * time.Hour)
			want := oracle(s, from, until)
			got := runs(s, from, until)
			if format(got) != format(want) {
				t.Errorf("%s in %s from %s:\n got  %s\n want %s", spec, tc.zone, tc.from, format(got), format(want))
			}
		}
	}
}

func oracle(s *Schedule, from, until time.Time) []time.Time {
	var out []time.Time
	start := from.Add(-72 * time.Hour)
	maxSeen := wall(start.In(s.loc))
	for t := start.Add(time.Minute); !t.After(until); t = t.Add(time.Minute) {
		w := wall(t.In(s.loc))
		run := false
		// Is an intended wall minute in (maxSeen, w]?
		for c := maxSeen.Truncate(time.Minute).Add(time.Minute); !c.After(w); c = c.Add(time.Minute) {
			if s.matches(c) {
				run = true
				break
			}
		}
		if w.After(maxSeen) {
			maxSeen = w
		}
		if run && t.After(from) {
			out = append(out, t.In(s.loc))
		}
	}
	return out
}

// matches reports whether the wall-clock minute w is named by the expression.
func (s *Schedule) matches(w time.Time) bool {
	return s.month&(1<<uint(w.Month())) != 0 && s.dayMatches(w) && s.hour&(1<<uint(w.Hour())) != 0 && s.minute&(1<<uint(w.Minute())) != 0
}

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	from := utc("2026-01-01T00:00:00Z") // a Thursday
	cases := []struct {
		spec string
		want string // the first run after from, UTC
	}{
		{"@hourly", "2026-01-01T01:00:00Z"},
		{"@daily", "2026-01-02T00:00:00Z"},
		{"@weekly", "2026-01-04T00:00:00Z"},
		{"@monthly", "2026-02-01T00:00:00Z"},
		{"@yearly", "2027-01-01T00:00:00Z"},
		{"5/20 * * * *", "2026-01-01T00:05:00Z"},
		{"0 12 * * MON-FRI", "2026-01-01T12:00:00Z"},
		{"0 0 * * 7", "2026-01-04T00:00:00Z"},
		{"0 0 13 * 5", "2026-01-02T00:00:00Z"},  // either day field: Friday the 2nd
		{"0 0 13 * *", "2026-01-13T00:00:00Z"},  // day of month alone
		{"0 0 * FEB *", "2026-02-01T00:00:00Z"}, // month name
		{"0 0 29 2 *", "2028-02-29T00:00:00Z"},  // leap day
	}
	for _, tc := range cases {
		s := mustSchedule(t, tc.spec, "UTC")
		if got := s.Next(from); !got.Equal(utc(tc.want)) {
			t.Errorf("%s: Next = %s, want %s", tc.spec, got.UTC().Format(time.RFC3339), tc.want)
		}
	}
	if got := mustSchedule(t, "0 0 30 2 *", "UTC").Next(from); !got.IsZero() {
		t.Errorf("February 30th ran at %s", got)
	}
	for spec, zone := range map[string]string{"* * * *": "UTC", "60 * * * *": "UTC", "* 24 * * *": "UTC", "* * 0 * *": "UTC",
		"* * * 13 *": "UTC", "* * * * 8": "UTC", "*/0 * * * *": "UTC", "5-1 * * * *": "UTC", "x * * * *": "UTC",
		"0 2 * * 0": "America/Nowhere", "0 3 * * 1": ""} {
		if _, err := ParseSchedule(spec, zone); err == nil {
			t.Errorf("ParseSchedule(%q, %q) accepted", spec, zone)
		}
	}
}
