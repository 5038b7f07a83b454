package captable_test

import (
	"net/http"
	"testing"
)

// seed gives a company common and preferred holders for the modelling
// endpoints: 8,000,000 common and 2,000,000 Series A at $2.50.
func seed(t *testing.T, c *client, preferred map[string]any) {
	t.Helper()
	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 50000000}).body
	class := map[string]any{"name": "Series A", "type": "PREFERRED", "totalShares": 2000000, "pricePerShare": "2.5"}
	for k, v := range preferred {
		class[k] = v
	}
	a := c.must(http.StatusCreated, "POST", "/share-classes", class).body
	f := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Founder", "type": "FOUNDER"}).body
	v := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "VC", "type": "INVESTOR"}).body
	for _, g := range []map[string]any{
		{"stakeholderId": f["id"], "shareClassId": common["id"], "quantity": 8000000},
		{"stakeholderId": v["id"], "shareClassId": a["id"], "quantity": 2000000},
	} {
		g["grantType"], g["vestingSchedule"], g["grantDate"] = "RESTRICTED_STOCK", "IMMEDIATE", "2024-01-01"
		c.must(http.StatusCreated, "POST", "/equity-grants", g)
	}
}

func classTotal(t *testing.T, body map[string]any, name string) any {
	t.Helper()
	for _, c := range body["classes"].([]any) {
		if m := c.(map[string]any); m["name"] == name {
			return m["total"]
		}
	}
	t.Fatalf("no class %s in %s", name, mustJSON(body))
	return nil
}

func TestWaterfallExamples(t *testing.T) {
	w := start(t)
	c := w.register("Wu", "wu@w.test", "W")
	seed(t, c, map[string]any{"liquidationPreference": 1})
	for exit, want := range map[float64][2]float64{10e6: {5e6, 5e6}, 25e6: {5e6, 20e6}, 50e6: {10e6, 40e6}} {
		b := c.must(http.StatusOK, "POST", "/cap-table/waterfall", map[string]any{"exitValue": exit, "maxExitValue": 100e6}).body
		if classTotal(t, b, "Series A") != want[0] || classTotal(t, b, "Common") != want[1] {
			t.Errorf("exit %v: %s", exit, mustJSON(b))
		}
		if exit == 10e6 {
			found := map[float64]bool{}
			for _, bp := range b["breakpoints"].([]any) {
				found[bp.(map[string]any)["exitValue"].(float64)] = true
			}
			if !found[5e6] || !found[25e6] {
				t.Errorf("breakpoints %v", b["breakpoints"])
			}
		}
	}
	p := w.register("Pa", "pa@w.test", "P")
	seed(t, p, map[string]any{"liquidationPreference": 1, "participating": true, "participationCap": 3})
	for _, exit := range []float64{55e6, 60e6, 75e6} {
		b := p.must(http.StatusOK, "POST", "/cap-table/waterfall", map[string]any{"exitValue": exit, "includeBreakpoints": false}).body
		if classTotal(t, b, "Series A") != float64(15e6) {
			t.Errorf("capped participating at %v: %s", exit, mustJSON(b))
		}
	}
	field(t, p.do("POST", "/cap-table/waterfall", map[string]any{"exitValue": -1}), 400, "VALIDATION_ERROR", "exitValue")
}

func TestDilutionExample(t *testing.T) {
	w := start(t)
	c := w.register("Di", "di@d.test", "D")
	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 10000000}).body
	f := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Founder", "type": "FOUNDER"}).body
	c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": f["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 10000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"})
	b := c.must(http.StatusOK, "POST", "/cap-table/dilution", map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000,
		"newShareClassName": "Series A"}).body
	res := b["result"].(map[string]any)
	if res["price"] != 1.5 || res["newShares"] != float64(3333333) || res["newClassOwnership"] != 0.25 {
		t.Fatalf("dilution %s", mustJSON(b))
	}
	b = c.must(http.StatusOK, "POST", "/cap-table/dilution", map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000,
		"newShareClassName": "Series A", "optionPoolTargetPercent": 10}).body
	res = b["result"].(map[string]any)
	if res["price"] != 1.3 || res["poolIncrease"] != float64(1538461) {
		t.Fatalf("dilution with pool %s", mustJSON(b))
	}
	// Modelling never writes: the cap table is unchanged.
	ct := c.must(http.StatusOK, "GET", "/cap-table", nil).body
	if ct["fullyDilutedShares"] != float64(10000000) {
		t.Fatalf("cap table after modelling %s", mustJSON(ct))
	}
	field(t, c.do("POST", "/cap-table/dilution", map[string]any{"roundSize": 0, "preMoneyValuation": 15000000}), 400, "VALIDATION_ERROR", "roundSize")
	field(t, c.do("POST", "/cap-table/dilution", map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000,
		"pricingConvention": "POST_MONEY"}), 400, "VALIDATION_ERROR", "pricingConvention")
	empty := w.register("Em", "em@d.test", "Empty")
	field(t, empty.do("POST", "/cap-table/dilution", map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000}), 409, "CONFLICT", "")
}
