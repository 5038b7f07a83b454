package datamarket

import (
	"strings"
	"testing"
)

func smb(t *testing.T) *Dataset {
	t.Helper()
	d, ok := Lookup("smb-directory")
	if !ok {
		t.Fatal("no smb-directory")
	}
	return d
}

func TestHeaderMapping(t *testing.T) {
	d := smb(t)
	m, err := d.Map([]string{"\ufeffBusiness Name", "CITY", "state", "is-tech", "owner", "business_key"})
	if err != nil {
		t.Fatal(err)
	}
	if m.From[d.Col("business_name")] != 0 || m.From[d.Col("city")] != 1 || m.From[d.Col("is_tech")] != 3 {
		t.Fatalf("mapping %v", m.From)
	}
	if strings.Join(m.Ignored, ",") != "business_key,owner" {
		t.Fatalf("ignored %v: unknown columns and hidden derived ones are left out", m.Ignored)
	}
	if _, err := d.Map([]string{"business_name", "state"}); err == nil || !strings.Contains(err.Error(), "city") {
		t.Fatalf("a missing required column: %v", err)
	}
	if _, err := d.Map([]string{"business_name", "city", "state", "City"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("a column given twice: %v", err)
	}
}

func TestRowRules(t *testing.T) {
	d := smb(t)
	m, err := d.Map([]string{"business_name", "category", "city", "state", "is_tech", "naics", "phone", "website", "city_key"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cells       []string
		field, rule string
	}{
		{[]string{"Acme", "", "Seattle", "wa", "yes", "511210", "", "", ""}, "", ""},
		{[]string{"", "", "Seattle", "WA", "", "", "", "", ""}, "business_name", "required"},
		{[]string{"Acme", "", "Seattle", "ZZ", "", "", "", "", ""}, "state", "state"},
		{[]string{"Acme", "", "Seattle", "WA", "maybe", "", "", "", ""}, "is_tech", "boolean"},
		{[]string{"Acme", "", "Seattle", "WA", "", "999999", "", "", ""}, "naics", "naics"},
		{[]string{strings.Repeat("x", 201), "", "Seattle", "WA", "", "", "", "", ""}, "business_name", "max_length"},
		{[]string{"Ac\x00me", "", "Seattle", "WA", "", "", "", "", ""}, "business_name", "no_nul"},
		{[]string{"Ac\xffme", "", "Seattle", "WA", "", "", "", "", ""}, "business_name", "utf8"},
		{[]string{"Acme", "", "Tacoma", "WA", "", "", "", "", ""}, "city_key", "required"},   // not one of the five cities, none given
		{[]string{"Acme", "", "Tacoma", "WA", "", "", "", "", "SEATTLE"}, "", ""},            // given (any case)
		{[]string{"Acme", "", "Tacoma", "WA", "", "", "", "", "boston"}, "city_key", "enum"}, // not a metro
	}
	for i, c := range cases {
		row, rerr := d.Convert(m, c.cells, int64(i+1))
		switch {
		case c.rule == "" && rerr != nil:
			t.Errorf("case %d: %+v", i, rerr)
		case c.rule != "" && (rerr == nil || rerr.Field != c.field || rerr.Rule != c.rule || rerr.Row != int64(i+1)):
			t.Errorf("case %d: %+v, want %s %s", i, rerr, c.field, c.rule)
		case c.rule == "" && i == 0:
			if row[d.Col("state")] != "WA" || row[d.Col("is_tech")] != true || row[d.Col("city_key")] != "seattle" ||
				row[d.Col("industry")] != "saas" || row[d.Col("business_key")] != "acme" || row[d.Col("business_hash")] != KeyHash("acme") {
				t.Errorf("derived values: %v", row)
			}
		}
	}
}

func TestDomainAndRangeRules(t *testing.T) {
	w, _ := Lookup("whois-enrichment")
	m, _ := w.Map([]string{"domain", "infrastructure", "domain_age_days", "country", "evidence"})
	for _, c := range []struct {
		cells       []string
		field, rule string
	}{
		{[]string{"Acme.Example.", "aws", "10", "us", `{"a":1}`}, "", ""},
		{[]string{"192.0.2.1", "", "", "", ""}, "domain", "domain"},
		{[]string{"bad_domain.example", "", "", "", ""}, "domain", "domain"},
		{[]string{"acme.example", "Hetzner", "", "", ""}, "infrastructure", "enum"},
		{[]string{"acme.example", "", "-1", "", ""}, "domain_age_days", "range"},
		{[]string{"acme.example", "", "", "USA", ""}, "country", "country"},
		{[]string{"acme.example", "", "", "", "not json"}, "evidence", "json"},
	} {
		row, rerr := w.Convert(m, c.cells, 1)
		if c.rule == "" {
			if rerr != nil || row[w.Col("domain")] != "acme.example" || row[w.Col("infrastructure")] != "AWS" || row[w.Col("infrastructure")] == nil {
				t.Errorf("%v: %+v %v", c.cells, rerr, row)
			}
			continue
		}
		if rerr == nil || rerr.Field != c.field || rerr.Rule != c.rule {
			t.Errorf("%v: %+v, want %s %s", c.cells, rerr, c.field, c.rule)
		}
	}
	r, _ := Lookup("ip-ranges-aws")
	rm, _ := r.Map([]string{"prefix"})
	if _, rerr := r.Convert(rm, []string{"10.0.0.0/33"}, 1); rerr == nil || rerr.Rule != "cidr" {
		t.Errorf("a bad prefix: %+v", rerr)
	}
}
