package identity

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Password rules (seed: minimum 8 characters; at least one uppercase letter,
// one lowercase letter, one digit and one special character). MaxPasswordLen
// bounds the work a single hash costs.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 128
)

// The names of the password rules, as reported to clients.
const (
	RuleMinLength = "min_length:8"
	RuleMaxLength = "max_length:128"
	RuleUppercase = "uppercase"
	RuleLowercase = "lowercase"
	RuleDigit     = "digit"
	RuleSpecial   = "special_character"
)

// PasswordProblems returns every rule p breaks, in a fixed order; none means
// the password is acceptable. A special character is any character that is
// not a letter, a digit or white space.
func PasswordProblems(p string) []string {
	var upper, lower, digit, special bool
	for _, r := range p {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case !unicode.IsLetter(r) && !unicode.IsSpace(r):
			special = true
		}
	}
	var out []string
	n := utf8.RuneCountInString(p)
	if n < MinPasswordLen {
		out = append(out, RuleMinLength)
	}
	if n > MaxPasswordLen {
		out = append(out, RuleMaxLength)
	}
	for _, c := range []struct {
		ok   bool
		rule string
	}{{upper, RuleUppercase}, {lower, RuleLowercase}, {digit, RuleDigit}, {special, RuleSpecial}} {
		if !c.ok {
			out = append(out, c.rule)
		}
	}
	return out
}

var ruleText = map[string]string{
	RuleMinLength: "at least 8 characters",
	RuleMaxLength: "at most 128 characters",
	RuleUppercase: "an uppercase letter",
	RuleLowercase: "a lowercase letter",
	RuleDigit:     "a digit",
	RuleSpecial:   "a special character",
}

// CheckPassword returns nil for an acceptable password, else an invalid
// error on field whose Rule lists every broken rule (comma-separated) and
// whose message says what is missing.
func CheckPassword(field, p string) error {
	if p == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	problems := PasswordProblems(p)
	if len(problems) == 0 {
		return nil
	}
	texts := make([]string, len(problems))
	for i, r := range problems {
		texts[i] = ruleText[r]
	}
	return kernel.Invalid(field, strings.Join(problems, ","),
		"password must have "+strings.Join(texts, ", "))
}
