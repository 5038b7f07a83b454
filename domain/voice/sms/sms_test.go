package sms

import (
	"strings"
	"testing"
)

// vector is a body with its expected count.
type vector struct {
	name string
	body string
	want Result
}

func gsm(segments, units, per, chars int) Result {
	return Result{Encoding: GSM7, Segments: segments, Units: units, PerSegment: per, Characters: chars}
}

func ucs(segments, units, per, chars int) Result {
	return Result{Encoding: UCS2, Segments: segments, Units: units, PerSegment: per, Characters: chars}
}

var (
	a  = func(n int) string { return strings.Repeat("a", n) }
	zh = func(n int) string { return strings.Repeat("ж", n) } // Cyrillic: BMP, not GSM
)

// knownVectors are the boundary cases; the cross-check also sends them to
// Twilio's calculator, which must agree on encoding and segments.
var knownVectors = []vector{
	{"empty body", "", gsm(1, 0, 160, 0)},
	{"hello", "Hello World", gsm(1, 11, 160, 11)},
	{"160 plain", a(160), gsm(1, 160, 160, 160)},
	{"161 plain", a(161), gsm(2, 161, 153, 161)},
	{"153x2 plain", a(306), gsm(2, 306, 153, 306)},
	{"153x2+1 plain", a(307), gsm(3, 307, 153, 307)},
	{"153x3 plain", a(459), gsm(3, 459, 153, 459)},
	{"153x3+1 plain", a(460), gsm(4, 460, 153, 460)},
	{"euro ends a single SMS", a(158) + "€", gsm(1, 160, 160, 159)},
	{"euro overflows a single SMS", a(159) + "€", gsm(2, 161, 153, 160)},
	{"euro fills part 1 exactly", a(151) + "€" + a(153), gsm(2, 306, 153, 305)},
	{"euro moves whole to part 2", a(152) + "€" + a(152), gsm(3, 306, 153, 305)},
	{"caret moves whole to part 2", a(152) + "^" + a(152), gsm(3, 306, 153, 305)},
	{"caret fills part 1 exactly", a(151) + "^" + a(153), gsm(2, 306, 153, 305)},
	{"80 braces", strings.Repeat("{", 80), gsm(1, 160, 160, 80)},
	{"81 braces", strings.Repeat("{", 81), gsm(2, 162, 153, 81)},
	{"152 brackets", strings.Repeat("]", 152), gsm(2, 304, 153, 152)},
	{"153 brackets: 76 pairs a part", strings.Repeat("]", 153), gsm(3, 306, 153, 153)},
	{"154 brackets (Twilio: 3)", strings.Repeat("]", 154), gsm(3, 308, 153, 154)},
	{"every extension character", "\f^{}\\[~]|€", gsm(1, 20, 160, 10)},
	{"form feed", "a\fb", gsm(1, 4, 160, 3)},
	{"CRLF is two septets", "a\r\nb", gsm(1, 4, 160, 4)},
	{"Greek capitals in GSM-7", "ΔΦΓΛΩΠΨΣΘΞ", gsm(1, 10, 160, 10)},
	{"Greek capital alpha is not", "ΑΒΓ", ucs(1, 3, 70, 3)},
	{"capital C cedilla", "Ça va", gsm(1, 5, 160, 5)},
	{"small c cedilla", "ça va", ucs(1, 5, 70, 5)},
	{"Latin-1 characters of the table", "£¥èéùìòÇØøÅåÆæßÉ¤¡ÄÖÑÜ§¿äöñüà@$_", gsm(1, 32, 160, 32)},
	{"backtick", "`", ucs(1, 1, 70, 1)},
	{"escape character itself", "\x1b", ucs(1, 1, 70, 1)},
	{"no-break space", "a\u00a0b", ucs(1, 3, 70, 3)},
	{"curly apostrophe", "don’t", ucs(1, 5, 70, 5)},
	{"one emoji", "😀", ucs(1, 2, 70, 1)},
	{"emoji in text", "On our way! 😀", ucs(1, 14, 70, 13)},
	{"70 UCS-2", zh(70), ucs(1, 70, 70, 70)},
	{"71 UCS-2", zh(71), ucs(2, 71, 67, 71)},
	{"67x2 UCS-2", zh(134), ucs(2, 134, 67, 134)},
	{"67x2+1 UCS-2", zh(135), ucs(3, 135, 67, 135)},
	{"67x3 UCS-2", zh(201), ucs(3, 201, 67, 201)},
	{"67x3+1 UCS-2", zh(202), ucs(4, 202, 67, 202)},
	{"35 emoji fit one SMS", strings.Repeat("😀", 35), ucs(1, 70, 70, 35)},
	{"36 emoji: 33 a part", strings.Repeat("😀", 36), ucs(2, 72, 67, 36)},
	{"surrogate pair moves whole to part 2", zh(66) + "😀" + zh(66), ucs(3, 134, 67, 133)},
	{"surrogate pair fills part 1 exactly", zh(65) + "😀" + zh(67), ucs(2, 134, 67, 133)},
	{"one non-GSM character forces UCS-2", a(159) + "ж", ucs(3, 160, 67, 160)},
	{"GSM text with one emoji", a(68) + "😀", ucs(1, 70, 70, 69)},
	{"extension characters are one unit in UCS-2", strings.Repeat("]", 69) + "ж", ucs(1, 70, 70, 70)},
	{"astral CJK", "𠀀𠀁", ucs(1, 4, 70, 2)},
}

