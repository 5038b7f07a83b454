package actions

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// checkText checks a text field: valid UTF-8 without NUL (rules "utf8",
// "no_nul", as the platform's JSON decoder), present when required
// ("required"), at most max characters ("max_length:N"), and on one line
// without control characters when line is set ("single_line").
func checkText(field, s string, required bool, max int, line bool) error {
	if !utf8.ValidString(s) {
		return kernel.Invalid(field, "utf8", "text must be valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return kernel.Invalid(field, "no_nul", "text may not contain the NUL character (U+0000)")
	}
	if required && strings.TrimSpace(s) == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return kernel.Invalid(field, "max_length:"+strconv.Itoa(max),
			field+" may have at most "+strconv.Itoa(max)+" characters (it has "+strconv.Itoa(n)+")")
	}
	if line && strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return kernel.Invalid(field, "single_line", field+" must be one line without control characters")
	}
	return nil
}

// checkEmail checks a bare email address (name@domain, no display name).
func checkEmail(field, s string) error {
	if err := checkText(field, s, true, 254, true); err != nil {
		return err
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return kernel.Invalid(field, "email", field+" must be an email address (name@example.com)")
	}
	return nil
}

// checkList checks a list's length and each element with check.
func checkList(field string, items []string, max int, check func(field, s string) error) error {
	if len(items) > max {
		return kernel.Invalid(field, "max_items:"+strconv.Itoa(max), field+" may have at most "+strconv.Itoa(max)+" items")
	}
	for i, s := range items {
		if err := check(field+"["+strconv.Itoa(i)+"]", s); err != nil {
			return err
		}
	}
	return nil
}

var (
	// Slack ids: C (channel), G (private channel), D (direct message), U/W
	// (a user, for a direct message from the app).
	slackID = regexp.MustCompile(`^[CGDUW][A-Z0-9]{2,}$`)
	// Slack channel names: lower case letters, digits, '-', '_', '.'
	// (older channels), up to 80 characters, optionally after '#'.
	slackName = regexp.MustCompile(`^#?[\p{Ll}\p{Lo}\p{N}_.-]{1,80}$`)
	slackTS   = regexp.MustCompile(`^[0-9]{1,12}\.[0-9]{1,9}$`)
	// GitHub account names: letters, digits and single inner hyphens, up to
	// 39 characters; repository names: letters, digits, '.', '_', '-', up
	// to 100 characters, not "." or "..".
	ghOwner = regexp.MustCompile(`^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$`)
	ghRepo  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
	// Gmail thread ids are hexadecimal.
	gmailID = regexp.MustCompile(`^[0-9a-fA-F]{1,32}$`)
	// Notion ids: a UUID, with or without hyphens.
	notionID = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)
	dateOnly = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// checkChannel checks a Slack channel id or name.
func checkChannel(field, s string) error {
	if err := checkText(field, s, true, 81, true); err != nil {
		return err
	}
	if !slackID.MatchString(s) && !slackName.MatchString(s) {
		return kernel.Invalid(field, "channel", field+" must be a channel id (C0123ABCD) or a channel name "+
			"(lower case letters, digits, '-', '_', optionally after '#')")
	}
	return nil
}

// checkRepo checks "owner/repo" and returns its two parts.
func checkRepo(field, s string) (string, string, error) {
	if err := checkText(field, s, true, 140, true); err != nil {
		return "", "", err
	}
	owner, repo, ok := strings.Cut(s, "/")
	if !ok || len(owner) > 39 || !ghOwner.MatchString(owner) || !ghRepo.MatchString(repo) || repo == "." || repo == ".." {
		return "", "", kernel.Invalid(field, "repo", field+" must be owner/repo: an account name (letters, digits, "+
			"inner hyphens, at most 39) and a repository name (letters, digits, '.', '_', '-', at most 100)")
	}
	return owner, repo, nil
}

// checkLabel checks a GitHub label name.
func checkLabel(field, s string) error {
	return checkText(field, s, true, 50, true)
}
