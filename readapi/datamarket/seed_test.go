package datamarket_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/datamarket"
)

type seedReply struct {
	Prospects []json.RawMessage `json:"prospects"`
	Domains   []json.RawMessage `json:"domains"`
	Stats     struct {
		Industry       string  `json:"industry"`
		City           *string `json:"city"`
		ProspectsCount int     `json:"prospects_count"`
		DomainsCount   int     `json:"domains_count"`
	} `json:"stats"`
	Versions map[string]*int `json:"versions"`
}

func seed(t *testing.T, w *world, query string) seedReply {
	t.Helper()
	r := w.get("/seed" + query)
	var s seedReply
	if err := json.Unmarshal(r.Raw, &s); err != nil || r.Status != http.StatusOK {
		t.Fatalf("/seed%s: %d %s", query, r.Status, r.Raw)
	}
	if s.Stats.ProspectsCount != len(s.Prospects) || s.Stats.DomainsCount != len(s.Domains) {
		t.Errorf("/seed%s: counts %d/%d for %d prospects and %d domains", query, s.Stats.ProspectsCount, s.Stats.DomainsCount,
			len(s.Prospects), len(s.Domains))
	}
	return s
}

// sampleDirectory reads the sample directory's names and NAICS codes.
func sampleDirectory(t *testing.T) [][2]string {
	t.Helper()
	for _, s := range datamarket.Samples() {
		if s.Dataset != "smb-directory" {
			continue
		}
		recs, err := csv.NewReader(bytes.NewReader(s.Data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out [][2]string
		for _, r := range recs[1:] {
			out = append(out, [2]string{r[0], r[5]})
		}
		return out
	}
	t.Fatal("no directory sample")
	return nil
}

func TestSeedProspectsAndDomains(t *testing.T) {
	w := newWorld(t, false)
	empty := seed(t, w, "")
	if len(empty.Prospects) != 0 || len(empty.Domains) != 0 || empty.Stats.Industry != "general" {
		t.Errorf("seed with no data: %+v", empty)
	}
	w.importSamples()

	// general by default: every business, and the domains of those organisations
	all := seed(t, w, "")
	if all.Stats.Industry != "general" || all.Stats.City != nil || len(all.Prospects) != 17 {
		t.Errorf("default seed: industry %q city %v, %d prospects", all.Stats.Industry, all.Stats.City, len(all.Prospects))
	}
	if got := names(t, all.Domains, "domain"); !reflect.DeepEqual(got, []string{"bluebird-analytics.example", "missioncloud.example",
		"hudsonledger.example", "sunsetshop.example", "pikeplacedata.example", "congressavenuelabs.example"}) {
		t.Errorf("general domains %v", got)
	}
	if v := all.Versions["smb-directory"]; v == nil || *v != 1 {
		t.Errorf("versions %v", all.Versions)
	}
	if got, want := keysOf(t, all.Prospects[0]), []string{"business_name", "category", "city", "state", "is_tech", "naics", "phone", "website", "city_key", "industry", "_row"}; !reflect.DeepEqual(got, want) {
		t.Errorf("prospect members %v", got)
	}

	// saas: the businesses whose NAICS code falls under the saas prefixes
	saas, _ := datamarket.IndustryByKey("saas")
	var want []string
	for _, b := range sampleDirectory(t) {
		if saas.Matches(b[1]) {
			want = append(want, b[0])
		}
	}
	hand := []string{"Bluebird Analytics", "Mission Cloud Works", "Hudson Ledger", "Pike Place Data", "Congress Avenue Labs"}
	if !reflect.DeepEqual(want, hand) {
		t.Fatalf("the saas prefixes pick %v from the sample, by hand %v", want, hand)
	}
	s := seed(t, w, "?industry=saas")
	if got := names(t, s.Prospects, "business_name"); !reflect.DeepEqual(got, hand) || s.Stats.Industry != "saas" {
		t.Errorf("saas prospects %v, want %v", got, hand)
	}
	for _, p := range s.Prospects {
		if field(t, p, "industry") != "saas" {
			t.Errorf("prospect %s", p)
		}
	}
	if got := names(t, s.Domains, "domain"); !reflect.DeepEqual(got, []string{"bluebird-analytics.example", "missioncloud.example",
		"hudsonledger.example", "pikeplacedata.example", "congressavenuelabs.example"}) {
		t.Errorf("saas domains %v", got)
	}
	if s.Stats.ProspectsCount != 5 || s.Stats.DomainsCount != 5 {
		t.Errorf("saas stats %+v", s.Stats)
	}

	for _, c := range []struct {
		query            string
		prospects, domns []string
	}{
		{"?industry=SaaS&city=SF", []string{"Bluebird Analytics", "Mission Cloud Works"}, []string{"bluebird-analytics.example", "missioncloud.example"}}, // keys are read without regard to case
		{"?industry=saas&city=sf", []string{"Bluebird Analytics", "Mission Cloud Works"}, []string{"bluebird-analytics.example", "missioncloud.example"}},
		{"?industry=ecommerce", []string{"Sunset Shop Online"}, []string{"sunsetshop.example"}},
		{"?industry=finance", []string{"Silver Lake Credit Union", "Puget Sound Lending"}, []string{}},
		{"?industry=healthcare", []string{"Brooklyn Dental Studio", "Echo Park Clinic", "Rainier Family Medicine"}, []string{}},
		{"?industry=realestate&city=austin", []string{"Barton Springs Realty"}, []string{}},
		{"?city=austin", []string{"Congress Avenue Labs", "Barton Springs Realty", "Lone Star Bookkeeping", "Round Rock Robotics"}, []string{"congressavenuelabs.example"}},
		{"?industry=saas&city=la", []string{}, []string{}},
	} {
		s := seed(t, w, c.query)
		if got := names(t, s.Prospects, "business_name"); !reflect.DeepEqual(got, c.prospects) {
			t.Errorf("%s: prospects %v, want %v", c.query, got, c.prospects)
		}
		if got := names(t, s.Domains, "domain"); !reflect.DeepEqual(got, c.domns) {
			t.Errorf("%s: domains %v, want %v", c.query, got, c.domns)
		}
	}

	// the limit: the first 10 businesses, the domains of those
	ten := seed(t, w, "?limit=10")
	if len(ten.Prospects) != 10 || len(ten.Domains) != 4 {
		t.Errorf("limit=10: %d prospects, %d domains; want 10, 4", len(ten.Prospects), len(ten.Domains))
	}
	if s := seed(t, w, "?limit=5000"); len(s.Prospects) != 17 {
		t.Errorf("limit=5000: %d prospects", len(s.Prospects))
	}
	for _, c := range []struct{ query, field string }{
		{"?industry=crypto", "industry"}, {"?limit=9", "limit"}, {"?limit=5001", "limit"}, {"?limit=0", "limit"}, {"?limit=ten", "limit"},
		{"?city=boston", "city"},
	} {
		wantError(t, w.get("/seed"+c.query), http.StatusBadRequest, c.field)
	}
}

func TestIndustriesCountTheDirectory(t *testing.T) {
	w := newWorld(t, false)
	w.importSamples()
	var body struct {
		Industries []struct {
			Key        string `json:"key"`
			Businesses *int   `json:"businesses"`
		} `json:"industries"`
	}
	if err := json.Unmarshal(w.get("/industries").Raw, &body); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, in := range body.Industries {
		if in.Businesses != nil {
			got[in.Key] = *in.Businesses
		}
	}
	want := map[string]int{"saas": 5, "ecommerce": 1, "finance": 2, "healthcare": 3, "realestate": 2, "general": 17}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("industries %v, want %v", got, want)
	}
}
