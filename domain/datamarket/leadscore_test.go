package datamarket

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/quick"

	"github.com/strata-platform/strata/domain/kernel"
)

func ptr[T any](v T) *T { return &v }

func whois(infra string, age *int) *DomainFact {
	return &DomainFact{Domain: "example.com", OrgName: "Example Inc", Infrastructure: infra, AgeDays: age,
		Dataset: "whois-enrichment", Version: 3, Row: 17}
}

var directoryOrg = &OrgFact{Dataset: "smb-directory", Version: 2, Row: 5, Name: "Example, Inc."}

func TestScoreLeadHandChecked(t *testing.T) {
	cases := []struct {
		name   string
		req    LeadRequest
		facts  LeadFacts
		score  int
		grade  string
		points []int // per rule, in order
	}{
		{"everything", LeadRequest{"Example Inc", ptr(true), "(415) 555-0100", "sf"},
			LeadFacts{whois("AWS", ptr(1000)), directoryOrg},
			100, "A", []int{30, 15, 15, 10, 10, 10, 10}},
		{"nothing", LeadRequest{BusinessName: "Nobody"}, LeadFacts{},
			0, "F", []int{0, 0, 0, 0, 0, 0, 0}},
		{"tech in la, young GoDaddy domain", LeadRequest{"Acme", ptr(true), "555-0100", "LA"},
			LeadFacts{whois("GoDaddy", ptr(400)), nil},
			55, "C", []int{30, 15, 0, 10, 0, 0, 0}},
		{"not tech, Cloudflare, age unknown, short phone", LeadRequest{"Acme", ptr(false), "911", " Seattle "},
			LeadFacts{whois("cloudflare", nil), directoryOrg},
			50, "C", []int{0, 15, 15, 0, 10, 10, 0}},
		{"domain exactly 730 days old", LeadRequest{"Acme", nil, "+1 212 555 0100 ext 4", "paris"},
			LeadFacts{whois("Vercel", ptr(730)), nil},
			40, "C", []int{0, 15, 15, 10, 0, 0, 0}},
		{"known org only", LeadRequest{"Acme", nil, "", "austin"},
			LeadFacts{nil, directoryOrg},
			20, "D", []int{0, 0, 0, 0, 10, 10, 0}},
		{"tech, Azure, old", LeadRequest{"Acme", ptr(true), "", "nyc"},
			LeadFacts{whois("Microsoft Azure", ptr(731)), nil},
			80, "A", []int{30, 15, 15, 0, 10, 0, 10}},
		{"tech, old domain, unknown host", LeadRequest{"Acme", ptr(true), "", ""},
			LeadFacts{whois("", ptr(5000)), nil},
			55, "C", []int{30, 15, 0, 0, 0, 0, 10}},
		{"tech, gcp, phone", LeadRequest{"Acme", ptr(true), "4155550100", ""},
			LeadFacts{whois("GCP", ptr(10)), nil},
			70, "B", []int{30, 15, 15, 10, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ScoreLead(c.req, c.facts)
			if s.Score != c.score || s.Grade != c.grade || s.RubricVersion != LeadRubricVersion {
				t.Errorf("score %d %s %s, want %d %s", s.Score, s.Grade, s.RubricVersion, c.score, c.grade)
			}
			for i, p := range c.points {
				if s.Rules[i].Points != p {
					t.Errorf("rule %s: %d points, want %d (%s)", s.Rules[i].Rule, s.Rules[i].Points, p, s.Rules[i].Evidence)
				}
			}
		})
	}
}

func TestScoreLeadFactorsAndEvidence(t *testing.T) {
	s := ScoreLead(LeadRequest{"Example Inc", ptr(true), "(415) 555-0100", " SF "},
		LeadFacts{whois("AWS", ptr(1000)), directoryOrg})
	if s.Factors != (LeadFactors{IsTech: true, HasPhone: true, City: "sf"}) {
		t.Errorf("factors = %+v", s.Factors)
	}
	want := []LeadRule{
		{RuleTechCompany, 30, 30, true, "is_tech is true"},
		{RuleDomainData, 15, 15, true, `whois-enrichment v3 row 17: example.com registered to "Example Inc"`},
		{RuleModernInfrastructure, 15, 15, true, "whois-enrichment v3 row 17: example.com infrastructure AWS"},
		{RuleHasPhone, 10, 10, true, "phone has 10 digits"},
		{RuleTopTechCity, 10, 10, true, "sf is a top tech city"},
		{RuleKnownOrganization, 10, 10, true, `smb-directory v2 row 5: "Example, Inc." matches the business name`},
		{RuleDomainAge, 10, 10, true, "whois-enrichment v3 row 17: example.com registered 1000 days ago, more than 730"},
	}
	if fmt.Sprint(s.Rules) != fmt.Sprint(want) {
		t.Errorf("rules\n got %+v\nwant %+v", s.Rules, want)
	}

	s = ScoreLead(LeadRequest{BusinessName: "Nobody", Phone: "12345", CityKey: "Paris"},
		LeadFacts{Domain: whois("GoDaddy", ptr(100))})
	if s.Factors != (LeadFactors{City: "paris"}) {
		t.Errorf("factors = %+v", s.Factors)
	}
	wantEvidence := []string{
		"is_tech not given, taken as false",
		`whois-enrichment v3 row 17: example.com registered to "Example Inc"`,
		`whois-enrichment v3 row 17: example.com infrastructure "GoDaddy" is not a modern cloud provider`,
		"phone has 5 digits, fewer than 7",
		`unknown city_key "paris" scores nothing`,
		"no organization with this name in the SMB directory or the WHOIS data",
		"whois-enrichment v3 row 17: example.com registered 100 days ago, not more than 730",
	}
	for i, e := range wantEvidence {
		if s.Rules[i].Evidence != e {
			t.Errorf("%s evidence %q, want %q", s.Rules[i].Rule, s.Rules[i].Evidence, e)
		}
	}

	s = ScoreLead(LeadRequest{BusinessName: "Nobody", CityKey: "la"}, LeadFacts{})
	for i, e := range []string{"is_tech not given, taken as false", "no domain record for this name",
		"no domain record for this name", "no phone given", "la is a directory city but not a top tech city"} {
		if s.Rules[i].Evidence != e {
			t.Errorf("%s evidence %q, want %q", s.Rules[i].Rule, s.Rules[i].Evidence, e)
		}
	}
}

