package audit_test

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-platform/strata/commands/audit/audittest"
)

// golden is every fixture site's score (scanned over loopback HTTP).
var golden = map[string]int{
	"excellent": 100, "robots blocks training crawlers only": 100, "no llms.txt": 85, "llms.txt without an H1": 92,
	"llms.txt served as HTML": 85, "openapi that does not parse": 68, "openapi missing": 68, "robots disallows everyone": 92,
	"robots answers 500": 90, "robots blocks search agents": 98, "no JSON-LD": 85, "JSON-LD that does not parse": 89,
	"JSON-LD of an unknown type without context": 89, "API answers without credentials": 91, "401 without WWW-Authenticate": 96,
	"403 where 401 is meant": 92, "home page declared as JSON": 83, "soft 404": 96, "stack trace in a 404": 98, "405 without Allow": 99,
}

// Twenty fixture sites on loopback, scanned over HTTP: the excellent one
// scores 100, blocking only training crawlers costs nothing, and each site
// broken in one dimension loses points in that dimension only (or in the
// ones the rubric says overlap, see audittest.Variants), with golden
// totals; the empty site is TestScanFixtureSites'.
func TestFixtureSitesOverHTTP(t *testing.T) {
	variants := audittest.Variants()
	if len(variants) < 20 {
		t.Fatalf("%d fixture sites, want at least 20", len(variants))
	}
	maxima := map[string]int{"llms_txt": 15, "openapi": 15, "robots_ai_permissions": 10, "structured_data": 15,
		"api_authentication": 15, "response_format": 15, "agent_friendly_errors": 15}
	for _, v := range variants {
		t.Run(v.Name, func(t *testing.T) {
			site := audittest.Serve(t, v.Handler())
			sc := scanner(hostOf(site))
			u, err := sc.Target(context.Background(), site.URL)
			if err != nil {
				t.Fatal(err)
			}
			res, _, _, err := sc.Scan(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range res.Checks {
				broken := slices.Contains(v.Broken, c.Name)
				switch {
				case broken && c.Score >= maxima[c.Name]:
					t.Errorf("%s kept its %d points", c.Name, c.Score)
				case !broken && c.Score != maxima[c.Name]:
					for _, f := range c.Findings {
						if f.Earned < f.Points {
							t.Logf("  %s: %s (%d/%d) %s", f.ID, f.Evidence, f.Earned, f.Points, f.Fix)
						}
					}
					t.Errorf("%s scored %d of %d", c.Name, c.Score, maxima[c.Name])
				}
			}
			if want, ok := golden[v.Name]; ok && res.Score != want {
				t.Errorf("score %d, golden %d", res.Score, want)
			} else if !ok {
				t.Logf("score %d (%s)", res.Score, res.Grade)
			}
			if total, repeated := site.Requests(); total > 15 || len(repeated) > 0 {
				t.Errorf("%d requests, repeated %v", total, repeated)
			}
		})
	}
}
