package template

import (
	"strings"
	"unicode"
)

// Stem reduces a lower-case word to the form the lexicon and the catalogue
// are matched on. The rule, applied in this order:
//
//  1. Words of three letters or fewer are kept as they are ("crm", "log").
//  2. Plurals: "-ies" becomes "-y" (stories -> story); "-sses" becomes
//     "-ss" (classes -> class); "-ches", "-shes", "-xes", "-zes" lose "es"
//     (coaches -> coach, boxes -> box); any other final "s" is dropped
//     unless the word ends in "ss", "us" or "is" (courses -> course,
//     class, status and analysis stay).
//  3. Then "-ing" or "-ed" is dropped when at least four letters remain
//     (booking -> book, tracked -> track; thing, string and need stay), and
//     a doubled final consonant other than l, s or z is undoubled
//     (running -> run, shipped -> ship, selling -> sell).
//
// It is deliberately simple: "scheduling" stems to "schedul", so the
// lexicon lists "schedule" and "scheduling" both. Both sides of every
// match are stemmed with this same rule.
func Stem(w string) string {
	r := []rune(w)
	if len(r) <= 3 {
		return w
	}
	r = stemPlural(r)
	for _, suf := range []string{"ing", "ed"} {
		if cut := len(r) - len(suf); cut >= 4 && string(r[cut:]) == suf {
			r = r[:cut]
			if n := len(r); r[n-1] == r[n-2] && isDoubleable(r[n-1]) {
				r = r[:n-1]
			}
			break
		}
	}
	return string(r)
}

func stemPlural(r []rune) []rune {
	s := string(r)
	switch {
	case strings.HasSuffix(s, "ies") && len(r) > 4:
		return append(r[:len(r)-3:len(r)-3], 'y')
	case strings.HasSuffix(s, "sses"):
		return r[:len(r)-2]
	case strings.HasSuffix(s, "ches"), strings.HasSuffix(s, "shes"),
		strings.HasSuffix(s, "xes"), strings.HasSuffix(s, "zes"):
		return r[:len(r)-2]
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") &&
		!strings.HasSuffix(s, "us") && !strings.HasSuffix(s, "is"):
		return r[:len(r)-1]
	}
	return r
}

// isDoubleable reports whether a doubled c at the end of a stem is a
// spelling artefact (runn, shipp) rather than part of the word (sell, pass).
func isDoubleable(c rune) bool {
	return c >= 'a' && c <= 'z' && !strings.ContainsRune("aeioulsz", c)
}

// Singular is the plural step of Stem alone, for display: "sneakers"
// becomes "sneaker" but "running" stays "running".
func Singular(w string) string {
	r := []rune(w)
	if len(r) <= 3 {
		return w
	}
	return string(stemPlural(r))
}

// token is one word of an idea: as written, lower-cased, and stemmed.
type token struct {
	Word  string // as written: "SaaS"
	Lower string // "saas"
	Stem  string // Stem(Lower): "bookings" -> "book"
}

// tokenize splits an idea into words: maximal runs of letters and digits.
// Everything else (spaces, punctuation, apostrophes, dashes) separates
// words, and one-letter words other than digits are dropped, so
// "e-commerce" is "commerce" and "studio's" is "studio".
func tokenize(idea string) []token {
	fields := strings.FieldsFunc(idea, func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c)
	})
	out := make([]token, 0, len(fields))
	for _, f := range fields {
		if len([]rune(f)) == 1 && !unicode.IsDigit([]rune(f)[0]) {
			continue
		}
		lower := strings.ToLower(f)
		out = append(out, token{Word: f, Lower: lower, Stem: Stem(lower)})
	}
	return out
}
