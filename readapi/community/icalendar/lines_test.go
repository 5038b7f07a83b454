package icalendar_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

func event(uid string) icalendar.Event {
	return icalendar.Event{
		UID:     uid,
		Stamp:   time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC),
		Start:   time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC),
		Summary: "Event " + uid,
	}
}

func TestGoldenOutput(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	c := icalendar.Calendar{
		ProdID:          "-//Strata//Community Events//EN",
		Name:            "Strata; events",
		RefreshInterval: time.Hour,
		Events: []icalendar.Event{{
			UID:          "0b9f@strata",
			Sequence:     2,
			Stamp:        time.Date(2026, 11, 20, 10, 30, 15, 999_999_999, paris),
			Created:      time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC),
			LastModified: time.Date(2026, 11, 20, 9, 30, 15, 0, time.UTC),
			Start:        time.Date(2026, 12, 1, 19, 0, 0, 0, paris),
			End:          time.Date(2026, 12, 1, 21, 30, 0, 0, paris),
			Summary:      `Quiz night, round 2; bring \ pens`,
			Description:  "Line 1\r\nLine 2",
			Location:     "Hall A: 1st floor",
			URL:          "https://strata.example/e/0b9f?x=1,2;y",
			Cancelled:    true,
			Categories:   []string{"quiz", "a,b"},
		}},
	}
	want := strings.Join([]string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//Strata//Community Events//EN",
		"CALSCALE:GREGORIAN",
		`NAME:Strata\; events`,
		`X-WR-CALNAME:Strata\; events`,
		"REFRESH-INTERVAL;VALUE=DURATION:PT1H",
		"X-PUBLISHED-TTL:PT1H",
		"BEGIN:VEVENT",
		"UID:0b9f@strata",
		"SEQUENCE:2",
		"DTSTAMP:20261120T093015Z",
		"CREATED:20261101T080000Z",
		"LAST-MODIFIED:20261120T093015Z",
		"DTSTART:20261201T180000Z",
		"DTEND:20261201T203000Z",
		`SUMMARY:Quiz night\, round 2\; bring \\ pens`,
		`DESCRIPTION:Line 1\nLine 2`,
		"LOCATION:Hall A: 1st floor",
		"URL:https://strata.example/e/0b9f?x=1,2;y",
		`CATEGORIES:quiz,a\,b`,
		"STATUS:CANCELLED",
		"TRANSP:OPAQUE",
		"END:VEVENT",
		"END:VCALENDAR",
		"",
	}, "\r\n")
	b, _ := mustLines(t, c)
	if string(b) != want {
		t.Errorf("output differs\n got:\n%s\nwant:\n%s", b, want)
	}
}

func TestMinimalEventOmitsOptionalProperties(t *testing.T) {
	ev := event("min@strata")
	ev.End = ev.Start // equal to Start: DTEND left out (RFC 5545 wants DTEND > DTSTART)
	b, lines := mustLines(t, icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{ev}})
	for _, l := range lines {
		switch propName(l) {
		case "DTEND", "DESCRIPTION", "LOCATION", "URL", "CATEGORIES", "CREATED", "LAST-MODIFIED",
			"NAME", "X-WR-CALNAME", "REFRESH-INTERVAL", "X-PUBLISHED-TTL", "METHOD":
			t.Errorf("unexpected %q", l)
		}
	}
	_, evs := decode(t, b)
	checkEvent(t, evs[0], icalendar.Event{UID: ev.UID, Stamp: ev.Stamp, Start: ev.Start, Summary: ev.Summary})
}

// TestLineRules runs the raw-byte line checks over calendars of every shape.
func TestLineRules(t *testing.T) {
	long := strings.Repeat("Ünïcödé 日本 🎉👩‍👩‍👧 ,;\\\n", 50)
	many := make([]icalendar.Event, 40)
	for i := range many {
		many[i] = event(fmt.Sprintf("e%d@strata", i))
		many[i].Description = long[:i*37]
	}
	for name, c := range map[string]icalendar.Calendar{
		"no events":    {ProdID: "-//T//T//EN"},
		"one event":    {ProdID: "-//T//T//EN", Events: []icalendar.Event{event("a@strata")}},
		"many events":  {ProdID: "-//T//T//EN", Name: "Feed", RefreshInterval: time.Hour, Events: many},
		"long headers": {ProdID: long, Name: long, RefreshInterval: 400 * 24 * time.Hour},
		"long everything": {ProdID: long, Name: long, Events: []icalendar.Event{{
			UID: long, Sequence: 1 << 30, Stamp: time.Now(), Created: time.Now(), LastModified: time.Now(),
			Start: time.Now(), End: time.Now().Add(time.Hour), Summary: long, Description: long,
			Location: long, URL: "https://x.example/" + strings.Repeat("%E6%97%A5", 40), Categories: []string{long, long},
		}}},
	} {
		t.Run(name, func(t *testing.T) {
			b, _ := mustLines(t, c)
			if strings.Count(string(b), "\n") != strings.Count(string(b), "\r\n") ||
				strings.Count(string(b), "\r") != strings.Count(string(b), "\r\n") {
				t.Error("bare CR or LF in output")
			}
			decode(t, b)
		})
	}
}

