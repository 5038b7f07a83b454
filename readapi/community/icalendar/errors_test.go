package icalendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

func TestEncodeErrors(t *testing.T) {
	good := event("ok@strata")
	with := func(f func(*icalendar.Event)) icalendar.Calendar {
		ev := good
		f(&ev)
		return icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{good, ev}}
	}
	for _, tc := range []struct {
		name string
		c    icalendar.Calendar
		want string // in the error message
	}{
		{"missing ProdID", icalendar.Calendar{Events: []icalendar.Event{good}}, "ProdID"},
		{"blank ProdID", icalendar.Calendar{ProdID: " \r\n\x00"}, "ProdID"},
		{"missing UID", with(func(e *icalendar.Event) { e.UID = "" }), "no UID"},
		{"blank UID", with(func(e *icalendar.Event) { e.UID = " \t\r\n" }), "event 1"},
		{"missing Start", with(func(e *icalendar.Event) { e.Start = time.Time{} }), "no Start"},
		{"End before Start", with(func(e *icalendar.Event) { e.End = e.Start.Add(-time.Second) }), "before Start"},
		{"missing Stamp", with(func(e *icalendar.Event) { e.Stamp = time.Time{} }), "no Stamp"},
		{"negative Sequence", with(func(e *icalendar.Event) { e.Sequence = -1 }), "Sequence"},
		{"year 10000", with(func(e *icalendar.Event) { e.End = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }), "10000"},
		{"year 0", with(func(e *icalendar.Event) { e.Created = time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC) }), "Created"},
		{"negative RefreshInterval", icalendar.Calendar{ProdID: "p", RefreshInterval: -time.Hour}, "RefreshInterval"},
		{"sub-second RefreshInterval", icalendar.Calendar{ProdID: "p", RefreshInterval: time.Millisecond}, "RefreshInterval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := icalendar.Encode(tc.c)
			if err == nil {
				t.Fatalf("no error; output:\n%s", b)
			}
			if b != nil {
				t.Errorf("bytes returned with error: %q", b)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "icalendar: ") {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestEncodeAcceptsEdgeValues(t *testing.T) {
	for name, c := range map[string]icalendar.Calendar{
		"no events":        {ProdID: "p"},
		"End equals Start": with1(func(e *icalendar.Event) { e.End = e.Start }),
		"End within Start sec": with1(func(e *icalendar.Event) {
			e.Start = e.Start.Add(900 * time.Millisecond)
			e.End = e.Start.Add(-500 * time.Millisecond)
		}),
		"empty Summary": with1(func(e *icalendar.Event) { e.Summary = "" }),
		"Sequence 0":    with1(func(e *icalendar.Event) { e.Sequence = 0 }),
		"year 9999": with1(func(e *icalendar.Event) {
			e.Start = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
			e.End = time.Time{}
		}),
	} {
		t.Run(name, func(t *testing.T) { mustLines(t, c) })
	}
}

func with1(f func(*icalendar.Event)) icalendar.Calendar {
	ev := event("edge@strata")
	f(&ev)
	return icalendar.Calendar{ProdID: "-//T//T//EN", Events: []icalendar.Event{ev}}
}
