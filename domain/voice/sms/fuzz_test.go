package sms

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// refSize is a character's size from the tables' text alone (not from
// septetsOf): 1 or 2 septets, or 0 when it has no GSM-7 code.
func refSize(r rune) int {
	if r == escape {
		return 0
	}
	if strings.ContainsRune(defaultAlphabet, r) {
		return 1
	}
	for _, e := range extensionTable {
		if e == r {
			return 2
		}
	}
	return 0
}

// refParts splits body into the parts it is sent in, the slow way: the
// encoding from refSize, then parts filled character by character.
func refParts(body string) (encoding string, parts []string, units int) {
	encoding = GSM7
	for _, r := range body {
		if refSize(r) == 0 {
			encoding = UCS2
		}
	}
	size := func(r rune) int {
		if encoding == GSM7 {
			return refSize(r)
		}
		return len(utf16.Encode([]rune{r}))
	}
	for _, r := range body {
		units += size(r)
	}
	single, multi := 160, 153
	if encoding == UCS2 {
		single, multi = 70, 67
	}
	if units <= single {
		return encoding, []string{body}, units
	}
	var part strings.Builder
	used := 0
	for i, r := range body {
		if used+size(r) > multi {
			parts = append(parts, part.String())
			part.Reset()
			used = 0
		}
		_, w := utf8.DecodeRuneInString(body[i:]) // the bytes, an invalid one too
		part.WriteString(body[i : i+w])
		used += size(r)
	}
	return encoding, append(parts, part.String()), units
}

func FuzzCount(f *testing.F) {
	for _, v := range knownVectors {
		f.Add(v.body)
	}
	for _, v := range clusterVectors {
		f.Add(v.body)
	}
	f.Add("\xff\xfe invalid")
	f.Fuzz(func(t *testing.T, body string) {
		got := Count(body)
		if got.Characters != utf8.RuneCountInString(body) {
			t.Fatalf("Characters = %d, want %d code points", got.Characters, utf8.RuneCountInString(body))
		}
		if got.Segments < 1 {
			t.Fatalf("Segments = %d, want >= 1", got.Segments)
		}
		encoding, parts, units := refParts(body)
		if got.Encoding != encoding {
			t.Fatalf("Encoding = %s, want %s", got.Encoding, encoding)
		}
		if got.Units != units {
			t.Fatalf("Units = %d, want %d", got.Units, units)
		}
		// Units are consistent with the characters and the encoding.
		switch encoding {
		case GSM7:
			if got.Units < got.Characters || got.Units > 2*got.Characters {
				t.Fatalf("GSM-7: %d septets for %d characters", got.Units, got.Characters)
			}
		case UCS2:
			if want := len(utf16.Encode([]rune(body))); got.Units != want {
				t.Fatalf("UCS-2: Units = %d, want %d UTF-16 units", got.Units, want)
			}
		}
		if got.Segments != len(parts) {
			t.Fatalf("Segments = %d, want %d", got.Segments, len(parts))
		}
		if strings.Join(parts, "") != body {
			t.Fatal("the parts do not make up the body")
		}
		single := map[string]int{GSM7: 160, UCS2: 70}[encoding]
		multi := map[string]int{GSM7: 153, UCS2: 67}[encoding]
		if got.Segments == 1 {
			if got.PerSegment != single || got.Units > single {
				t.Fatalf("one segment: PerSegment %d, Units %d", got.PerSegment, got.Units)
			}
		} else {
			if got.PerSegment != multi || got.Units <= single {
				t.Fatalf("%d segments: PerSegment %d, Units %d", got.Segments, got.PerSegment, got.Units)
			}
			// Each part but the last is full up to one unit (a character of
			// two that did not fit), so the count is within these bounds.
			lo := (got.Units + multi - 1) / multi
			hi := (got.Units + multi - 2) / (multi - 1)
			if got.Segments < lo || got.Segments > hi {
				t.Fatalf("%d segments for %d units: want %d..%d", got.Segments, got.Units, lo, hi)
			}
		}
		// A character more never takes fewer segments.
		if body != "" {
			_, n := utf8.DecodeLastRuneInString(body)
			if shorter := Count(body[:len(body)-n]); shorter.Segments > got.Segments {
				t.Fatalf("%d segments, but %d without the last character", got.Segments, shorter.Segments)
			}
		}
	})
}