func TestFoldASCIIExactly75(t *testing.T) {
	s := strings.Repeat("abcdefghij", 30) // "SUMMARY:" + 300 = 308 octets
	ev := event("f@strata")
	ev.Summary = s
	b, _ := mustLines(t, icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{ev}})
	var got []int
	for _, l := range strings.Split(string(b), "\r\n") {
		if strings.HasPrefix(l, "SUMMARY:") || strings.HasPrefix(l, " ") {
			got = append(got, len(l))
		}
	}
	if want := []int{75, 75, 75, 75, 12}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("physical SUMMARY lines are %v octets, want %v", got, want)
	}
	_, evs := decode(t, b)
	if sum, _ := text(t, evs[0].Props, ical.PropSummary); sum != s {
		t.Errorf("SUMMARY = %q", sum)
	}
}

// TestFoldNeverSplitsCharacters puts multi-byte characters across the 75-octet
// boundary at every offset, on the first line and on continuation lines.
func TestFoldNeverSplitsCharacters(t *testing.T) {
	for _, ch := range []string{"é", "日", "😀", "👩‍👩‍👧‍👦", "🇯🇵", "e\u0301"} {
		width := 0 // of the widest character in ch
		for _, r := range ch {
			width = max(width, utf8.RuneLen(r))
		}
		firstLens := map[int]bool{}
		for k := 0; k <= 80; k++ {
			ev := event("s@strata")
			ev.Summary = strings.Repeat("a", k) + strings.Repeat(ch, 60)
			ev.Location = strings.Repeat(",", k) + strings.Repeat(ch, 60) // escapes shift the offsets
			b, lines := mustLines(t, icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{ev}})
			for _, l := range strings.Split(string(b), "\r\n") {
				if strings.HasPrefix(l, "SUMMARY:") {
					firstLens[len(l)] = true
				}
			}
			_, evs := decode(t, b)
			if s, _ := text(t, evs[0].Props, ical.PropSummary); s != ev.Summary {
				t.Fatalf("%q k=%d: SUMMARY = %q\nlines: %q", ch, k, s, lines)
			}
			if s, _ := text(t, evs[0].Props, ical.PropLocation); s != ev.Location {
				t.Fatalf("%q k=%d: LOCATION = %q", ch, k, s)
			}
		}
		// A fold lands before the character, so the first line is 75 octets
		// or up to width-1 less, and every such length occurs.
		for n := 76 - width; n <= 75; n++ {
			if !firstLens[n] {
				t.Errorf("%q: no first SUMMARY line of %d octets (saw %v)", ch, n, firstLens)
			}
		}
		for n := range firstLens {
			if n < 76-width || n > 75 {
				t.Errorf("%q: first SUMMARY line of %d octets", ch, n)
			}
		}
	}
}

func TestDateTimesInUTC(t *testing.T) {
	ev := event("tz@strata")
	ev.Start = time.Date(2026, 12, 1, 23, 30, 59, 999_000_000, time.FixedZone("EST", -5*3600))
	ev.End = time.Date(2026, 12, 2, 13, 0, 0, 1, time.FixedZone("NPT", 5*3600+45*60))
	ev.Stamp = time.Date(2026, 6, 1, 0, 0, 0, 0, time.FixedZone("X", 14*3600))
	_, lines := mustLines(t, icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{ev}})
	for _, want := range []string{"DTSTART:20261202T043059Z", "DTEND:20261202T071500Z", "DTSTAMP:20260531T100000Z"} {
		if !strings.Contains(strings.Join(lines, "\n")+"\n", want+"\n") {
			t.Errorf("missing %q in %q", want, lines)
		}
	}
}

func TestRefreshIntervalDurations(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{time.Hour, "PT1H"}, {30 * time.Minute, "PT30M"}, {24 * time.Hour, "P1D"},
		{90 * time.Minute, "PT1H30M"}, {time.Hour + 5*time.Second, "PT1H0M5S"},
		{26 * time.Hour, "P1DT2H"}, {48*time.Hour + 61*time.Second, "P2DT1M1S"},
		{45 * time.Second, "PT45S"}, {1500 * time.Millisecond, "PT1S"}, {7 * 24 * time.Hour, "P7D"},
	} {
		c := icalendar.Calendar{ProdID: "-//T//T//EN", RefreshInterval: tc.d}
		b, lines := mustLines(t, c)
		if lines[4] != "REFRESH-INTERVAL;VALUE=DURATION:"+tc.want || lines[5] != "X-PUBLISHED-TTL:"+tc.want {
			t.Errorf("%v: lines %q, want %s", tc.d, lines[4:6], tc.want)
		}
		cal, _ := decode(t, b)
		if got, err := cal.Props.Get(ical.PropRefreshInterval).Duration(); err != nil || got != tc.d.Truncate(time.Second) {
			t.Errorf("%v: go-ical reads %v, %v", tc.d, got, err)
		}
	}
}
