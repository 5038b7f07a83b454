package icalendar

import "strings"

// maxSlug bounds the title part of a file name.
const maxSlug = 60

// Filename returns the download name of an exported event:
// "<slug of title>-<id>.ics". The slug keeps the ASCII letters (lowercased) and
// digits of title; every run of anything else, non-ASCII letters included,
// becomes one "-", and the slug never starts or ends with "-". A slug longer
// than 60 characters is cut to at most 60, at the last "-" when that keeps at
// least half of them, else exactly at 60. When the slug is empty (an empty,
// punctuation-only or e.g. CJK-only title) the result is "event-<id>.ics".
//
// Apart from the characters of id, the result holds only [a-z0-9.-]. id is
// used verbatim, so it should be a file-name-safe identifier such as a UUID;
// an empty id gives "<slug>.ics".
func Filename(title, id string) string {
	s := slug(title)
	if s == "" {
		s = "event"
	}
	if id == "" {
		return s + ".ics"
	}
	return s + "-" + id + ".ics"
}

func slug(title string) string {
	var b strings.Builder
	sep := false
	for _, r := range title {
		switch {
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
		default:
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	s := b.String()
	if len(s) <= maxSlug {
		return s
	}
	if s[maxSlug] == '-' {
		return s[:maxSlug] // the cut falls exactly between two words
	}
	s = s[:maxSlug]
	if i := strings.LastIndexByte(s, '-'); i >= maxSlug/2 {
		return s[:i]
	}
	return strings.TrimSuffix(s, "-")
}
