package datamarket

import (
	"strings"
	"testing"
)

func TestNAICSKnownCodes(t *testing.T) {
	cases := []struct {
		code string
		want NAICSCode
	}{
		{"511210", NAICSCode{"511210", "Software Publishers", 6}},
		{"5112", NAICSCode{"5112", "Software Publishers", 4}},
		{"54", NAICSCode{"54", "Professional, Scientific, and Technical Services", 2}},
		{"518210", NAICSCode{"518210", "Data Processing, Hosting, and Related Services", 6}},
		{"454110", NAICSCode{"454110", "Electronic Shopping and Mail-Order Houses", 6}},
		{"31-33", NAICSCode{"31-33", "Manufacturing", 2}},
		{"31", NAICSCode{"31-33", "Manufacturing", 2}},
		{"33", NAICSCode{"31-33", "Manufacturing", 2}},
		{"45", NAICSCode{"44-45", "Retail Trade", 2}},
		{"49", NAICSCode{"48-49", "Transportation and Warehousing", 2}},
		{"81", NAICSCode{"81", "Other Services (except Public Administration)", 2}},
		{"315220", NAICSCode{"315220", "Men's and Boys' Cut and Sew Apparel Manufacturing", 6}},
	}
	for _, c := range cases {
		got, ok := LookupNAICS(c.code)
		if !ok || got != c.want {
			t.Errorf("LookupNAICS(%q) = %+v, %v; want %+v", c.code, got, ok, c.want)
		}
		if !ValidNAICS(c.code) {
			t.Errorf("ValidNAICS(%q) = false", c.code)
		}
	}
}

func TestNAICSSector(t *testing.T) {
	cases := map[string]string{
		"511210": "51",
		"54":     "54",
		"311111": "31-33",
		"336111": "31-33",
		"454110": "44-45",
		"31-33":  "31-33",
		"621111": "62",
	}
	for code, want := range cases {
		s, ok := NAICSSector(code)
		if !ok || s.Code != want || s.Level != 2 {
			t.Errorf("NAICSSector(%q) = %+v, %v; want %s", code, s, ok, want)
		}
	}
	if _, ok := NAICSSector("999999"); ok {
		t.Error("NAICSSector of an unknown code found a sector")
	}
}

func TestNAICSInvalid(t *testing.T) {
	for _, code := range []string{"", "5", "34", "1234567", "51121a", "999999", "511211", " 511210", "31-", "31-34", "-33", "abc"} {
		if ValidNAICS(code) {
			t.Errorf("ValidNAICS(%q) = true", code)
		}
		if c, ok := LookupNAICS(code); ok {
			t.Errorf("LookupNAICS(%q) = %+v", code, c)
		}
	}
}

func TestNAICSTableClean(t *testing.T) {
	tbl := naicsData()
	// The Census 2017 NAICS has 20 sectors, 99 subsectors, 311 industry
	// groups, 709 NAICS industries and 1,057 national industries.
	levels := map[int]int{}
	for code, c := range tbl.byCode {
		levels[c.Level]++
		if c.Code != code || c.Title == "" {
			t.Errorf("bad entry %q: %+v", code, c)
		}
		if strings.HasSuffix(c.Title, "T") || c.Title != strings.Join(strings.Fields(c.Title), " ") {
			t.Errorf("title of %s not cleaned: %q", code, c.Title)
		}
		if strings.ContainsRune(c.Title, '\u2019') {
			t.Errorf("title of %s has a curly apostrophe: %q", code, c.Title)
		}
	}
	want := map[int]int{2: 20, 3: 99, 4: 311, 5: 709, 6: 1057}
	for l, n := range want {
		if levels[l] != n {
			t.Errorf("level %d has %d codes, want %d", l, levels[l], n)
		}
	}
	// Every code below a sector has its parent in the table.
	for code, c := range tbl.byCode {
		if c.Level > 2 && !ValidNAICS(code[:len(code)-1]) {
			t.Errorf("%s has no parent %s", code, code[:len(code)-1])
		}
	}
}
