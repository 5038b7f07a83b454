package datamarket

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// LeadRubricVersion names the lead score rules below (points, cities,
// providers, thresholds, grade bands); changing any of them changes it.
// LEADSCORE.md describes the rubric.
const LeadRubricVersion = "lead-score-v1"

// LeadRequest is the body of POST /lead-score.
type LeadRequest struct {
	BusinessName string `json:"business_name"`
	IsTech       *bool  `json:"is_tech"` // absent means false
	Phone        string `json:"phone"`
	CityKey      string `json:"city_key"`
}

// Limits of a lead request.
const (
	MaxBusinessNameLen = 200
	MaxPhoneLen        = 40
	MaxCityKeyLen      = 40
)

// phoneRE: digits, spaces and + - ( ) . with an optional extension, "ext",
// "ext." or "x" and its digits.
var phoneRE = regexp.MustCompile(`(?i)^[0-9 +\-().]*(?:(?:ext\.?|x)\s*[0-9]+)?$`)

// Validate checks the request. An unknown city_key is not an error: it
// scores nothing for the city rule.
func (r LeadRequest) Validate() error {
	name := strings.TrimSpace(r.BusinessName)
	switch {
	case name == "":
		return kernel.Invalid("business_name", "required", "business_name is required")
	case utf8.RuneCountInString(name) > MaxBusinessNameLen:
		return kernel.Invalid("business_name", fmt.Sprintf("max_length:%d", MaxBusinessNameLen),
			fmt.Sprintf("business_name is longer than %d characters", MaxBusinessNameLen))
	}
	phone := strings.TrimSpace(r.Phone)
	switch {
	case utf8.RuneCountInString(phone) > MaxPhoneLen:
		return kernel.Invalid("phone", fmt.Sprintf("max_length:%d", MaxPhoneLen),
			fmt.Sprintf("phone is longer than %d characters", MaxPhoneLen))
	case !phoneRE.MatchString(phone):
		return kernel.Invalid("phone", "phone",
			`phone may hold only digits, spaces, + - ( ) . and an extension such as "ext 12" or "x12"`)
	}
	if utf8.RuneCountInString(strings.TrimSpace(r.CityKey)) > MaxCityKeyLen {
		return kernel.Invalid("city_key", fmt.Sprintf("max_length:%d", MaxCityKeyLen),
			fmt.Sprintf("city_key is longer than %d characters", MaxCityKeyLen))
	}
	return nil
}

// DomainFact is a row of the domain/WHOIS dataset that matches the business:
// Row is its row number in the imported file.
type DomainFact struct {
	Domain         string
	OrgName        string
	Infrastructure string
	AgeDays        *int // nil when the row gives no registration age
	Dataset        string
	Version        int
	Row            int64
}

// OrgFact is a row naming the organisation in the SMB directory or the WHOIS
// dataset.
type OrgFact struct {
	Dataset string
	Version int
	Row     int64
	Name    string
}

// LeadFacts is what the imported datasets say about the business; nil means
// no matching row. ScoreLead trusts them: finding them (NormalizeOrgName on
// both sides) is the caller's job.
type LeadFacts struct {
	Domain   *DomainFact
	KnownOrg *OrgFact
}

// LeadScore is the answer of POST /lead-score.
type LeadScore struct {
	Score         int         `json:"score"`
	Grade         string      `json:"grade"`
	Factors       LeadFactors `json:"factors"`
	Rules         []LeadRule  `json:"rules"`
	RubricVersion string      `json:"rubric_version"`
}

// LeadFactors are the seed's three request factors. City is the city_key
// trimmed and lower-cased, known or not ("" when none).
type LeadFactors struct {
	IsTech   bool   `json:"is_tech"`
	HasPhone bool   `json:"has_phone"`
	City     string `json:"city"`
}

// LeadRule is one rule's outcome: Points is MaxPoints when it matched, else
// 0, and Evidence says why in plain words.
type LeadRule struct {
	Rule      string `json:"rule"`
	Points    int    `json:"points"`
	MaxPoints int    `json:"max_points"`
	Matched   bool   `json:"matched"`
	Evidence  string `json:"evidence"`
}

// The rules, in the seed's order.
const (
	RuleTechCompany          = "tech_company"
	RuleDomainData           = "domain_data"
	RuleModernInfrastructure = "modern_infrastructure"
	RuleHasPhone             = "has_phone"
	RuleTopTechCity          = "top_tech_city"
	RuleKnownOrganization    = "known_organization"
	RuleDomainAge            = "domain_age_over_2_years"
)

