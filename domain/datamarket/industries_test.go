package datamarket

import (
	"slices"
	"testing"
)

func TestIndustriesOrder(t *testing.T) {
	var keys []string
	for _, in := range Industries() {
		keys = append(keys, in.Key)
		if in.Name == "" || in.Description == "" {
			t.Errorf("%s lacks a name or description", in.Key)
		}
	}
	want := []string{"saas", "ecommerce", "finance", "healthcare", "realestate", "general"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys = %v, want %v", keys, want)
	}
}

func TestIndustryPrefixesInTable(t *testing.T) {
	for _, in := range Industries() {
		if in.Key == "general" {
			if len(in.NAICS) != 0 {
				t.Errorf("general has prefixes %v", in.NAICS)
			}
			continue
		}
		if len(in.NAICS) == 0 {
			t.Errorf("%s has no prefixes", in.Key)
		}
		for _, p := range in.NAICS {
			c, ok := LookupNAICS(p)
			if !ok || c.Code != p {
				t.Errorf("%s prefix %s is not a code of the table", in.Key, p)
			}
			if !in.Matches(p) {
				t.Errorf("%s does not match its own prefix %s", in.Key, p)
			}
		}
	}
}

func TestIndustryMatches(t *testing.T) {
	cases := []struct {
		key, naics string
		want       bool
	}{
		{"saas", "511210", true},
		{"saas", "51121", true},
		{"saas", "518210", true},
		{"saas", "541511", true},
		{"saas", "541512", true},
		{"saas", "541513", false},
		{"saas", "511110", false}, // newspaper publishers
		{"saas", "5112", true},
		{"saas", "51", false},
		{"ecommerce", "454110", true},
		{"ecommerce", "454210", false}, // vending machine operators
		{"ecommerce", "44-45", false},
		{"finance", "522110", true},
		{"finance", "524126", true},
		{"finance", "52", true},
		{"finance", "531110", false},
		{"healthcare", "621111", true},
		{"healthcare", "622110", true},
		{"healthcare", "623110", true},
		{"healthcare", "624410", false}, // child day care
		{"realestate", "531210", true},
		{"realestate", "532111", false}, // car rental
		{"saas", "511299", false},       // not in the table
		{"finance", "529999", false},    // not in the table
		{"finance", "", false},
		{"general", "", true},
		{"general", "999999", true},
		{"general", "311111", true},
	}
	for _, c := range cases {
		in, ok := IndustryByKey(c.key)
		if !ok {
			t.Fatalf("no industry %q", c.key)
		}
		if got := in.Matches(c.naics); got != c.want {
			t.Errorf("%s.Matches(%q) = %v, want %v", c.key, c.naics, got, c.want)
		}
	}
}

func TestIndustryByKey(t *testing.T) {
	if in, ok := IndustryByKey(" SaaS "); !ok || in.Key != "saas" {
		t.Errorf("IndustryByKey(\" SaaS \") = %+v, %v", in, ok)
	}
	for _, k := range []string{"", "tech", "real_estate", "fintech"} {
		if _, ok := IndustryByKey(k); ok {
			t.Errorf("IndustryByKey(%q) found one", k)
		}
	}
	a := Industries()
	a[0].NAICS[0] = "99"
	if Industries()[0].NAICS[0] != "5112" {
		t.Error("Industries shares its prefixes with callers")
	}
}