func TestCountKnownVectors(t *testing.T) {
	for _, v := range knownVectors {
		t.Run(v.name, func(t *testing.T) {
			if got := Count(v.body); got != v.want {
				t.Errorf("Count(%q)\n got %+v\nwant %+v", v.body, got, v.want)
			}
		})
	}
}

// clusterVectors are UCS-2 bodies where a cluster of several code points
// straddles a part boundary: Count splits it between code points, Twilio's
// calculator keeps it whole (the package doc's one documented difference).
// calc is the calculator's segment count.
var clusterVectors = []struct {
	name string
	body string
	want Result
	calc int
}{
	{"skin-tone thumbs up straddles", zh(65) + "👍🏽" + zh(65), ucs(2, 134, 67, 132), 3},
	{"flag straddles", zh(65) + "🇫🇷" + zh(65), ucs(2, 134, 67, 132), 3},
	{"combining accent straddles", zh(66) + "e\u0301" + zh(66), ucs(2, 134, 67, 134), 3},
	{"ZWJ family straddles", zh(60) + "👩\u200d👩\u200d👧" + zh(63), ucs(2, 131, 67, 128), 3},
	{"keycap straddles", zh(66) + "1\ufe0f\u20e3" + zh(65), ucs(2, 134, 67, 134), 3},
	{"cluster inside a part", zh(10) + "👍🏽🇫🇷e\u0301" + zh(10), ucs(1, 30, 70, 26), 1},
}

func TestCountClusterVectors(t *testing.T) {
	for _, v := range clusterVectors {
		if got := Count(v.body); got != v.want {
			t.Errorf("%s: Count(%q)\n got %+v\nwant %+v", v.name, v.body, got, v.want)
		}
	}
}

func TestAlphabetTables(t *testing.T) {
	codes := []rune(defaultAlphabet)
	if len(codes) != 128 {
		t.Fatalf("default alphabet has %d codes, want 128", len(codes))
	}
	seen := map[rune]bool{}
	for code, r := range codes {
		if code == escape {
			continue
		}
		if seen[r] {
			t.Errorf("%q appears twice in the default alphabet", r)
		}
		seen[r] = true
		if n := septetsOf(r); n != 1 {
			t.Errorf("septetsOf(%q) = %d, want 1 (code %#02x)", r, n, code)
		}
	}
	if len(extensionTable) != 10 {
		t.Errorf("extension table has %d characters, want 10", len(extensionTable))
	}
	for code, r := range extensionTable {
		if seen[r] {
			t.Errorf("%q is in both tables", r)
		}
		if n := septetsOf(r); n != 2 {
			t.Errorf("septetsOf(%q) = %d, want 2 (escape + %#02x)", r, n, code)
		}
	}
	// Every other Latin-1 character has no code.
	inGSM := 0
	for r := rune(0); r < 0x100; r++ {
		if septetsOf(r) > 0 {
			inGSM++
		}
	}
	// The 127 characters of the default alphabet less its 10 Greek capitals,
	// and 9 of the extension table's 10 (not €).
	if want := 117 + 9; inGSM != want {
		t.Errorf("%d Latin-1 characters have a GSM-7 code, want %d", inGSM, want)
	}
}
