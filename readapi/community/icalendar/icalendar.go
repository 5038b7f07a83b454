// Package icalendar turns community events into iCalendar (RFC 5545) bytes:
// the single-event export (GET /api/v1/community-events/{id}/export/ical) and
// the per-user subscription feed (calendar.ics). It only converts plain Go
// values; it knows nothing about HTTP or the database.
//
// The writer is our own rather than the encoder of github.com/emersion/go-ical
// because that encoder never folds long content lines (RFC 5545 §3.1 says lines
// SHOULD NOT exceed 75 octets, and some clients truncate or reject longer ones)
// and it refuses CR/LF in TEXT values instead of escaping them as "\n". The
// tests use go-ical only as an independent parser of what this package writes.
//
// Every output of Encode satisfies these rules:
//   - every line, the last one included, ends with CRLF, and there is no other
//     CR or LF anywhere;
//   - no physical line is longer than 75 octets (the CRLF not counted); a long
//     content line is folded at the last UTF-8 character boundary that keeps
//     within that limit, and each continuation line starts with one space,
//     which counts towards its 75 octets;
//   - every physical line is valid UTF-8: invalid input bytes become U+FFFD,
//     one per byte that does not start a valid encoding;
//   - TEXT values are escaped ("\" → "\\", ";" → "\;", "," → "\,", and each
//     CRLF, lone CR or lone LF → "\n"); HTAB is kept as it is (TEXT allows it);
//     all other control characters (U+0000–U+001F and U+007F) are removed, and
//     so is HTAB in a URI value;
//   - date-times are written in UTC with a trailing "Z", to whole seconds.
package icalendar

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Event is one VEVENT. Its text fields may hold any string: Encode escapes,
// sanitises and folds them as described in the package documentation.
type Event struct {
	UID          string    // required: stable across exports, e.g. "<event uuid>@strata"
	Sequence     int       // RFC 5545 SEQUENCE (≥ 0): raised on each revision; a cancellation raises it too
	Stamp        time.Time // DTSTAMP, required: when the information was last revised; written in UTC
	Created      time.Time // CREATED; zero = omitted
	LastModified time.Time // LAST-MODIFIED; zero = omitted
	Start        time.Time // DTSTART, required
	End          time.Time // DTEND; zero = omitted; also omitted when equal to Start (to the second)
	Summary      string    // SUMMARY (the title); always written, even when empty
	Description  string    // DESCRIPTION; omitted when empty after sanitising
	Location     string    // LOCATION; omitted when empty after sanitising
	URL          string    // URL; omitted when empty; a URI: control characters removed, not text-escaped, but folded
	Cancelled    bool      // STATUS:CANCELLED, else STATUS:CONFIRMED
	Categories   []string  // CATEGORIES: each value text-escaped, joined by ","; empty values dropped; omitted when none remain
}

// Calendar is one VCALENDAR. A calendar without events is allowed (an empty
// subscription feed), although RFC 5545 asks for at least one component;
// calendar clients accept such feeds.
type Calendar struct {
	ProdID          string        // required, e.g. "-//Strata//Community Events//EN"
	Name            string        // optional: emitted as NAME (RFC 7986) and X-WR-CALNAME
	RefreshInterval time.Duration // optional (zero = omitted, else ≥ 1s; sub-second part dropped): REFRESH-INTERVAL;VALUE=DURATION (RFC 7986) and X-PUBLISHED-TTL
	Events          []Event
}

// utcDateTime is the RFC 5545 §3.3.5 date-time format, form #2 (UTC).
const utcDateTime = "20060102T150405Z"

// Encode returns c as an iCalendar object. Properties come in this order:
// BEGIN:VCALENDAR, VERSION:2.0, PRODID, CALSCALE:GREGORIAN, NAME and
// X-WR-CALNAME (when Name is set), REFRESH-INTERVAL and X-PUBLISHED-TTL (when
// RefreshInterval is set), the VEVENTs in the order given, END:VCALENDAR.
// There is no METHOD property: the result is a published file, not an iTIP
// message. Inside each VEVENT: UID, SEQUENCE, DTSTAMP, CREATED, LAST-MODIFIED,
// DTSTART, DTEND, SUMMARY, DESCRIPTION, LOCATION, URL, CATEGORIES, STATUS,
// TRANSP:OPAQUE, optional ones left out when unset.
//
// Encode returns an error, and no bytes, when ProdID is blank (empty, or only
// white space and control characters); when an event has a blank UID, a zero
// Start or Stamp, a negative Sequence, or an End before its Start (compared to
// the second); when a time lies outside the years 0001–9999 in UTC; or when
// RefreshInterval is negative or under one second. Name and the event texts
// that are empty after sanitising are left out (Summary excepted).
func Encode(c Calendar) ([]byte, error) {
	if err := validate(c); err != nil {
		return nil, err
	}
	var w writer
	w.line("BEGIN:VCALENDAR")
	w.line("VERSION:2.0")
	w.line("PRODID:" + escapeText(c.ProdID))
	w.line("CALSCALE:GREGORIAN")
	if name := escapeText(c.Name); name != "" {
		w.line("NAME:" + name)
		w.line("X-WR-CALNAME:" + name)
	}
	if c.RefreshInterval != 0 {
		d := formatDuration(c.RefreshInterval)
		w.line("REFRESH-INTERVAL;VALUE=DURATION:" + d)
		w.line("X-PUBLISHED-TTL:" + d)
	}
	for i := range c.Events {
		writeEvent(&w, &c.Events[i])
	}
	w.line("END:VCALENDAR")
	return w.bytes(), nil
}