func TestLeadRulesShape(t *testing.T) {
	s := ScoreLead(LeadRequest{BusinessName: "x"}, LeadFacts{})
	names := []string{RuleTechCompany, RuleDomainData, RuleModernInfrastructure, RuleHasPhone,
		RuleTopTechCity, RuleKnownOrganization, RuleDomainAge}
	if len(s.Rules) != len(names) {
		t.Fatalf("%d rules, want %d", len(s.Rules), len(names))
	}
	sum := 0
	for i, r := range s.Rules {
		if r.Rule != names[i] {
			t.Errorf("rule %d is %s, want %s", i, r.Rule, names[i])
		}
		sum += r.MaxPoints
	}
	if sum != 100 {
		t.Errorf("maxima sum to %d, want 100", sum)
	}
}

// lead builds the request and facts with the seven factors switched by the
// bits of mask, in rule order. Modern infrastructure and domain age only
// count with a domain record (bit 1).
func lead(mask int) (LeadRequest, LeadFacts) {
	on := func(i int) bool { return mask&(1<<i) != 0 }
	r := LeadRequest{BusinessName: "Acme", IsTech: ptr(on(0)), Phone: "55", CityKey: "la"}
	var f LeadFacts
	if on(1) {
		d := &DomainFact{Domain: "acme.com", Infrastructure: "GoDaddy", AgeDays: ptr(30), Dataset: "whois", Version: 1, Row: 1}
		if on(2) {
			d.Infrastructure = "Vercel"
		}
		if on(6) {
			d.AgeDays = ptr(731)
		}
		f.Domain = d
	}
	if on(3) {
		r.Phone = "+1 512 555 0100"
	}
	if on(4) {
		r.CityKey = "austin"
	}
	if on(5) {
		f.KnownOrg = &OrgFact{Dataset: "smb", Version: 1, Row: 2, Name: "Acme LLC"}
	}
	return r, f
}

func TestScoreLeadAllCombinations(t *testing.T) {
	points := []int{30, 15, 15, 10, 10, 10, 10}
	for mask := 0; mask < 1<<7; mask++ {
		s := ScoreLead(lead(mask))
		checkScore(t, s)
		want := 0
		for bit, p := range points {
			effective := bit != 2 && bit != 6 || mask&2 != 0
			if mask&(1<<bit) != 0 && effective {
				want += p
			}
		}
		if s.Score != want {
			t.Errorf("mask %07b: score %d, want %d", mask, s.Score, want)
		}
		for bit := range points {
			if mask&(1<<bit) != 0 {
				continue
			}
			if on := ScoreLead(lead(mask | 1<<bit)); on.Score < s.Score {
				t.Errorf("mask %07b: turning factor %d on lowers %d to %d", mask, bit, s.Score, on.Score)
			}
		}
	}
}

func checkScore(t *testing.T, s LeadScore) {
	t.Helper()
	if s.Score < 0 || s.Score > 100 {
		t.Errorf("score %d out of range", s.Score)
	}
	sum := 0
	for _, r := range s.Rules {
		if r.Points != 0 && r.Points != r.MaxPoints || r.Matched != (r.Points == r.MaxPoints) || r.Evidence == "" {
			t.Errorf("rule %+v inconsistent", r)
		}
		sum += r.Points
	}
	if sum != s.Score || LeadGrade(s.Score) != s.Grade || len(s.Rules) != 7 {
		t.Errorf("score %d grade %s, rules sum %d, %d rules", s.Score, s.Grade, sum, len(s.Rules))
	}
}

