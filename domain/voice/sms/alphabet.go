package sms

import "strings"

// defaultAlphabet is the GSM 7-bit default alphabet of 3GPP TS 23.038
// §6.2.1, one rune per code from 0x00 to 0x7F. Code 0x1B is the escape to
// the extension table, not a character: it is written \x1b here and U+001B
// itself has no code. Code 0x09 is capital C cedilla as 23.038 draws it
// (see the package doc on ç).
const defaultAlphabet = "" +
	"@£$¥èéùìòÇ\nØø\rÅå" + // 0x00
	"Δ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ" + // 0x10
	" !\"#¤%&'()*+,-./" + // 0x20
	"0123456789:;<=>?" + // 0x30
	"¡ABCDEFGHIJKLMNO" + // 0x40
	"PQRSTUVWXYZÄÖÑÜ§" + // 0x50
	"¿abcdefghijklmno" + // 0x60
	"pqrstuvwxyzäöñüà" // 0x70

// escape is the code that announces a character of the extension table.
const escape = 0x1B

// extensionTable is the default alphabet extension table of 3GPP TS 23.038
// §6.2.1.1: the code after the escape, and its character. Each is sent as
// two septets. The table's other codes have no character (0x0D is the
// control CR2, 0x1B a further escape reserved for another table) and a
// receiver shows the default alphabet's character for an unknown one.
var extensionTable = map[byte]rune{
	0x0A: '\f', // form feed (page break)
	0x14: '^',
	0x28: '{',
	0x29: '}',
	0x2F: '\\',
	0x3C: '[',
	0x3D: '~',
	0x3E: ']',
	0x40: '|',
	0x65: '€',
}

// inAlphabet reports whether r is a character of the default alphabet
// (U+001B, the escape code's place, is not).
func inAlphabet(r rune) bool { return r != escape && strings.ContainsRune(defaultAlphabet, r) }

// inExtension reports whether r is a character of the extension table.
func inExtension(r rune) bool {
	for _, e := range extensionTable {
		if e == r {
			return true
		}
	}
	return false
}