func writeEvent(w *writer, e *Event) {
	w.line("BEGIN:VEVENT")
	w.line("UID:" + escapeText(e.UID))
	w.line("SEQUENCE:" + strconv.Itoa(e.Sequence))
	w.line("DTSTAMP:" + formatTime(e.Stamp))
	if !e.Created.IsZero() {
		w.line("CREATED:" + formatTime(e.Created))
	}
	if !e.LastModified.IsZero() {
		w.line("LAST-MODIFIED:" + formatTime(e.LastModified))
	}
	w.line("DTSTART:" + formatTime(e.Start))
	// RFC 5545 §3.8.2.2: DTEND must be later than DTSTART; an event without
	// DTEND ends at its DTSTART, so an equal End is simply left out.
	if !e.End.IsZero() && seconds(e.End).After(seconds(e.Start)) {
		w.line("DTEND:" + formatTime(e.End))
	}
	w.line("SUMMARY:" + escapeText(e.Summary))
	if v := escapeText(e.Description); v != "" {
		w.line("DESCRIPTION:" + v)
	}
	if v := escapeText(e.Location); v != "" {
		w.line("LOCATION:" + v)
	}
	if v := cleanURI(e.URL); v != "" {
		w.line("URL:" + v)
	}
	var cats []string
	for _, c := range e.Categories {
		if v := escapeText(c); v != "" {
			cats = append(cats, v)
		}
	}
	if len(cats) > 0 {
		w.line("CATEGORIES:" + strings.Join(cats, ","))
	}
	if e.Cancelled {
		w.line("STATUS:CANCELLED")
	} else {
		w.line("STATUS:CONFIRMED")
	}
	w.line("TRANSP:OPAQUE")
	w.line("END:VEVENT")
}

func validate(c Calendar) error {
	if blank(c.ProdID) {
		return errors.New("icalendar: calendar has no ProdID")
	}
	if c.RefreshInterval < 0 || (c.RefreshInterval > 0 && c.RefreshInterval < time.Second) {
		return fmt.Errorf("icalendar: RefreshInterval %v must be zero or at least one second", c.RefreshInterval)
	}
	for i := range c.Events {
		if err := validateEvent(&c.Events[i]); err != nil {
			return fmt.Errorf("icalendar: event %d (UID %q): %w", i, c.Events[i].UID, err)
		}
	}
	return nil
}

func validateEvent(e *Event) error {
	switch {
	case blank(e.UID):
		return errors.New("no UID")
	case e.Start.IsZero():
		return errors.New("no Start")
	case e.Stamp.IsZero():
		return errors.New("no Stamp (DTSTAMP is required)")
	case e.Sequence < 0:
		return fmt.Errorf("negative Sequence %d", e.Sequence)
	case !e.End.IsZero() && seconds(e.End).Before(seconds(e.Start)):
		return fmt.Errorf("End %s is before Start %s", formatTime(e.End), formatTime(e.Start))
	}
	for _, t := range []struct {
		name string
		t    time.Time
	}{{"Stamp", e.Stamp}, {"Created", e.Created}, {"LastModified", e.LastModified}, {"Start", e.Start}, {"End", e.End}} {
		if y := t.t.UTC().Year(); !t.t.IsZero() && (y < 1 || y > 9999) {
			return fmt.Errorf("%s is in year %d, outside 0001-9999", t.name, y)
		}
	}
	return nil
}

// blank reports whether s holds nothing but white space and control
// characters (newlines included).
func blank(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || isControl(r) }) == ""
}

// seconds drops the sub-second part of t, as the output does.
func seconds(t time.Time) time.Time { return t.Truncate(time.Second) }

func formatTime(t time.Time) string { return t.UTC().Format(utcDateTime) }

// formatDuration writes d (≥ 1s) as an RFC 5545 §3.3.6 duration in whole
// seconds: P1D, PT1H, PT30M, PT1H30M, P1DT2H. The grammar makes a written hour
// carry the minutes and a written minute the seconds when a smaller unit
// follows, so 1h5s is PT1H0M5S.
func formatDuration(d time.Duration) string {
	s := int64(d / time.Second)
	days, h, m, sec := s/86400, s/3600%24, s/60%60, s%60
	var b strings.Builder
	b.WriteByte('P')
	if days > 0 {
		b.WriteString(strconv.FormatInt(days, 10) + "D")
	}
	if h == 0 && m == 0 && sec == 0 {
		return b.String()
	}
	b.WriteByte('T')
	if h > 0 {
		b.WriteString(strconv.FormatInt(h, 10) + "H")
	}
	if m > 0 || (h > 0 && sec > 0) {
		b.WriteString(strconv.FormatInt(m, 10) + "M")
	}
	if sec > 0 {
		b.WriteString(strconv.FormatInt(sec, 10) + "S")
	}
	return b.String()
}