// MinPhoneDigits is the fewest digits a phone needs to count: a local
// subscriber number in the North American plan (every directory city's) is
// seven digits, so anything shorter cannot be a number to call.
const MinPhoneDigits = 7

// MinDomainAgeDays: older than two years is more than 730 days.
const MinDomainAgeDays = 730

// topTechCities are the directory cities (nyc, sf, la, seattle, austin) the
// rubric counts as top tech cities: those whose economies are known first
// for technology companies (the Bay Area, Seattle's cloud and software
// firms, New York's tech and fintech, Austin's growing tech hub). Los
// Angeles is left out: its economy is known first for entertainment, media
// and trade. This is a product choice, part of the rubric version, not a
// measured ranking.
var topTechCities = []string{"sf", "seattle", "nyc", "austin"}

// TopTechCities returns the city keys the top_tech_city rule scores.
func TopTechCities() []string { return slices.Clone(topTechCities) }

// directoryCities are the SMB directory's city keys.
var directoryCities = []string{"nyc", "sf", "la", "seattle", "austin"}

// modernProviders maps the accepted spellings of a modern infrastructure
// provider (compared after NormalizeOrgName) to its name. GoDaddy, other
// hosts and an unknown provider are not modern.
var modernProviders = map[string]string{
	"aws":                   "AWS",
	"amazon web services":   "AWS",
	"cloudflare":            "Cloudflare",
	"google cloud":          "Google Cloud",
	"google cloud platform": "Google Cloud",
	"gcp":                   "Google Cloud",
	"azure":                 "Azure",
	"microsoft azure":       "Azure",
	"vercel":                "Vercel",
}

// ModernInfrastructure reports whether infra names a modern cloud provider
// (AWS, Cloudflare, Google Cloud, Azure or Vercel) and which.
func ModernInfrastructure(infra string) (string, bool) {
	p, ok := modernProviders[NormalizeOrgName(infra)]
	return p, ok
}

// LeadGrade maps a score to its grade: A 80 and up, B 60, C 40, D 20, F
// below 20.
func LeadGrade(score int) string {
	switch {
	case score >= 80:
		return "A"
	case score >= 60:
		return "B"
	case score >= 40:
		return "C"
	case score >= 20:
		return "D"
	}
	return "F"
}

// ScoreLead scores a lead by the seven rules of the seed, every one listed
// with its points and evidence; the points sum to 100. Each rule adds its
// points or nothing, so turning a factor on never lowers the score, and
// unknown inputs (an unknown city, no phone, no matching rows, an unknown
// provider or age) score nothing. The request should be valid; if it is not
// the score is still between 0 and 100.
func ScoreLead(r LeadRequest, f LeadFacts) LeadScore {
	s := LeadScore{RubricVersion: LeadRubricVersion}
	add := func(rule string, points int, matched bool, evidence string) {
		lr := LeadRule{Rule: rule, MaxPoints: points, Matched: matched, Evidence: evidence}
		if matched {
			lr.Points = points
		}
		s.Rules = append(s.Rules, lr)
		s.Score += lr.Points
	}
	m, e := techRule(r.IsTech)
	s.Factors.IsTech = m
	add(RuleTechCompany, 30, m, e)
	m, e = domainDataRule(f.Domain)
	add(RuleDomainData, 15, m, e)
	m, e = infrastructureRule(f.Domain)
	add(RuleModernInfrastructure, 15, m, e)
	m, e = phoneRule(r.Phone)
	s.Factors.HasPhone = m
	add(RuleHasPhone, 10, m, e)
	s.Factors.City = strings.ToLower(strings.TrimSpace(r.CityKey))
	m, e = cityRule(s.Factors.City)
	add(RuleTopTechCity, 10, m, e)
	m, e = knownOrgRule(f.KnownOrg)
	add(RuleKnownOrganization, 10, m, e)
	m, e = domainAgeRule(f.Domain)
	add(RuleDomainAge, 10, m, e)
	s.Grade = LeadGrade(s.Score)
	return s
}

const noDomain = "no domain record for this name"

func techRule(isTech *bool) (bool, string) {
	if isTech == nil {
		return false, "is_tech not given, taken as false"
	}
	return *isTech, fmt.Sprintf("is_tech is %t", *isTech)
}

func domainDataRule(d *DomainFact) (bool, string) {
	if d == nil {
		return false, noDomain
	}
	e := domainSource(d)
	if d.OrgName != "" {
		e += fmt.Sprintf(" registered to %q", d.OrgName)
	}
	return true, e
}

