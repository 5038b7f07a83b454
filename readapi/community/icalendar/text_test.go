package icalendar_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"

	"github.com/strata-platform/strata/readapi/community/icalendar"
)

// textGrammar is RFC 5545 §3.3.11's TEXT, written out independently of the
// package:
//
//	text         = *(TSAFE-CHAR / ":" / DQUOTE / ESCAPED-CHAR)
//	ESCAPED-CHAR = ("\\" / "\;" / "\," / "\N" / "\n")
//	TSAFE-CHAR   = WSP / %x21 / %x23-2B / %x2D-39 / %x3C-5B / %x5D-7E / NON-US-ASCII
//	WSP          = SP / HTAB
var textGrammar = regexp.MustCompile(`^(?:[\t \x21\x23-\x2B\x2D-\x39\x3C-\x5B\x5D-\x7E:"]|[^\x00-\x7F]|\\[\\;,Nn])*$`)

// textListGrammar is a list of TEXT values separated by (unescaped) commas,
// as CATEGORIES holds them.
var textListGrammar = regexp.MustCompile(`^(?:[\t \x21\x23-\x2B\x2D-\x39\x3C-\x5B\x5D-\x7E:",]|[^\x00-\x7F]|\\[\\;,Nn])*$`)

// allTEXT is every character a TEXT value can carry: HTAB, all printable
// ASCII (space to tilde, with the four that need escaping: backslash, comma,
// semicolon and newline), and non-ASCII of every UTF-8 length (2, 3 and 4
// octets, including a combining mark, a right-to-left mark, a BOM and a ZWJ
// sequence), plus CRLF, lone CR and lone LF, which all read back as LF.
func allTEXT() string {
	var b strings.Builder
	b.WriteString("\t")
	for c := 0x20; c <= 0x7e; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString("\tafter tab\t\ttwo tabs\t")
	b.WriteString(" é ñ ß Ω Ж ע ع \u0085 \u00a0 e\u0301")                        // 2 octets
	b.WriteString(" 日本語 한국어 € \u2028 \u200f \ufeff \uffff")                      // 3 octets
	b.WriteString(" 🎉 𝄞 👩\u200d👩\u200d👧 🇯🇵 \U0010fffd")                          // 4 octets
	b.WriteString("\nLF\r\nCRLF\rCR\\n literal, \\; \\, \\\\ \"quoted\": end\t") // escapes
	return b.String()
}

// TestEveryTEXTCharacterRoundTrips: a TAB (allowed by TEXT as WSP) and every
// other character TEXT allows survive Encode exactly, in SUMMARY, DESCRIPTION,
// LOCATION, CATEGORIES and NAME; only CR and CRLF become LF. The written
// values match the TEXT grammar, lines are folded at 75 octets without
// splitting a UTF-8 sequence (checkLines), and go-ical reads them back. A TAB
// is put at every offset of the first physical lines, so that it falls on a
// fold (as the last octet of a line and as the first after the fold's space).
func TestEveryTEXTCharacterRoundTrips(t *testing.T) {
	all := allTEXT()
	var events []icalendar.Event
	for i := 0; i < 160; i++ {
		lead := strings.Repeat("x", i%80)
		if i >= 80 {
			lead = strings.Repeat("é", i%80/2) + strings.Repeat("x", i%2) // multi-octet before the tab
		}
		events = append(events, icalendar.Event{
			UID: fmt.Sprintf("tab-%d@strata", i), Stamp: time.Unix(1_790_000_000, 0), Start: time.Unix(1_800_000_000, 0),
			Summary: lead + "\tsummary " + all, Description: lead + "\t" + all + lead + "\t\t" + all,
			Location: "\t" + lead + "\t", Categories: []string{lead + "\ttab,comma;semi", all},
		})
	}
	c := icalendar.Calendar{ProdID: "-//Strata//TEXT//EN", Name: "Tabbed\tname " + all, Events: events}
	b, lines := mustLines(t, c)
	for _, l := range lines {
		name, value, ok := strings.Cut(l, ":")
		if !ok || strings.Contains(name, ";") {
			continue
		}
		switch name {
		case "SUMMARY", "DESCRIPTION", "LOCATION", "NAME", "X-WR-CALNAME":
			if !textGrammar.MatchString(value) {
				t.Errorf("%s value breaks the TEXT grammar: %q", name, value)
			}
		case "CATEGORIES":
			if !textListGrammar.MatchString(value) {
				t.Errorf("%s value breaks the TEXT list grammar: %q", name, value)
			}
		}
		if name == "DESCRIPTION" && !strings.Contains(value, "\t") {
			t.Errorf("DESCRIPTION lost its tabs: %q", value)
		}
	}
	var tabOpens, tabCloses int
	for _, l := range strings.Split(string(b), "\r\n") {
		if strings.HasPrefix(l, " \t") {
			tabOpens++
		}
		if strings.HasSuffix(l, "\t") {
			tabCloses++
		}
	}
	if tabOpens == 0 || tabCloses == 0 {
		t.Errorf("no fold fell next to a tab (%d continuation lines open with one, %d lines end with one)", tabOpens, tabCloses)
	}
	cal, got := decode(t, b)
	checkText(t, cal.Props, ical.PropName, c.Name)
	if len(got) != len(events) {
		t.Fatalf("go-ical read %d events, want %d", len(got), len(events))
	}
	for i, in := range events {
		checkEvent(t, got[i], in)
	}
	d, _ := text(t, got[0].Props, ical.PropDescription)
	if want := "\t" + strings.ReplaceAll(strings.ReplaceAll(all, "\r\n", "\n"), "\r", "\n"); !strings.HasPrefix(d, want) {
		t.Errorf("DESCRIPTION of event 0\n got %q\nwant prefix %q", d, want)
	}
}
