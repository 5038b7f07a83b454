package icalendar_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

// nasty holds texts that stress escaping, folding and Unicode handling.
var nasty = []string{
	"Plain title",
	`Commas, semicolons; backslashes \ and \\ and a trailing one \`,
	`Colons: "double quotes" 'single' <tags> & ampersands; key=value, a:b`,
	"LF\nCRLF\r\nCR\rdouble LF\n\nCR LF CR\r\n\rend\n",
	`Literal escapes \n \N \, \; \\ stay literal`,
	"Emoji 🎉🎂 ZWJ 👩‍👩‍👧‍👦 👨🏽‍💻 🏳️‍🌈 flags 🇯🇵🇺🇦🇧🇷 skin 👍🏿",
	"日本語のイベント、東京；会場：渋谷\n二行目",
	"中文活动，北京；地点：朝阳区",
	"مرحبا بكم في حفلة الشاي، الساعة ٦؛ \u200fمع الأصدقاء",
	"Combining e\u0301 n\u0303, BOM \ufeff, LS \u2028, NBSP \u00a0, NEL \u0085",
	strings.Repeat("Long 長い 🎉 text, with; escapes\\ and\nnewlines ", 30),
	strings.Repeat("x", 1200),
	" leading and trailing spaces ",
	"",
}

func TestRoundTripThroughGoICal(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	base := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	var events []icalendar.Event
	for i, s := range nasty {
		ev := icalendar.Event{
			UID:         fmt.Sprintf("%08d-0000-4000-8000-000000000000@strata", i),
			Sequence:    i,
			Stamp:       base.Add(-time.Duration(i) * time.Hour),
			Start:       base.Add(time.Duration(i) * 24 * time.Hour).In(tokyo).Add(123456789),
			Summary:     s,
			Description: nasty[(i+1)%len(nasty)],
			Location:    nasty[(i+2)%len(nasty)],
			Cancelled:   i%3 == 0,
		}
		if i%2 == 0 {
			ev.End = ev.Start.Add(90 * time.Minute)
			ev.URL = "https://strata.example/community-events/" + ev.UID + "?a=1&b=2;c=" + strings.Repeat("z", i*10)
			ev.Categories = []string{s, "music, live", "a;b"}
			ev.Created = base.AddDate(0, -1, 0)
			ev.LastModified = base.AddDate(0, 0, -1).In(tokyo)
		}
		events = append(events, ev)
	}
	c := icalendar.Calendar{
		ProdID:          "-//Strata//Community Events//EN",
		Name:            "My events, mine; all \\ mine 🎉",
		RefreshInterval: 90 * time.Minute,
		Events:          events,
	}
	b, _ := mustLines(t, c)
	cal, got := decode(t, b)

	checkText(t, cal.Props, ical.PropProductID, c.ProdID)
	checkText(t, cal.Props, ical.PropName, c.Name)
	checkText(t, cal.Props, "X-WR-CALNAME", c.Name)
	if p := cal.Props.Get(ical.PropMethod); p != nil {
		t.Errorf("METHOD present: %q", p.Value)
	}
	if p := cal.Props.Get(ical.PropRefreshInterval); p == nil {
		t.Error("REFRESH-INTERVAL absent")
	} else if d, err := p.Duration(); err != nil || d != 90*time.Minute {
		t.Errorf("REFRESH-INTERVAL = %v, %v; want 1h30m", d, err)
	}
	if p := cal.Props.Get("X-PUBLISHED-TTL"); p == nil || p.Value != "PT1H30M" {
		t.Errorf("X-PUBLISHED-TTL = %v, want PT1H30M", p)
	}

	if len(got) != len(events) {
		t.Fatalf("go-ical read %d events, want %d", len(got), len(events))
	}
	for i, in := range events {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkEvent(t, got[i], in) })
	}
}

// checkEvent compares what go-ical read with the event that was written.
func checkEvent(t testing.TB, ev ical.Event, in icalendar.Event) {
	t.Helper()
	p := ev.Props
	if uid, _ := text(t, p, ical.PropUID); uid != wantText(in.UID) {
		t.Errorf("UID = %q, want %q", uid, in.UID)
	}
	if seq, err := p.Get(ical.PropSequence).Int(); err != nil || seq != in.Sequence {
		t.Errorf("SEQUENCE = %d, %v; want %d", seq, err, in.Sequence)
	}
	status := "CONFIRMED"
	if in.Cancelled {
		status = "CANCELLED"
	}
	if s := p.Get(ical.PropStatus); s == nil || s.Value != status {
		t.Errorf("STATUS = %v, want %s", s, status)
	}
	if s, _ := text(t, p, ical.PropSummary); s != wantText(in.Summary) {
		t.Errorf("SUMMARY mismatch\n got %q\nwant %q", s, wantText(in.Summary))
	}
	checkText(t, p, ical.PropDescription, in.Description)
	checkText(t, p, ical.PropLocation, in.Location)

	checkTime(t, p, ical.PropDateTimeStamp, in.Stamp)
	checkTime(t, p, ical.PropCreated, in.Created)
	checkTime(t, p, ical.PropLastModified, in.LastModified)
	if start, err := ev.DateTimeStart(time.UTC); err != nil || !start.Equal(in.Start.Truncate(time.Second)) || start.Location() != time.UTC {
		t.Errorf("DTSTART = %v, %v; want %v", start, err, in.Start.UTC().Truncate(time.Second))
	}
	checkTime(t, p, ical.PropDateTimeEnd, in.End)

	if u := wantURI(in.URL); u == "" {
		if got := p.Get(ical.PropURL); got != nil {
			t.Errorf("URL present (%q), want absent", got.Value)
		}
	} else if got := p.Get(ical.PropURL); got == nil || got.Value != u {
		t.Errorf("URL = %v, want %q", got, u)
	}

	var wantCats []string
	for _, c := range in.Categories {
		if w := wantText(c); w != "" {
			wantCats = append(wantCats, w)
		}
	}
	if c := p.Get(ical.PropCategories); c == nil {
		if len(wantCats) > 0 {
			t.Errorf("CATEGORIES absent, want %q", wantCats)
		}
	} else if got, err := c.TextList(); err != nil || !slices.Equal(got, wantCats) {
		t.Errorf("CATEGORIES = %q, %v; want %q", got, err, wantCats)
	}
	if tr := p.Get(ical.PropTransparency); tr == nil || tr.Value != "OPAQUE" {
		t.Errorf("TRANSP = %v, want OPAQUE", tr)
	}
}

// checkTime checks a UTC date-time property; a zero want means absent.
func checkTime(t testing.TB, p ical.Props, name string, want time.Time) {
	t.Helper()
	prop := p.Get(name)
	if want.IsZero() {
		if prop != nil {
			t.Errorf("%s present (%q), want absent", name, prop.Value)
		}
		return
	}
	if prop == nil {
		t.Errorf("%s absent, want %v", name, want)
		return
	}
	if !strings.HasSuffix(prop.Value, "Z") || len(prop.Value) != len("20261201T180000Z") {
		t.Errorf("%s = %q, want a UTC date-time", name, prop.Value)
	}
	got, err := prop.DateTime(time.UTC)
	if err != nil || !got.Equal(want.Truncate(time.Second)) {
		t.Errorf("%s = %v, %v; want %v", name, got, err, want.UTC().Truncate(time.Second))
	}
}

func TestSanitisesControlsAndInvalidUTF8(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tab\there", "tab\there"},
		{"\ttabs\t\tat the ends\t", "\ttabs\t\tat the ends\t"},
		{"nul\x00 bell\x07 esc\x1b del\x7f", "nul bell esc del"},
		{"bad \xff\xfe byte", "bad \uFFFD\uFFFD byte"},
		{"cut emoji \xf0\x9f\x8e", "cut emoji \uFFFD\uFFFD\uFFFD"},
		{"cr\r\x00\nlf", "cr\n\nlf"},
		{"crlf\r\ncr\rlf\n", "crlf\ncr\nlf\n"},
		{"crlf lf\r\n\n crlf crlf\r\n\r\n", "crlf lf\n\n crlf crlf\n\n"},
		{"\x01\x02", ""},
	} {
		c := icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{{
			UID: "u@strata", Stamp: time.Unix(0, 0), Start: time.Unix(3600, 0),
			Summary: tc.in, Description: tc.in, URL: "https://x.example/\r\n" + tc.in,
		}}}
		b, _ := mustLines(t, c)
		_, evs := decode(t, b)
		if got, _ := text(t, evs[0].Props, ical.PropSummary); got != tc.want {
			t.Errorf("SUMMARY of %q = %q, want %q", tc.in, got, tc.want)
		}
		if _, ok := text(t, evs[0].Props, ical.PropDescription); ok != (tc.want != "") {
			t.Errorf("DESCRIPTION of %q present = %v", tc.in, ok)
		}
		if u := evs[0].Props.Get(ical.PropURL); u == nil || strings.ContainsAny(u.Value, "\r\n\t\x00\x7f") {
			t.Errorf("URL of %q = %v", tc.in, u)
		}
	}
}