func TestScoreLeadQuick(t *testing.T) {
	f := func(name, phone, city, infra string, tech, hasTech, hasDomain, hasAge, hasOrg bool, age int) bool {
		r := LeadRequest{BusinessName: name, Phone: phone, CityKey: city}
		if hasTech {
			r.IsTech = &tech
		}
		var facts LeadFacts
		if hasDomain {
			facts.Domain = &DomainFact{Infrastructure: infra}
			if hasAge {
				facts.Domain.AgeDays = &age
			}
		}
		if hasOrg {
			facts.KnownOrg = &OrgFact{Name: name}
		}
		s := ScoreLead(r, facts)
		checkScore(t, s)
		return s.Score >= 0 && s.Score <= 100
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
		t.Error(err)
	}
}

func TestLeadGradeBands(t *testing.T) {
	cases := map[int]string{100: "A", 80: "A", 79: "B", 60: "B", 59: "C", 40: "C", 39: "D", 20: "D", 19: "F", 0: "F"}
	for score, want := range cases {
		if got := LeadGrade(score); got != want {
			t.Errorf("LeadGrade(%d) = %s, want %s", score, got, want)
		}
	}
}

func TestLeadRequestValidate(t *testing.T) {
	ok := []LeadRequest{
		{BusinessName: "Acme"},
		{BusinessName: "Acme", IsTech: ptr(true), Phone: "+1 (415) 555-0100", CityKey: "sf"},
		{BusinessName: "Acme", Phone: "415.555.0100 ext. 12"},
		{BusinessName: "Acme", Phone: "415-555-0100x12"},
		{BusinessName: "Acme", Phone: "415 555 0100 EXT 9"},
		{BusinessName: "Acme", CityKey: "paris"},
		{BusinessName: strings.Repeat("é", 200)},
	}
	for _, r := range ok {
		if err := r.Validate(); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
	bad := []struct {
		req         LeadRequest
		field, rule string
	}{
		{LeadRequest{}, "business_name", "required"},
		{LeadRequest{BusinessName: "  \t "}, "business_name", "required"},
		{LeadRequest{BusinessName: strings.Repeat("a", 201)}, "business_name", "max_length:200"},
		{LeadRequest{BusinessName: "Acme", Phone: strings.Repeat("5", 41)}, "phone", "max_length:40"},
		{LeadRequest{BusinessName: "Acme", Phone: "call me"}, "phone", "phone"},
		{LeadRequest{BusinessName: "Acme", Phone: "555-0100 ext"}, "phone", "phone"},
		{LeadRequest{BusinessName: "Acme", Phone: "555-0100 x12 x13"}, "phone", "phone"},
		{LeadRequest{BusinessName: "Acme", Phone: "555/0100"}, "phone", "phone"},
		{LeadRequest{BusinessName: "Acme", CityKey: strings.Repeat("c", 41)}, "city_key", "max_length:40"},
	}
	for _, c := range bad {
		err := c.req.Validate()
		var e *kernel.Error
		if !errors.As(err, &e) || e.Kind != kernel.KindInvalid || e.Field != c.field || e.Rule != c.rule {
			t.Errorf("%+v: got %v, want %s %s", c.req, err, c.field, c.rule)
		}
	}
}

func TestNormalizeOrgName(t *testing.T) {
	cases := map[string]string{
		"Acme, Inc.":              "acme",
		"ACME INC":                "acme",
		"  Acme   Widgets  LLC ":  "acme widgets",
		"Acme Holdings Co., Ltd.": "acme holdings",
		"Smith & Jones, L.L.P.":   "smith and jones",
		"Smith and Jones":         "smith and jones",
		"Joe's Pizza Company":     "joes pizza",
		"Joe’s Pizza":             "joes pizza",
		"Müller GmbH":             "müller",
		"Acme Corporation":        "acme",
		"Acme-Tech Corp":          "acme tech",
		"Company":                 "company",
		"Inc. LLC":                "inc",
		"Widgets Incorporated":    "widgets",
		"Co-op Foods":             "co op foods",
		"Lp Gas Plc":              "lp gas",
		"":                        "",
		"!!!":                     "",
	}
	for in, want := range cases {
		if got := NormalizeOrgName(in); got != want {
			t.Errorf("NormalizeOrgName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestModernInfrastructure(t *testing.T) {
	for in, want := range map[string]string{"AWS": "AWS", "Amazon Web Services": "AWS", "cloudflare": "Cloudflare",
		"Google Cloud": "Google Cloud", "gcp": "Google Cloud", "Azure": "Azure", "Vercel": "Vercel"} {
		if got, ok := ModernInfrastructure(in); !ok || got != want {
			t.Errorf("ModernInfrastructure(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{"GoDaddy", "other", "unknown", "", "Hetzner", "Google"} {
		if got, ok := ModernInfrastructure(in); ok {
			t.Errorf("ModernInfrastructure(%q) = %q", in, got)
		}
	}
}

func TestTopTechCities(t *testing.T) {
	for _, c := range TopTechCities() {
		if !ScoreLead(LeadRequest{BusinessName: "x", CityKey: c}, LeadFacts{}).Rules[4].Matched {
			t.Errorf("%s does not score", c)
		}
	}
	TopTechCities()[0] = "la"
	if ScoreLead(LeadRequest{BusinessName: "x", CityKey: "la"}, LeadFacts{}).Score != 0 {
		t.Error("la scores")
	}
}
