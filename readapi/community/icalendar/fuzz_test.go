package icalendar_test

import (
	"strings"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

// FuzzEncode checks, for arbitrary strings, that Encode either rejects a blank
// UID or writes bytes that obey the line rules and that go-ical reads back as
// the (sanitised) input. Its seeds run under plain go test.
func FuzzEncode(f *testing.F) {
	f.Add("u@strata", "Title", "", "", "", "", "", uint16(0), false)
	f.Add("u@strata", `a,b;c\d:e"f`, "l1\nl2\r\nl3\rl4", "Hall; 1", "https://x.example/?a=1;b", "x,y", "Feed", uint16(3), true)
	f.Add("u@strata", strings.Repeat("日本語🎉", 100), strings.Repeat("👩‍👩‍👧‍👦🇯🇵", 80), "مرحبا، ١٢٣؛", "https://x.example/"+strings.Repeat("é", 90), "", "", uint16(1), false)
	f.Add("u\r\n@strata", "\x00\x01\t\x7f", "bad \xff\xfe\xf0\x9f", "\r", "\n", "\\", "\x1b", uint16(65535), true)
	f.Add("", "no uid", "", "", "", "", "", uint16(0), false)
	f.Add(" \t\r\n\u00a0", "blank uid", "", "", "", "", "", uint16(0), false)
	f.Add("u", strings.Repeat("a", 67)+"日日日", strings.Repeat(",", 70)+"😀", "", "", "", "", uint16(9), false)
	for _, s := range nasty {
		f.Add("n@strata", s, s, s, s, s, s, uint16(len(s)), len(s)%2 == 0)
	}

	f.Fuzz(func(t *testing.T, uid, summary, desc, loc, url, cat, name string, seq uint16, cancelled bool) {
		in := icalendar.Event{
			UID: uid, Sequence: int(seq), Cancelled: cancelled,
			Stamp: time.Unix(1_790_000_000, 0), Start: time.Unix(1_800_000_000, 5),
			Summary: summary, Description: desc, Location: loc, URL: url,
			Categories: []string{cat, "fixed, one"},
		}
		c := icalendar.Calendar{ProdID: "-//Strata//Fuzz//EN", Name: name, Events: []icalendar.Event{in}}
		b, err := icalendar.Encode(c)
		if strings.TrimSpace(wantText(uid)) == "" {
			if err == nil {
				t.Fatalf("blank UID %q accepted", uid)
			}
			return
		}
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		lines := checkLines(t, b)
		checkStructure(t, lines, 1)
		cal, evs := decode(t, b)
		if len(evs) != 1 {
			t.Fatalf("go-ical read %d events", len(evs))
		}
		checkText(t, cal.Props, ical.PropName, name)
		checkText(t, cal.Props, "X-WR-CALNAME", name)
		checkEvent(t, evs[0], in)
	})
}
