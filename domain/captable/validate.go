package captable

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// maxName bounds names and titles.
const maxName = 200

func required(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	if len(v) > maxName {
		return kernel.Invalid(field, "max_length", fmt.Sprintf("%s must be at most %d characters", field, maxName))
	}
	return nil
}

func oneOf(field, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if v == "" {
		return kernel.Invalid(field, "required", fmt.Sprintf("%s is required (one of %s)", field, strings.Join(allowed, ", ")))
	}
	return kernel.Invalid(field, "one_of", fmt.Sprintf("%s must be one of %s", field, strings.Join(allowed, ", ")))
}

func positiveWhole(field string, n num.Num) error {
	if n.Sign() <= 0 {
		return kernel.Invalid(field, "positive", field+" must be greater than 0")
	}
	if !n.IsInt() {
		return kernel.Invalid(field, "whole_shares", field+" must be a whole number of shares")
	}
	return nil
}

func nonNegative(field string, n num.Num) error {
	if n.Sign() < 0 {
		return kernel.Invalid(field, "non_negative", field+" must not be negative")
	}
	return nil
}

func positive(field string, n num.Num) error {
	if n.Sign() <= 0 {
		return kernel.Invalid(field, "positive", field+" must be greater than 0")
	}
	return nil
}

func email(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || !strings.Contains(v, "@") {
		return "", kernel.Invalid(field, "email", field+" must be an email address")
	}
	return strings.ToLower(v), nil
}

// dateRequired refuses a missing date and one after today.
func dateRequired(field string, d, today time.Time) error {
	if d.IsZero() {
		return kernel.Invalid(field, "required", field+" is required (YYYY-MM-DD)")
	}
	if d.After(today) {
		return kernel.Invalid(field, "not_future", field+" must not be in the future")
	}
	return nil
}

func notBefore(field string, d time.Time, otherField string, other time.Time) error {
	return notBeforeRule(field, d, "not_before_"+snake(otherField), otherField, other)
}

// notBeforeRule refuses d before other, naming other in words (what) and
// the rule explicitly.
func notBeforeRule(field string, d time.Time, rule, what string, other time.Time) error {
	if d.Before(other) {
		return kernel.Invalid(field, rule,
			fmt.Sprintf("%s (%s) must not be before %s (%s)", field, d.Format(time.DateOnly), what, other.Format(time.DateOnly)))
	}
	return nil
}

// snake turns a camelCase field name into snake_case for rule names.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func notFound(what, id string) error {
	return kernel.NotFound(fmt.Sprintf("%s %s not found", what, id))
}

func conflict(field, rule, msg string) error {
	return &kernel.Error{Kind: kernel.KindConflict, Field: field, Rule: rule, Message: msg}
}