func infrastructureRule(d *DomainFact) (bool, string) {
	if d == nil {
		return false, noDomain
	}
	infra := strings.TrimSpace(d.Infrastructure)
	if p, ok := ModernInfrastructure(infra); ok {
		return true, domainSource(d) + " infrastructure " + p
	}
	if infra == "" {
		return false, domainSource(d) + " has no infrastructure value"
	}
	return false, fmt.Sprintf("%s infrastructure %q is not a modern cloud provider", domainSource(d), infra)
}

func domainAgeRule(d *DomainFact) (bool, string) {
	switch {
	case d == nil:
		return false, noDomain
	case d.AgeDays == nil:
		return false, domainSource(d) + " registration age unknown"
	case *d.AgeDays > MinDomainAgeDays:
		return true, fmt.Sprintf("%s registered %d days ago, more than %d", domainSource(d), *d.AgeDays, MinDomainAgeDays)
	}
	return false, fmt.Sprintf("%s registered %d days ago, not more than %d", domainSource(d), *d.AgeDays, MinDomainAgeDays)
}

func phoneRule(phone string) (bool, string) {
	n := phoneDigits(phone)
	switch {
	case strings.TrimSpace(phone) == "":
		return false, "no phone given"
	case n >= MinPhoneDigits:
		return true, fmt.Sprintf("phone has %d digits", n)
	}
	return false, fmt.Sprintf("phone has %d digits, fewer than %d", n, MinPhoneDigits)
}

func cityRule(city string) (bool, string) {
	switch {
	case city == "":
		return false, "no city_key given"
	case slices.Contains(topTechCities, city):
		return true, city + " is a top tech city"
	case slices.Contains(directoryCities, city):
		return false, city + " is a directory city but not a top tech city"
	}
	return false, fmt.Sprintf("unknown city_key %q scores nothing", city)
}

func knownOrgRule(o *OrgFact) (bool, string) {
	if o == nil {
		return false, "no organization with this name in the SMB directory or the WHOIS data"
	}
	return true, fmt.Sprintf("%s: %q matches the business name", cite(o.Dataset, o.Version, o.Row), o.Name)
}

// domainSource cites a domain row: "whois-enrichment v3 row 17: example.com".
func domainSource(d *DomainFact) string {
	return cite(d.Dataset, d.Version, d.Row) + ": " + orUnnamed(d.Domain)
}

// phoneDigits counts the digits of a phone number before any letter (so an
// extension's digits do not count).
func phoneDigits(phone string) int {
	n := 0
	for _, c := range phone {
		if unicode.IsLetter(c) {
			break
		}
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

func cite(dataset string, version int, row int64) string {
	return fmt.Sprintf("%s v%d row %d", orUnnamed(dataset), version, row)
}

func orUnnamed(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// legalSuffixes are dropped from the end of an organisation name.
var legalSuffixes = map[string]bool{
	"inc": true, "incorporated": true, "llc": true, "ltd": true, "limited": true,
	"corp": true, "corporation": true, "co": true, "company": true, "plc": true,
	"gmbh": true, "llp": true, "lp": true,
}

// NormalizeOrgName is the form business and organisation names are compared
// in: lower-cased, "&" read as "and", apostrophes and periods removed (so
// "L.L.C." is "llc" and "Joe's" is "joes"), every other character that is
// not a letter or digit a space, spaces collapsed, and trailing legal
// suffixes (inc, incorporated, llc, ltd, limited, corp, corporation, co,
// company, plc, gmbh, llp, lp) dropped while another word remains.
func NormalizeOrgName(s string) string {
	// One pass into a byte buffer (it runs for every directory row an
	// import loads): words of lower-case letters and digits separated by
	// one space, "&" read as "and", apostrophes and dots dropped.
	b := make([]byte, 0, len(s)+8)
	space := true // at the start or after a separator
	word := func() {
		if !space {
			b = append(b, ' ')
			space = true
		}
	}
	for _, c := range s {
		switch {
		case c == '&':
			word()
			b = append(b, "and"...)
			space = false
			word()
		case c == '\'' || c == '\u2019' || c == '.':
		case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9'):
			b, space = append(b, byte(c)), false
		case c < utf8.RuneSelf && c >= 'A' && c <= 'Z':
			b, space = append(b, byte(c+'a'-'A')), false
		case c >= utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsDigit(c)):
			b, space = utf8.AppendRune(b, unicode.ToLower(c)), false
		default:
			word()
		}
	}
	out := strings.TrimSuffix(string(b), " ")
	for {
		i := strings.LastIndexByte(out, ' ')
		if i < 0 || !legalSuffixes[out[i+1:]] {
			return out
		}
		out = out[:i]
	}
}
