package captable_test

import (
	"math"
	"net/http"
	"testing"
)

// cooleyCompany is Cooley's worked example of SAFE conversion methods as a
// company: 1,000,000 common held by the founder, and one $1M post-money
// SAFE with a 30% discount and no cap held by "Ada Angel". It returns the
// founder's, the angel's and a venture investor's stakeholder ids.
func cooleyCompany(t *testing.T, c *client) (founder, angel, vc string) {
	t.Helper()
	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 10000000}).body
	f := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Founder", "type": "FOUNDER"}).body
	a := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Ada Angel", "type": "INVESTOR"}).body
	v := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "VC", "type": "INVESTOR"}).body
	c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": f["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 1000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"})
	c.must(http.StatusCreated, "POST", "/safes", map[string]any{"investorId": a["id"], "investmentAmount": 1000000,
		"discountRate": 0.3, "safeType": "POST_MONEY", "issueDate": "2024-06-01"})
	return str(f["id"]), str(a["id"]), str(v["id"])
}

// holderRow returns the dilution result's holder row with the given id.
func holderRow(t *testing.T, res map[string]any, id string) map[string]any {
	t.Helper()
	for _, h := range res["holders"].([]any) {
		if m := h.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("no holder %s in %s", id, mustJSON(res))
	return nil
}

// TestPricingConventionsCooley: POST /cap-table/dilution prices Cooley's
// example as Cooley does (PRE_MONEY $8.00 and founders 70.00%;
// PERCENT_OWNERSHIP $6.571429 and 65.71%, the default; DOLLARS_INVESTED
// 53/7 = $7.571429 and 53/77 = 68.83%), and names the SAFE investor.
func TestPricingConventionsCooley(t *testing.T) {
	w := start(t)
	c := w.register("Co", "co@cooley.test", "Cooley Co")
	founder, angel, _ := cooleyCompany(t, c)
	for _, tc := range []struct {
		convention, echoed string
		price, safePrice   float64
		founders           float64 // to 4 places
	}{
		{"", "PERCENT_OWNERSHIP", 6.571429, 4.6, 0.6571},
		{"PERCENT_OWNERSHIP", "PERCENT_OWNERSHIP", 6.571429, 4.6, 0.6571},
		{"PRE_MONEY", "PRE_MONEY", 8, 5.6, 0.7},
		{"DOLLARS_INVESTED", "DOLLARS_INVESTED", 7.571429, 5.3, 0.6883},
	} {
		t.Run(tc.echoed+"/"+tc.convention, func(t *testing.T) {
			body := map[string]any{"roundSize": 2000000, "preMoneyValuation": 8000000, "newShareClassName": "Series A"}
			if tc.convention != "" {
				body["pricingConvention"] = tc.convention
			}
			b := c.must(http.StatusOK, "POST", "/cap-table/dilution", body).body
			res := b["result"].(map[string]any)
			conv := res["conversions"].([]any)[0].(map[string]any)
			if b["pricingConvention"] != tc.echoed || res["priceRounded"] != tc.price || math.Abs(conv["price"].(float64)-tc.safePrice) > 1e-9 {
				t.Fatalf("dilution %s", mustJSON(b))
			}
			f := holderRow(t, res, founder)
			if got := math.Round(f["ownershipAfter"].(float64)*1e4) / 1e4; got != tc.founders || f["stakeholderId"] != founder {
				t.Fatalf("founder row %s, want ownership %v", mustJSON(f), tc.founders)
			}
			a := holderRow(t, res, angel)
			if a["name"] != "Ada Angel" || a["stakeholderId"] != angel {
				t.Fatalf("SAFE investor row %s: want the stakeholder's name and id", mustJSON(a))
			}
			if nm := holderRow(t, res, "new-money"); nm["stakeholderId"] != nil || nm["name"] != "Series A" {
				t.Fatalf("new money row %s", mustJSON(nm))
			}
		})
	}
}

// TestPricingConventionCommitAndWaterfall: the waterfall's round and the
// round commit price PRE_MONEY as the dilution model does: $8.00, the SAFE
// converting at $5.60 (178,571 shares) beside 250,000 new-money shares.
func TestPricingConventionCommitAndWaterfall(t *testing.T) {
	w := start(t)
	c := w.register("Co", "co@cooley-commit.test", "Cooley Commit")
	_, angel, vc := cooleyCompany(t, c)
	round := map[string]any{"roundSize": 2000000, "preMoneyValuation": 8000000, "newShareClassName": "Series A", "pricingConvention": "PRE_MONEY"}
	wf := c.must(http.StatusOK, "POST", "/cap-table/waterfall", map[string]any{"exitValue": 20e6, "includeBreakpoints": false, "round": round}).body
	wr := wf["round"].(map[string]any)
	if wr["price"] != float64(8) || wr["conversions"].([]any)[0].(map[string]any)["price"] != 5.6 {
		t.Fatalf("waterfall round %s", mustJSON(wr))
	}
	if a := holderRow(t, wr["model"].(map[string]any), angel); a["name"] != "Ada Angel" {
		t.Fatalf("waterfall round's SAFE holder %s", mustJSON(a))
	}
	commit := map[string]any{"closingDate": "2025-06-30", "pricePerShare": 8,
		"investors": []map[string]any{{"stakeholderId": vc, "amount": 2000000}}}
	for k, v := range round {
		commit[k] = v
	}
	b := c.must(http.StatusCreated, "POST", "/cap-table/dilution/commit", commit).body
	cv := b["conversions"].([]any)[0].(map[string]any)
	if b["price"] != float64(8) || cv["price"] != 5.6 || cv["shares"] != float64(178571) {
		t.Fatalf("commit %s", mustJSON(b))
	}
	ct := c.must(http.StatusOK, "GET", "/cap-table", nil).body
	if ct["fullyDilutedShares"] != float64(1000000+250000+178571) {
		t.Fatalf("cap table after the round %s", mustJSON(ct))
	}
}
