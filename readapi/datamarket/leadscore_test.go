package datamarket_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

type leadReply struct {
	Score   int    `json:"score"`
	Grade   string `json:"grade"`
	Factors struct {
		IsTech   bool   `json:"is_tech"`
		HasPhone bool   `json:"has_phone"`
		City     string `json:"city"`
	} `json:"factors"`
	Rules []struct {
		Rule      string `json:"rule"`
		Points    int    `json:"points"`
		MaxPoints int    `json:"max_points"`
		Matched   bool   `json:"matched"`
		Evidence  string `json:"evidence"`
	} `json:"rules"`
	RubricVersion string `json:"rubric_version"`
}

var ruleOrder = []string{"tech_company", "domain_data", "modern_infrastructure", "has_phone", "top_tech_city", "known_organization", "domain_age_over_2_years"}

// score posts a lead and checks every rule is there with evidence and the
// points add up.
func score(t *testing.T, w *world, body map[string]any) leadReply {
	t.Helper()
	r := w.post("/lead-score", body)
	var s leadReply
	if err := json.Unmarshal(r.Raw, &s); err != nil || r.Status != http.StatusOK {
		t.Fatalf("lead score %v: %d %s", body, r.Status, r.Raw)
	}
	var rules []string
	sum := 0
	for _, rule := range s.Rules {
		rules = append(rules, rule.Rule)
		sum += rule.Points
		if strings.TrimSpace(rule.Evidence) == "" || (rule.Matched != (rule.Points == rule.MaxPoints)) || rule.MaxPoints == 0 {
			t.Errorf("%v: rule %+v", body, rule)
		}
	}
	if !reflect.DeepEqual(rules, ruleOrder) || sum != s.Score || s.RubricVersion == "" {
		t.Errorf("%v: rules %v adding to %d, score %d", body, rules, sum, s.Score)
	}
	return s
}

// points maps each rule to its points.
func points(s leadReply) map[string]int {
	out := map[string]int{}
	for _, r := range s.Rules {
		out[r.Rule] = r.Points
	}
	return out
}

func evidence(s leadReply, rule string) string {
	for _, r := range s.Rules {
		if r.Rule == rule {
			return r.Evidence
		}
	}
	return ""
}

func TestLeadScoreWithTheSamples(t *testing.T) {
	w := newWorld(t, false)
	w.importSamples()

	s := score(t, w, map[string]any{"business_name": "Hudson Ledger", "is_tech": true, "phone": "212-555-0105", "city_key": "nyc"})
	if s.Score != 100 || s.Grade != "A" || !s.Factors.IsTech || !s.Factors.HasPhone || s.Factors.City != "nyc" {
		t.Errorf("Hudson Ledger: %+v", s)
	}
	// the evidence cites the rows: whois row 3 (hudsonledger.example), directory row 5
	if e := evidence(s, "domain_data"); !strings.Contains(e, "whois-enrichment v1 row 3") || !strings.Contains(e, "hudsonledger.example") {
		t.Errorf("domain_data evidence %q", e)
	}
	if e := evidence(s, "modern_infrastructure"); !strings.Contains(e, "Cloudflare") {
		t.Errorf("modern_infrastructure evidence %q", e)
	}
	if e := evidence(s, "known_organization"); !strings.Contains(e, "smb-directory v1 row 5") {
		t.Errorf("known_organization evidence %q", e)
	}
	if e := evidence(s, "domain_age_over_2_years"); !strings.Contains(e, "3650") {
		t.Errorf("domain age evidence %q", e)
	}

	none := score(t, w, map[string]any{"business_name": "Nobody Widgets", "city_key": "gotham"})
	if none.Score != 0 || none.Grade != "F" || none.Factors.IsTech || none.Factors.HasPhone {
		t.Errorf("unknown business: %+v", none)
	}

	// by hand: tech 30, domain 15, GoDaddy is not modern 0, phone 10, austin 10, known 10, 150 days 0
	labs := score(t, w, map[string]any{"business_name": "Congress Avenue Labs", "is_tech": true, "phone": "(512) 555-0113", "city_key": "austin"})
	if want := map[string]int{"tech_company": 30, "domain_data": 15, "modern_infrastructure": 0, "has_phone": 10, "top_tech_city": 10,
		"known_organization": 10, "domain_age_over_2_years": 0}; !reflect.DeepEqual(points(labs), want) || labs.Score != 75 || labs.Grade != "B" {
		t.Errorf("Congress Avenue Labs: %d %s %v", labs.Score, labs.Grade, points(labs))
	}
	// tech 30, domain 15, Vercel 15, no phone, la is not a top tech city, known 10, 900 days 10
	shop := score(t, w, map[string]any{"business_name": "sunset shop online, inc.", "is_tech": true, "city_key": "LA"})
	if shop.Score != 80 || shop.Grade != "A" || points(shop)["top_tech_city"] != 0 || points(shop)["has_phone"] != 0 {
		t.Errorf("Sunset Shop Online: %d %s %v", shop.Score, shop.Grade, points(shop))
	}
	// in the directory only: known, no domain
	bakery := score(t, w, map[string]any{"business_name": "Harbor Street Bakery", "is_tech": false, "phone": "415-555-0102", "city_key": "sf"})
	if bakery.Score != 30 || bakery.Grade != "D" || points(bakery)["known_organization"] != 10 {
		t.Errorf("Harbor Street Bakery: %d %s %v", bakery.Score, bakery.Grade, points(bakery))
	}
	// a short phone is no phone
	if s := score(t, w, map[string]any{"business_name": "Nobody", "phone": "555-01"}); s.Factors.HasPhone || s.Score != 0 {
		t.Errorf("short phone: %+v", s)
	}
}

func TestLeadScoreRequests(t *testing.T) {
	w := newWorld(t, false)
	// no data: the request factors alone
	s := score(t, w, map[string]any{"business_name": "Hudson Ledger", "is_tech": true, "phone": "212-555-0105", "city_key": "nyc"})
	if s.Score != 50 || s.Grade != "C" {
		t.Errorf("Hudson Ledger with no data: %d %s %v", s.Score, s.Grade, points(s))
	}
	for _, c := range []struct {
		body  any
		field string
	}{
		{map[string]any{"is_tech": true}, "business_name"},
		{map[string]any{"business_name": "   "}, "business_name"},
		{map[string]any{"business_name": strings.Repeat("x", 201)}, "business_name"},
		{map[string]any{"business_name": "A", "phone": "call me"}, "phone"},
		{map[string]any{"business_name": "A", "city_key": strings.Repeat("c", 41)}, "city_key"},
	} {
		wantError(t, w.post("/lead-score", c.body), http.StatusBadRequest, c.field)
	}
	if r := w.post("/lead-score", map[string]any{"business_name": "A", "is_tech": "yes"}); r.Status != http.StatusBadRequest {
		t.Errorf("is_tech as a string: %d %s", r.Status, r.Raw)
	}
	if r := w.post("/lead-score", map[string]any{"business_name": "A", "extra": 1}); r.Status != http.StatusBadRequest {
		t.Errorf("an unknown member: %d %s", r.Status, r.Raw)
	}
	if r := w.get("/lead-score"); r.Status != http.StatusMethodNotAllowed {
		t.Errorf("GET /lead-score: %d", r.Status)
	}
}
