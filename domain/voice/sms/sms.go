package sms

// Encoding names, the values of Result.Encoding.
const (
	// GSM7 is a body written entirely in the GSM 7-bit default alphabet and
	// its extension table (3GPP TS 23.038 §6.2.1, §6.2.1.1).
	GSM7 = "GSM-7"
	// UCS2 is any other body, sent as 16-bit code units (UTF-16 in practice:
	// a character outside the Basic Multilingual Plane takes two).
	UCS2 = "UCS-2"
)

// Segment capacities (3GPP TS 23.040 §9.2.3.16 and §9.2.3.24.1): 140
// octets of user data, less the 6 octets of a concatenation header
// (UDHL + the 8-bit reference information element) in every part of a
// concatenated message.
const (
	gsmSingle = 160 // 140*8/7 septets
	gsmMulti  = 153 // (140-6)*8/7 = 153.1 septets
	ucsSingle = 70  // 140/2 code units
	ucsMulti  = 67  // (140-6)/2 code units
)

// Result is how a body travels as SMS.
type Result struct {
	// Encoding is GSM7 or UCS2.
	Encoding string
	// Segments is the number of SMS (PDUs) the body is sent in: 1 up to one
	// segment's capacity (the empty body included), else the parts of a
	// concatenated message.
	Segments int
	// Units is the size of the body: septets for GSM-7 (two for a character
	// of the extension table: the escape and the character), UTF-16 code
	// units for UCS-2 (two for a character outside the BMP).
	Units int
	// PerSegment is the capacity of a segment in Units: 160 or 70 for a
	// single SMS, 153 or 67 for each part of a concatenated one. A part can
	// hold one unit less when an escape sequence or a surrogate pair would
	// otherwise be split.
	PerSegment int
	// Characters is the number of Unicode code points in the body (what a
	// person counts, short of grapheme clusters: see the package doc).
	Characters int
}

// Count tells how body is sent as SMS: its encoding, its size and the
// number of segments, by the rules in the package documentation. body is
// UTF-8; an invalid byte counts as one U+FFFD (which forces UCS-2).
func Count(body string) Result {
	chars, septets, units := 0, 0, 0
	gsm := true
	for _, r := range body {
		chars++
		units += utf16Units(r)
		if gsm {
			if n := septetsOf(r); n > 0 {
				septets += n
			} else {
				gsm = false
			}
		}
	}
	if gsm {
		return split(body, Result{Encoding: GSM7, Units: septets, Characters: chars}, gsmSingle, gsmMulti, septetsOf)
	}
	return split(body, Result{Encoding: UCS2, Units: units, Characters: chars}, ucsSingle, ucsMulti, utf16Units)
}

// split fills in Segments and PerSegment: one segment when r.Units fit in
// single, else parts of multi units filled in order, a character that does
// not fit whole in what is left of a part (an escape sequence, a surrogate
// pair) starting the next part.
func split(body string, r Result, single, multi int, size func(rune) int) Result {
	r.Segments, r.PerSegment = 1, single
	if r.Units <= single {
		return r
	}
	r.PerSegment = multi
	used := 0
	for _, c := range body {
		n := size(c)
		if used+n > multi {
			r.Segments++
			used = 0
		}
		used += n
	}
	return r
}

// utf16Units is the number of UTF-16 code units of r: 2 outside the BMP.
// (A Go string's runes are never surrogates: invalid bytes range as
// U+FFFD.)
func utf16Units(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// septetsOf is the number of septets r takes in GSM-7: 1 in the default
// alphabet, 2 in the extension table (escape + code), 0 when r has no
// GSM-7 code.
func septetsOf(r rune) int {
	switch {
	case inAlphabet(r):
		return 1
	case inExtension(r):
		return 2
	}
	return 0
}
