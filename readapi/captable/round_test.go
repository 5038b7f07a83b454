package captable_test

import (
	"maps"
	"net/http"
	"testing"
)

// TestDilutionCommit: a modeled round becomes events on its closing date;
// the cap table before that date is unchanged, after it shows the series.
func TestDilutionCommit(t *testing.T) {
	w := start(t)
	c := w.register("Co", "co@c.test", "C")
	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 10000000}).body
	f := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Founder", "type": "FOUNDER"}).body
	v := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "VC", "type": "INVESTOR"}).body
	c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": f["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 10000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"})
	round := map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000, "newShareClassName": "Series A",
		"closingDate": "2025-06-30", "investors": []map[string]any{{"stakeholderId": v["id"], "amount": 5000000}}}

	// A waterfall after the modeled round, before committing it: the new
	// series takes its 1x preference at a $10M exit (3,333,333 shares at
	// $1.50: $4,999,999.50). Nothing is written.
	wf := c.must(http.StatusOK, "POST", "/cap-table/waterfall", map[string]any{"exitValue": 10e6, "includeBreakpoints": false,
		"round": map[string]any{"roundSize": 5000000, "preMoneyValuation": 15000000, "newShareClassName": "Series A"}}).body
	if classTotal(t, wf, "Series A") != 4999999.5 || classTotal(t, wf, "Common") != 5000000.5 || wf["round"] == nil {
		t.Fatalf("waterfall after a modeled round %s", mustJSON(wf))
	}
	field(t, c.do("POST", "/cap-table/waterfall", map[string]any{"exitValue": 1e6, "round": map[string]any{"roundSize": 5000000,
		"preMoneyValuation": 15000000, "newShareClassName": "Common"}}), 409, "CONFLICT", "round.newShareClassName")

	// Refusals name the field and write nothing.
	stale := maps.Clone(round)
	stale["pricePerShare"] = 2
	field(t, c.do("POST", "/cap-table/dilution/commit", stale), 409, "CONFLICT", "pricePerShare")
	short := maps.Clone(round)
	short["investors"] = []map[string]any{{"stakeholderId": v["id"], "amount": 1000}}
	field(t, c.do("POST", "/cap-table/dilution/commit", short), 400, "VALIDATION_ERROR", "investors")
	ag := c.must(http.StatusCreated, "POST", "/agents/onboard", map[string]any{"agentName": "reader", "role": "viewer"}).body
	viewer := &client{w: w, token: str(ag["apiKey"])}
	field(t, viewer.do("POST", "/cap-table/dilution/commit", round), 403, "FORBIDDEN", "")

	round["pricePerShare"] = 1.5
	b := c.must(http.StatusCreated, "POST", "/cap-table/dilution/commit", round).body
	if b["committed"] != true || b["price"] != 1.5 || len(b["grants"].([]any)) != 1 || b["shareClassId"] == "" {
		t.Fatalf("commit %s", mustJSON(b))
	}
	ct := c.must(http.StatusOK, "GET", "/cap-table", nil).body
	if ct["fullyDilutedShares"] != float64(13333333) || ct["totalAuthorizedShares"] != float64(13333333) {
		t.Fatalf("cap table after the round %s", mustJSON(ct))
	}
	before := c.must(http.StatusOK, "GET", "/cap-table?asOfDate=2025-06-29", nil).body
	if before["fullyDilutedShares"] != float64(10000000) || before["totalAuthorizedShares"] != float64(10000000) {
		t.Fatalf("cap table the day before closing %s", mustJSON(before))
	}
	on := c.must(http.StatusOK, "GET", "/cap-table?asOfDate=2025-06-30", nil).body
	if on["fullyDilutedShares"] != float64(13333333) {
		t.Fatalf("cap table on closing %s", mustJSON(on))
	}
	cls := c.must(http.StatusOK, "GET", "/share-classes/"+str(b["shareClassId"]), nil).body
	if cls["type"] != "PREFERRED" || cls["totalShares"] != float64(3333333) || cls["pricePerShare"] != 1.5 {
		t.Fatalf("series A class %s", mustJSON(cls))
	}
	// The same round again: the class name is taken.
	delete(round, "pricePerShare")
	field(t, c.do("POST", "/cap-table/dilution/commit", round), 409, "CONFLICT", "newShareClassName")
}
