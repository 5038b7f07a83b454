package datamarket_test

import (
	"fmt"
	"strings"
	"testing"
)

// A search's total is counted up to 1,000 (total_relation "eq"); beyond,
// it says at least 1,000 ("gte"), and has_more still tells the truth.
func TestSearchTotalIsCountedUpToAThousand(t *testing.T) {
	w := newWorld(t, false)
	var b strings.Builder
	b.WriteString("business_name,category,city,state,is_tech,naics\n")
	for i := 1; i <= 1200; i++ {
		word := "common"
		if i <= 30 {
			word = "rare"
		}
		fmt.Fprintf(&b, "%s shop %d,Cafe,Seattle,WA,false,722515\n", word, i)
	}
	w.published("smb-directory", b.String(), 1)
	page := func(q string) map[string]any {
		t.Helper()
		r := w.get("/smb-directory?" + q)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
		return r.Body
	}
	if p := page("search=rare"); p["total"] != float64(30) || p["total_relation"] != "eq" || p["has_more"] != false {
		t.Fatalf("rare: total %v %v has_more %v", p["total"], p["total_relation"], p["has_more"])
	}
	p := page("search=common&per_page=500&page=2")
	if p["total"] != float64(1000) || p["total_relation"] != "gte" || p["has_more"] != true || len(p["data"].([]any)) != 500 {
		t.Fatalf("common page 2: total %v %v has_more %v", p["total"], p["total_relation"], p["has_more"])
	}
	if p := page("search=common&per_page=500&page=3"); p["has_more"] != false || len(p["data"].([]any)) != 170 {
		t.Fatalf("common page 3: has_more %v, %d rows", p["has_more"], len(p["data"].([]any)))
	}
	if p := page("per_page=10"); p["total"] != float64(1200) || p["total_relation"] != "eq" {
		t.Fatalf("no search: total %v %v", p["total"], p["total_relation"])
	}
}
