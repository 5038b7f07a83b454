package hackathon

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of the hackathon's fields.
const (
	MaxName            = 200
	MaxDescription     = 10000
	MaxLocation        = 500
	MaxParticipantsCap = 1_000_000
	MaxTrackName       = 100
	MaxShortText       = 2000
	MaxFeedback        = 5000
	MaxReason          = 1000
	MaxCriteria        = 20
	MaxInvites         = 50
	MaxCriterionValue  = 1_000_000
)

var (
	hexColor     = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	criterionKey = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
)

// text trims s and checks it: at most max characters, no control
// characters (line breaks and tabs allowed when multiline), present when
// required.
func text(field, s string, max int, required, multiline bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			return "", kernel.Invalid(field, "required", field+" is required")
		}
		return "", nil
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", kernel.Invalid(field, "max_length:"+strconv.Itoa(max), field+" must be at most "+strconv.Itoa(max)+" characters (got "+strconv.Itoa(n)+")")
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t' || r == '\r')) {
			return "", kernel.Invalid(field, "no_control_characters", field+" must not contain control characters")
		}
	}
	return s, nil
}

// Normalize trims the details' text, puts the dates in UTC and checks
// them: name required, end_date not before start_date, max_participants
// between 1 and MaxParticipantsCap.
func (d Details) Normalize() (Details, error) {
	var err error
	if d.Name, err = text("name", d.Name, MaxName, true, false); err != nil {
		return d, err
	}
	if d.Description, err = text("description", d.Description, MaxDescription, false, true); err != nil {
		return d, err
	}
	if d.Location, err = text("location", d.Location, MaxLocation, false, false); err != nil {
		return d, err
	}
	if d.StartDate.IsZero() {
		return d, kernel.Invalid("start_date", "required", "start_date is required (ISO 8601)")
	}
	if d.EndDate.IsZero() {
		return d, kernel.Invalid("end_date", "required", "end_date is required (ISO 8601)")
	}
	d.StartDate, d.EndDate = d.StartDate.UTC(), d.EndDate.UTC()
	if d.EndDate.Before(d.StartDate) {
		return d, kernel.Invalid("end_date", "after:start_date", "end_date must not be before start_date")
	}
	if d.MaxParticipants != nil && (*d.MaxParticipants < 1 || *d.MaxParticipants > MaxParticipantsCap) {
		return d, kernel.Invalid("max_participants", "range:1-"+strconv.Itoa(MaxParticipantsCap),
			"max_participants must be a whole number from 1 to "+strconv.Itoa(MaxParticipantsCap))
	}
	return d, nil
}

// Normalize checks a track: name required, color a hex colour (#rgb or
// #rrggbb, kept as #rrggbb in lower case).
func (t Track) Normalize() (Track, error) {
	var err error
	if t.Name, err = text("name", t.Name, MaxTrackName, true, false); err != nil {
		return t, err
	}
	if t.Description, err = text("description", t.Description, MaxShortText, false, true); err != nil {
		return t, err
	}
	t.Color = strings.TrimSpace(t.Color)
	if t.Color != "" {
		if !hexColor.MatchString(t.Color) {
			return t, kernel.Invalid("color", "hex_color", "color must be a hex colour such as #1a2b3c or #abc")
		}
		c := strings.ToLower(t.Color)
		if len(c) == 4 {
			c = "#" + string([]byte{c[1], c[1], c[2], c[2], c[3], c[3]})
		}
		t.Color = c
	}
	return t, nil
}

// Normalize checks a prize: name required; amount a non-negative number
// with at most four decimals; currency an ISO 4217 code, required with an
// amount. The track is checked by the decision (it must exist).
func (p Prize) Normalize() (Prize, error) {
	var err error
	if p.Name, err = text("name", p.Name, MaxName, true, false); err != nil {
		return p, err
	}
	if p.Description, err = text("description", p.Description, MaxShortText, false, true); err != nil {
		return p, err
	}
	p.Amount = strings.TrimSpace(p.Amount)
	if p.Amount != "" {
		r, err := parseDecimal("amount", p.Amount, 4)
		if err != nil {
			return p, err
		}
		if r.Sign() < 0 || r.Cmp(mustRat("1000000000000")) > 0 {
			return p, kernel.Invalid("amount", "range:0-1000000000000", "amount must be from 0 to 1000000000000")
		}
		p.Amount = formatDecimal(r)
	}
	p.Currency = strings.ToUpper(strings.TrimSpace(p.Currency))
	if p.Currency != "" {
		if len(p.Currency) != 3 {
			return p, kernel.Invalid("currency", "iso4217", "currency must be an ISO 4217 code such as USD or EUR")
		}
		if _, err := currency.ParseISO(p.Currency); err != nil || p.Currency == "XXX" || p.Currency == "XTS" {
			return p, kernel.Invalid("currency", "iso4217", "currency must be an ISO 4217 code such as USD or EUR (got "+p.Currency+")")
		}
	}
	if p.Amount != "" && p.Currency == "" {
		return p, kernel.Invalid("currency", "required_with:amount", "currency is required when amount is given")
	}
	p.TrackID = strings.TrimSpace(p.TrackID)
	return p, nil
}

// Normalize checks a submission's fields: team_id and project_name required.
func (s Submission) Normalize() (Submission, error) {
	var err error
	s.TeamID = strings.TrimSpace(s.TeamID)
	if s.TeamID == "" {
		return s, kernel.Invalid("team_id", "required", "team_id is required")
	}
	if s.ProjectName, err = text("project_name", s.ProjectName, MaxName, true, false); err != nil {
		return s, err
	}
	if s.Description, err = text("description", s.Description, MaxDescription, false, true); err != nil {
		return s, err
	}
	s.TrackID = strings.TrimSpace(s.TrackID)
	return s, nil
}

// TeamText checks a team's name (required) and description.
func TeamText(name, description string) (string, string, error) {
	name, err := text("name", name, MaxName, true, false)
	if err != nil {
		return "", "", err
	}
	description, err = text("description", description, MaxShortText, false, true)
	return name, description, err
}

// NormalizeEmail returns an address in lower case, or names the field and
// the rule it breaks.
func NormalizeEmail(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return "", kernel.Invalid(field, "email", field+" must be an email address such as judge@example.com")
	}
	return strings.ToLower(s), nil
}
