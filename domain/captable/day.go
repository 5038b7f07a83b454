package captable

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Day is a calendar date in the API: "2024-01-15" in and out. On input an
// RFC 3339 timestamp is also accepted and reduced to its UTC date. The zero
// Day is "no date" and encodes as null.
type Day struct{ time.Time }

// DayOf returns t's UTC calendar date.
func DayOf(t time.Time) Day {
	if t.IsZero() {
		return Day{}
	}
	u := t.UTC()
	return Day{time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)}
}

// ParseDay reads "2006-01-02" or an RFC 3339 timestamp.
func ParseDay(s string) (Day, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return DayOf(t), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return DayOf(t), true
	}
	return Day{}, false
}

// String writes the date as YYYY-MM-DD ("" for the zero Day).
func (d Day) String() string {
	if d.IsZero() {
		return ""
	}
	return d.Format(time.DateOnly)
}

// JSONType names the JSON form for error messages.
func (Day) JSONType() string { return "date (YYYY-MM-DD)" }

// MarshalJSON writes "YYYY-MM-DD", or null for the zero Day.
func (d Day) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.String())
}

// UnmarshalJSON reads a date string; null leaves the zero Day. Anything
// else is a *json.UnmarshalTypeError, so the decoder names the field.
func (d *Day) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*d = Day{}
		return nil
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if v, ok := ParseDay(strings.TrimSpace(s[1 : len(s)-1])); ok {
			if y := v.Year(); y < MinYear || y > MaxYear {
				return &json.UnmarshalTypeError{Value: "date " + s, Type: reflect.TypeOf(YearOutOfRange{})}
			}
			*d = v
			return nil
		}
	}
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return &json.UnmarshalTypeError{Value: "value " + s, Type: reflect.TypeOf(Day{})}
}

// MinYear and MaxYear bound the dates the API accepts (grants, exercises,
// SAFEs, valuations, rounds, as-of views): a company's records start after
// 1900 and nothing is dated past 2100, so 0202 or 9999 is a typo, refused.
const (
	MinYear = 1900
	MaxYear = 2100
)

// YearOutOfRange is the type named when a date's year is outside MinYear
// to MaxYear; its JSONRule tells the decoder the rule.
type YearOutOfRange struct{}

// JSONRule names the rule an out-of-range date breaks.
func (YearOutOfRange) JSONRule() (rule, message string) {
	return fmt.Sprintf("year_range:%d-%d", MinYear, MaxYear), fmt.Sprintf("must fall in the years %d to %d", MinYear, MaxYear)
}

// timePtr returns a pointer to d's time, nil for the zero Day.
func (d Day) timePtr() *time.Time {
	if d.IsZero() {
		return nil
	}
	t := d.Time
	return &t
}
