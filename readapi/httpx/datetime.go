package httpx

import (
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Years bounds the years a date-time field accepts; each context documents
// its own range (README), so a typo such as 0202 or 9999 is refused instead
// of being stored as a real date.
type Years struct{ Min, Max int }

// ParseDateTime reads an RFC 3339 date-time, which must carry its offset
// ("Z" or "+hh:mm"): a local time without one names no instant, and reading
// it as UTC would silently move it by the client's offset. The result is in
// UTC. Failures are invalid errors naming field: rule "datetime" for text
// that is not a date-time, "datetime_offset" for one without an offset,
// "year_range:<min>-<max>" for a year outside years. With allowDate a bare
// date (2026-01-31) is accepted as that day's start in UTC.
func ParseDateTime(field, v string, years Years, allowDate bool) (time.Time, error) {
	v = strings.TrimSpace(v)
	example := field + " must be an RFC 3339 date-time with an offset, such as 2026-12-01T18:00:00Z or 2026-12-01T10:00:00-08:00"
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil && allowDate {
		t, err = time.Parse(time.DateOnly, v)
	}
	if err != nil {
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
			if _, lerr := time.Parse(layout, v); lerr == nil {
				return time.Time{}, kernel.Invalid(field, "datetime_offset", field+" has no time zone offset: add Z for UTC or +hh:mm/-hh:mm")
			}
		}
		return time.Time{}, kernel.Invalid(field, "datetime", example)
	}
	t = t.UTC()
	if y := t.Year(); y < years.Min || y > years.Max {
		lo, hi := strconv.Itoa(years.Min), strconv.Itoa(years.Max)
		return time.Time{}, kernel.Invalid(field, "year_range:"+lo+"-"+hi, field+" must fall in the years "+lo+" to "+hi)
	}
	return t, nil
}
