package icalendar_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

// wantText is what a TEXT value must read back as, computed independently of
// the package: invalid UTF-8 bytes become U+FFFD (one per byte), CRLF and CR
// become LF (all the "\n" escape can express), HTAB stays (TEXT allows it as
// WSP), other C0 controls and DEL go.
func wantText(s string) string {
	s = string([]rune(s))
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f) {
			return -1
		}
		return r
	}, s)
}

// wantURI is what a URI value must read back as: every control removed.
func wantURI(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, string([]rune(s)))
}

// checkLines reports every breach of the RFC 5545 §3.1 line rules in b and
// returns its unfolded content lines.
func checkLines(t testing.TB, b []byte) []string {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Fatalf("output does not end with CRLF: %q", tail(b))
	}
	phys := strings.Split(string(b[:len(b)-2]), "\r\n")
	var logical []string
	for i, l := range phys {
		switch {
		case strings.ContainsAny(l, "\r\n"):
			t.Errorf("line %d holds a bare CR or LF: %q", i, l)
		case len(l) > 75:
			t.Errorf("line %d is %d octets (> 75): %q", i, len(l), l)
		case !utf8.ValidString(l):
			t.Errorf("line %d is not valid UTF-8 (split character?): %q", i, l)
		case l == "" || l == " ":
			t.Errorf("line %d is empty: %q", i, l)
		case strings.HasPrefix(l, "\t"):
			t.Errorf("line %d starts with a tab", i)
		}
		if !strings.HasPrefix(l, " ") {
			logical = append(logical, l)
			continue
		}
		if i == 0 {
			t.Fatalf("first line is a continuation: %q", l)
		}
		// Folds go as late as possible: the character that opens this
		// continuation would not have fitted on the line before.
		if r, size := utf8.DecodeRuneInString(l[1:]); r != utf8.RuneError && len(phys[i-1])+size <= 75 {
			t.Errorf("line %d folded early: %d octets + %q would fit", i-1, len(phys[i-1]), r)
		}
		logical[len(logical)-1] += l[1:]
	}
	return logical
}

func tail(b []byte) []byte { return b[max(0, len(b)-20):] }

// propName returns the property name of a content line.
func propName(l string) string {
	if i := strings.IndexAny(l, ";:"); i >= 0 {
		return l[:i]
	}
	return l
}

var (
	calOrder   = []string{"NAME", "X-WR-CALNAME", "REFRESH-INTERVAL", "X-PUBLISHED-TTL"}
	eventOrder = []string{"UID", "SEQUENCE", "DTSTAMP", "CREATED", "LAST-MODIFIED", "DTSTART", "DTEND",
		"SUMMARY", "DESCRIPTION", "LOCATION", "URL", "CATEGORIES", "STATUS", "TRANSP"}
	eventRequired = []string{"UID", "SEQUENCE", "DTSTAMP", "DTSTART", "SUMMARY", "STATUS", "TRANSP"}
)

// checkStructure checks the component skeleton and the property order of the
// unfolded lines, and that required properties appear exactly once.
func checkStructure(t testing.TB, lines []string, events int) {
	t.Helper()
	head := []string{"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID", "CALSCALE:GREGORIAN"}
	if len(lines) < len(head)+1 {
		t.Fatalf("only %d lines", len(lines))
	}
	for i, h := range head {
		if lines[i] != h && propName(lines[i]) != h {
			t.Errorf("line %d = %q, want %q", i, lines[i], h)
		}
	}
	if last := lines[len(lines)-1]; last != "END:VCALENDAR" {
		t.Errorf("last line = %q", last)
	}
	body := lines[len(head) : len(lines)-1]
	pos := -1
	for len(body) > 0 && body[0] != "BEGIN:VEVENT" {
		pos = after(t, calOrder, pos, body[0])
		body = body[1:]
	}
	n := 0
	for len(body) > 0 {
		end := slices.Index(body, "END:VEVENT")
		if body[0] != "BEGIN:VEVENT" || end < 0 {
			t.Fatalf("event %d: malformed VEVENT block starting %q", n, body[0])
		}
		pos, seen := -1, map[string]int{}
		for _, l := range body[1:end] {
			pos = after(t, eventOrder, pos, l)
			seen[propName(l)]++
		}
		for _, p := range eventRequired {
			if seen[p] != 1 {
				t.Errorf("event %d: %s appears %d times, want 1", n, p, seen[p])
			}
		}
		body = body[end+1:]
		n++
	}
	if n != events {
		t.Errorf("%d VEVENTs, want %d", n, events)
	}
}

// after checks that the property of l comes later in order than position pos
// (so also at most once) and returns its position.
func after(t testing.TB, order []string, pos int, l string) int {
	t.Helper()
	i := slices.Index(order, propName(l))
	if i < 0 {
		t.Errorf("unexpected property %q", l)
		return pos
	}
	if i <= pos {
		t.Errorf("property %q out of order or repeated", l)
	}
	return i
}

// mustLines encodes c and checks the line rules and structure of the result.
func mustLines(t testing.TB, c icalendar.Calendar) ([]byte, []string) {
	t.Helper()
	b, err := icalendar.Encode(c)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	lines := checkLines(t, b)
	checkStructure(t, lines, len(c.Events))
	return b, lines
}

// decode parses b with go-ical, the independent reader.
func decode(t testing.TB, b []byte) (*ical.Calendar, []ical.Event) {
	t.Helper()
	cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
	if err != nil {
		t.Fatalf("go-ical cannot decode: %v\n%s", err, b)
	}
	return cal, cal.Events()
}

// text returns a TEXT property as go-ical reads it, and whether it is there.
func text(t testing.TB, props ical.Props, name string) (string, bool) {
	t.Helper()
	p := props.Get(name)
	if p == nil {
		return "", false
	}
	s, err := p.Text()
	if err != nil {
		t.Errorf("%s: go-ical: %v (raw %q)", name, err, p.Value)
	}
	return s, true
}

// checkText checks that an optional TEXT property reads back as wantText(in),
// and is absent when that is empty.
func checkText(t testing.TB, props ical.Props, name, in string) {
	t.Helper()
	got, ok := text(t, props, name)
	want := wantText(in)
	switch {
	case want == "" && ok:
		t.Errorf("%s present (%q), want absent", name, got)
	case want != "" && !ok:
		t.Errorf("%s absent, want %q", name, want)
	case got != want:
		t.Errorf("%s mismatch\n got %q\nwant %q", name, got, want)
	}
}
