package briefing

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Activity metrics a developer_activity observation may carry.
const (
	MetricCommits   = "commits"
	MetricReviews   = "reviews"
	MetricIssues    = "issues"
	MetricStars     = "stars"
	MetricFollowers = "followers"
)

// ActivityMetrics lists them.
func ActivityMetrics() []string {
	return []string{MetricCommits, MetricReviews, MetricIssues, MetricStars, MetricFollowers}
}

// Limits of an observation's fields.
const (
	MaxBatch     = 10000 // observations in one request or import chunk
	maxName      = 200   // company, developer, repo, org, title is 500
	maxTitle     = 500
	maxText      = 20000
	maxURL       = 2048
	maxCompanies = 50
	maxSourceID  = 256
	maxCount     = 1e12
	earliestYear = 1900
	latestYear   = 2200
)

var (
	sourceRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$`)
	seriesRule = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_]{0,39}$`)
	formRule   = regexp.MustCompile(`^[A-Z0-9][A-Z0-9 ./-]{0,19}$`)
)

// Check validates and normalises o (trimmed names, an indicator's date at
// 00:00 UTC, upper-case series and form). field prefixes the field names
// of its errors ("observations[3]"). Fields another kind uses are refused,
// so a misplaced field is not silently dropped.
func (o *Observation) Check(field string) error {
	f := func(name string) string { return field + "." + name }
	if !slices.Contains(Kinds(), o.Kind) {
		return kernel.Invalid(f("kind"), "enum", "kind must be one of "+strings.Join(Kinds(), ", "))
	}
	o.Source = strings.TrimSpace(o.Source)
	if !sourceRule.MatchString(o.Source) {
		return kernel.Invalid(f("source"), "format", "source is required: 1-64 letters, digits, _ . : or -, starting with a letter or digit")
	}
	if err := name(f("source_id"), &o.SourceID, maxSourceID, true); err != nil {
		return err
	}
	if o.At.IsZero() {
		return kernel.Invalid(f("at"), "required", "at (RFC 3339 time, or the date for an indicator) is required")
	}
	if y := o.At.UTC().Year(); y < earliestYear || y > latestYear {
		return kernel.Invalid(f("at"), "range", fmt.Sprintf("at must be between the years %d and %d", earliestYear, latestYear))
	}
	o.At = o.At.UTC()
	used := map[string]bool{}
	switch o.Kind {
	case KindIndicator:
		used["series"], used["value"] = true, true
		o.Series = strings.ToUpper(strings.TrimSpace(o.Series))
		if !seriesRule.MatchString(o.Series) {
			return kernel.Invalid(f("series"), "format", "series is required: a FRED series id such as VIXCLS (letters, digits, _; at most 40)")
		}
		if o.Value == nil || math.IsNaN(*o.Value) || math.IsInf(*o.Value, 0) {
			return kernel.Invalid(f("value"), "required", "value is required: a finite number")
		}
		o.At = Day(o.At)
	case KindMention, KindFiling:
		used["company"], used["title"], used["text"], used["url"] = true, true, true, true
		if err := name(f("company"), &o.Company, maxName, true); err != nil {
			return err
		}
		if o.Kind == KindFiling {
			used["form"] = true
			o.Form = strings.ToUpper(strings.TrimSpace(o.Form))
			if !formRule.MatchString(o.Form) {
				return kernel.Invalid(f("form"), "format", "form is required: the filing's form type such as 8-K, S-1 or SC 13D (at most 20)")
			}
		}
	case KindDocument:
		used["companies"], used["title"], used["text"], used["url"] = true, true, true, true
		if len(o.Companies) == 0 || len(o.Companies) > maxCompanies {
			return kernel.Invalid(f("companies"), "size", fmt.Sprintf("companies must name 1 to %d companies", maxCompanies))
		}
		seen := map[string]bool{}
		out := o.Companies[:0]
		for i := range o.Companies {
			if err := name(fmt.Sprintf("%s[%d]", f("companies"), i), &o.Companies[i], maxName, true); err != nil {
				return err
			}
			if k := strings.ToLower(o.Companies[i]); !seen[k] {
				seen[k] = true
				out = append(out, o.Companies[i])
			}
		}
		o.Companies = out
	case KindActivity:
		used["developer"], used["repo"], used["org"], used["metric"], used["count"] = true, true, true, true, true
		if err := name(f("developer"), &o.Developer, maxName, true); err != nil {
			return err
		}
		if err := name(f("repo"), &o.Repo, maxName, true); err != nil {
			return err
		}
		if err := name(f("org"), &o.Org, maxName, false); err != nil {
			return err
		}
		if !slices.Contains(ActivityMetrics(), o.Metric) {
			return kernel.Invalid(f("metric"), "enum", "metric must be one of "+strings.Join(ActivityMetrics(), ", "))
		}
		if math.IsNaN(o.Count) || o.Count < 0 || o.Count > maxCount {
			return kernel.Invalid(f("count"), "range", "count must be a number from 0 to 1e12")
		}
	}
	if err := o.checkText(f, used); err != nil {
		return err
	}
	return o.foreign(f, used)
}

// checkText checks the free-text fields the kind uses.
func (o *Observation) checkText(f func(string) string, used map[string]bool) error {
	if used["title"] {
		if err := name(f("title"), &o.Title, maxTitle, false); err != nil {
			return err
		}
	}
	if used["text"] {
		if !utf8.ValidString(o.Text) || strings.ContainsRune(o.Text, 0) {
			return kernel.Invalid(f("text"), "utf8", "text must be UTF-8 without NUL characters")
		}
		if utf8.RuneCountInString(o.Text) > maxText {
			return kernel.Invalid(f("text"), "max_length", fmt.Sprintf("text is at most %d characters", maxText))
		}
	}
	if used["url"] && o.URL != "" {
		u, err := url.Parse(o.URL)
		if len(o.URL) > maxURL || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return kernel.Invalid(f("url"), "url", "url must be an absolute http or https URL of at most 2048 characters")
		}
	}
	return nil
}

// foreign refuses the fields the kind does not use.
func (o *Observation) foreign(f func(string) string, used map[string]bool) error {
	set := map[string]bool{
		"series": o.Series != "", "value": o.Value != nil, "company": o.Company != "", "companies": len(o.Companies) > 0,
		"title": o.Title != "", "text": o.Text != "", "url": o.URL != "", "form": o.Form != "",
		"developer": o.Developer != "", "repo": o.Repo != "", "org": o.Org != "", "metric": o.Metric != "", "count": o.Count != 0,
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if set[k] && !used[k] {
			return kernel.Invalid(f(k), "not_for_kind", fmt.Sprintf("%s is not a field of a %s observation", k, o.Kind))
		}
	}
	return nil
}

// name trims a name field and checks it: printable text, no control
// characters, at most max characters, present when required.
func name(field string, v *string, max int, required bool) error {
	s := strings.TrimSpace(*v)
	*v = s
	if s == "" {
		if required {
			return kernel.Invalid(field, "required", field+" is required")
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return kernel.Invalid(field, "utf8", field+" must be UTF-8")
	}
	if utf8.RuneCountInString(s) > max {
		return kernel.Invalid(field, "max_length", fmt.Sprintf("%s is at most %d characters", field, max))
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return kernel.Invalid(field, "printable", field+" must not contain control characters")
	}
	return nil
}

// Key is an observation's identity.
func (o Observation) Key() [3]string { return [3]string{o.Kind, o.Source, o.SourceID} }
