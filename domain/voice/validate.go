package voice

import (
	"net/mail"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// CheckE164 refuses a phone number that is not E.164: '+', a country code
// not starting with 0, at most 15 digits in all (ITU-T E.164) and at least
// 8 (the shortest national numbers with their country code).
func CheckE164(field, v string) error {
	if v == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	ok := len(v) >= 9 && len(v) <= 16 && v[0] == '+' && v[1] >= '1' && v[1] <= '9'
	for i := 1; ok && i < len(v); i++ {
		ok = v[i] >= '0' && v[i] <= '9'
	}
	if !ok {
		return kernel.Invalid(field, "e164", field+" must be an E.164 number: '+', country code and number, 8 to 15 digits, e.g. +14155550123")
	}
	return nil
}

// CheckText refuses a text shorter than lo or longer than hi characters
// (Unicode code points).
func CheckText(field, v string, lo, hi int) error {
	n := utf8.RuneCountInString(v)
	if n < lo {
		if lo == 1 {
			return kernel.Invalid(field, "required", field+" is required")
		}
		return kernel.Invalid(field, "min_length:"+strconv.Itoa(lo), field+" must have at least "+strconv.Itoa(lo)+" characters")
	}
	if n > hi {
		return kernel.Invalid(field, "max_length:"+strconv.Itoa(hi), field+" must have at most "+strconv.Itoa(hi)+" characters")
	}
	return nil
}

// CheckSlug refuses a value that is not 1-64 of a-z, 0-9, '_' and '-'.
func CheckSlug(field, v string) error {
	ok := v != "" && len(v) <= 64
	for i := 0; ok && i < len(v); i++ {
		c := v[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if !ok {
		return kernel.Invalid(field, "slug", field+" must be 1-64 characters of a-z, 0-9, '_' and '-'")
	}
	return nil
}

// CheckEmail refuses an address that is not one plain addr-spec.
func CheckEmail(field, v string) error {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" || len(v) > 254 {
		return kernel.Invalid(field, "email", field+" must be an email address like name@example.com")
	}
	return nil
}

// Tag limits of contacts.
const (
	MaxTags   = 20
	MaxTagLen = 50
)

// CleanTags checks tags (each 1-50 characters, at most 20) and removes
// duplicates, keeping the first spelling's order.
func CleanTags(tags []string) ([]string, error) {
	if len(tags) > MaxTags {
		return nil, kernel.Invalid("tags", "max_items:"+strconv.Itoa(MaxTags), "tags may hold at most "+strconv.Itoa(MaxTags)+" tags")
	}
	out := make([]string, 0, len(tags))
	seen := map[string]bool{}
	for i, t := range tags {
		t = strings.TrimSpace(t)
		if err := CheckText("tags["+strconv.Itoa(i)+"]", t, 1, MaxTagLen); err != nil {
			return nil, err
		}
		if !seen[strings.ToLower(t)] {
			seen[strings.ToLower(t)] = true
			out = append(out, t)
		}
	}
	return out, nil
}
