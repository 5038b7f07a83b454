package captable_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestCapTableFlow builds a small company over HTTP and reads its cap
// table live and as of past dates, then checks the vesting example.
func TestCapTableFlow(t *testing.T) {
	w := start(t)
	c := w.register("Ada", "ada@acme.test", "Acme")

	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 20000000}).body
	pool := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "2024 Plan", "type": "OPTIONS_POOL", "totalShares": 1000000}).body
	seriesA := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Series A", "type": "PREFERRED",
		"totalShares": 2000000, "pricePerShare": "2.50", "liquidationPreference": 1}).body
	if str(seriesA["antiDilution"]) != "NONE" || seriesA["conversionRatio"] != float64(1) || seriesA["seniority"] != float64(1) {
		t.Fatalf("defaults: %v", seriesA)
	}
	founder := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Ada", "email": "ada@acme.test", "type": "FOUNDER", "title": "CEO"}).body
	employee := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Eve", "email": "eve@acme.test", "type": "EMPLOYEE"}).body
	investor := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Fund I", "email": "fund@vc.test", "type": "INVESTOR"}).body
	if str(founder["companyId"]) == "" || str(founder["createdAt"]) == "" {
		t.Fatalf("stakeholder body %v", founder)
	}
	// 409 on a duplicate email in the company, whatever its case.
	field(t, c.do("POST", "/stakeholders", map[string]any{"name": "Ada 2", "email": "ADA@acme.test", "type": "FOUNDER"}), 409, "CONFLICT", "email")

	c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": founder["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 8000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"})
	opt := c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": employee["id"], "shareClassId": pool["id"],
		"grantType": "OPTION", "quantity": 4800, "strikePrice": "0.10", "vestingSchedule": "4_YEAR_1_YEAR_CLIFF", "grantDate": "2024-01-15"}).body
	if str(opt["status"]) != "PENDING" || str(opt["grantNumber"]) != "G-0002" || str(opt["fullyVestedDate"]) != "2028-01-15" {
		t.Fatalf("grant body %v", opt)
	}
	c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": investor["id"], "shareClassId": seriesA["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 2000000, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-06-01"})

	// The vesting endpoint with asOf, every installment, cumulative counts.
	gid := str(opt["id"])
	for day, want := range map[string]float64{"2025-01-14": 0, "2025-01-15": 1200, "2025-02-15": 1300, "2028-01-15": 4800} {
		v := c.must(http.StatusOK, "GET", "/equity-grants/"+gid+"/vesting?asOf="+day, nil).body
		if v["vestedQuantity"] != want {
			t.Errorf("vested on %s = %v, want %v", day, v["vestedQuantity"], want)
		}
		if n := len(v["installments"].([]any)); n != 37 {
			t.Errorf("%d installments", n)
		}
	}
	// Terminate on 2025-07-20: 1,800 vested, 3,000 back to the pool, window to 2025-10-18.
	c.must(http.StatusOK, "POST", "/equity-grants/"+gid+"/accept", map[string]any{"acceptedOn": "2024-01-20"})
	term := c.must(http.StatusOK, "POST", "/equity-grants/"+gid+"/terminate", map[string]any{"terminationDate": "2025-07-20"}).body
	if term["status"] != "TERMINATED" || term["vestedQuantity"] != float64(1800) || term["forfeitedQuantity"] != float64(3000) ||
		term["exerciseWindowEndsOn"] != "2025-10-18" {
		t.Fatalf("terminated grant %v", term)
	}
	pl := c.must(http.StatusOK, "GET", "/share-classes/"+str(pool["id"]), nil).body
	if pl["availableShares"] != float64(1000000-1800) {
		t.Fatalf("pool after termination %v", pl)
	}

	// Live: the window has long closed (today is after 2025-10-18), so the
	// 1,800 lapsed even before the scheduler records it.
	live := c.must(http.StatusOK, "GET", "/cap-table", nil).body
	if live["source"] != "projection" || live["fullyDilutedShares"] != float64(8000000+2000000+1000000) ||
		live["totalIssuedShares"] != float64(10000000) || live["totalAuthorizedShares"] != float64(22000000) {
		t.Fatalf("live cap table %s", mustJSON(live))
	}
	top := live["topStakeholders"].([]any)
	if len(top) != 2 || top[0].(map[string]any)["name"] != "Ada" || top[0].(map[string]any)["ownership"] != 8.0/11 {
		// 8/11 is not a finite decimal: the API writes 12 places.
		if top[0].(map[string]any)["ownership"] != 0.727272727273 {
			t.Fatalf("top stakeholders %v", top)
		}
	}
	// As of 2025-08-01: the employee's 1,800 vested options are outstanding.
	mid := c.must(http.StatusOK, "GET", "/cap-table?asOfDate=2025-08-01", nil).body
	if mid["source"] != "replay" || mid["fullyDilutedShares"] != float64(11000000) || mid["outstandingAwards"] != float64(1800) {
		t.Fatalf("as of 2025-08-01 %s", mustJSON(mid))
	}
	// As of 2024-03-01, between the founder's grant and the investor's.
	early := c.must(http.StatusOK, "GET", "/cap-table?asOfDate=2024-03-01", nil).body
	if early["totalIssuedShares"] != float64(8000000) || early["outstandingAwards"] != float64(4800) {
		t.Fatalf("as of 2024-03-01 %s", mustJSON(early))
	}
	// knownAt before the company was recorded: it did not exist then.
	field(t, c.do("GET", "/cap-table?knownAt="+time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), nil), 404, "NOT_FOUND", "")
	// The sweep records the expiry; the live cap table does not change.
	if n, err := w.svc.ExpireDue(context.Background()); err != nil || n != 1 {
		t.Fatalf("expiry sweep: %d %v", n, err)
	}
	exp := c.must(http.StatusOK, "GET", "/equity-grants/"+gid, nil).body
	if exp["status"] != "EXPIRED" || exp["expiredQuantity"] != float64(1800) {
		t.Fatalf("after the sweep %v", exp)
	}
	if again := c.must(http.StatusOK, "GET", "/cap-table", nil).body; again["fullyDilutedShares"] != live["fullyDilutedShares"] {
		t.Fatalf("cap table changed by the recorded expiry: %v", again)
	}
	if n, _ := w.svc.ExpireDue(context.Background()); n != 0 {
		t.Fatalf("second sweep expired %d", n)
	}
	fd := c.must(http.StatusOK, "GET", "/cap-table/fully-diluted", nil).body
	if len(fd["holders"].([]any)) != 2 {
		t.Fatalf("fully diluted %s", mustJSON(fd))
	}

	// Lists page with the envelope.
	list := c.must(http.StatusOK, "GET", "/stakeholders?page=1&limit=2", nil).body
	pg := list["pagination"].(map[string]any)
	if len(list["data"].([]any)) != 2 || pg["total"] != float64(3) || pg["hasMore"] != true || pg["limit"] != float64(2) {
		t.Fatalf("list %s", mustJSON(list))
	}
	field(t, c.do("GET", "/stakeholders?limit=500", nil), 400, "VALIDATION_ERROR", "limit")
}

func TestRefusalsNameFieldAndRule(t *testing.T) {
	w := start(t)
	c := w.register("Bo", "bo@acme.test", "Bo Inc")
	pool := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Plan", "type": "OPTIONS_POOL", "totalShares": 100}).body
	c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 1000})
	e := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "E", "type": "EMPLOYEE"}).body
	grant := func(edit map[string]any) map[string]any {
		g := map[string]any{"stakeholderId": e["id"], "shareClassId": pool["id"], "grantType": "OPTION", "quantity": 10,
			"strikePrice": 1, "vestingSchedule": "IMMEDIATE", "grantDate": "2025-01-01"}
		for k, v := range edit {
			g[k] = v
		}
		return g
	}
	field(t, c.do("POST", "/equity-grants", grant(map[string]any{"quantity": 101})), 400, "VALIDATION_ERROR", "quantity")
	field(t, c.do("POST", "/equity-grants", grant(map[string]any{"quantity": -1})), 400, "VALIDATION_ERROR", "quantity")
	field(t, c.do("POST", "/equity-grants", grant(map[string]any{"vestingStartDate": "2024-12-01"})), 400, "VALIDATION_ERROR", "vestingStartDate")
	field(t, c.do("POST", "/equity-grants", grant(map[string]any{"grantDate": "01/02/2025"})), 400, "VALIDATION_ERROR", "grantDate")
	field(t, c.do("POST", "/equity-grants", grant(map[string]any{"quantity": "ten"})), 400, "VALIDATION_ERROR", "quantity")
	field(t, c.do("POST", "/share-classes", map[string]any{"name": "X", "type": "STOCK", "totalShares": 5}), 400, "VALIDATION_ERROR", "type")
	field(t, c.do("POST", "/safes", map[string]any{"investorId": e["id"], "investmentAmount": 100, "safeType": "POST_MONEY",
		"discountRate": 20, "issueDate": "2025-01-01"}), 400, "VALIDATION_ERROR", "discountRate")
	field(t, c.do("GET", "/equity-grants/nope", nil), 404, "NOT_FOUND", "")
	anon := &client{w: w}
	field(t, anon.do("GET", "/cap-table", nil), 401, "UNAUTHORIZED", "")
	field(t, (&client{w: w, token: "not-a-token"}).do("GET", "/cap-table", nil), 401, "UNAUTHORIZED", "")
}

func TestTenancyRolesAndAgents(t *testing.T) {
	w := start(t)
	a := w.register("Ann", "ann@a.test", "A Corp")
	b := w.register("Ben", "ben@b.test", "B Corp")
	sa := a.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "S", "type": "FOUNDER"}).body
	// Another company's resource, and another company by id, are 404.
	field(t, b.do("GET", "/stakeholders/"+str(sa["id"]), nil), 404, "NOT_FOUND", "")
	me := a.must(http.StatusOK, "GET", "/auth/me", nil).body
	b.company = str(me["companyId"])
	field(t, b.do("GET", "/cap-table", nil), 404, "NOT_FOUND", "")
	b.company = ""

	// An owner onboards a viewer agent: it reads, it may not write (403).
	ag := a.must(http.StatusCreated, "POST", "/agents/onboard", map[string]any{"agentName": "reporter", "role": "viewer"}).body
	viewer := &client{w: w, token: str(ag["apiKey"])}
	viewer.must(http.StatusOK, "GET", "/stakeholders", nil)
	field(t, viewer.do("POST", "/stakeholders", map[string]any{"name": "T", "type": "FOUNDER"}), 403, "FORBIDDEN", "")
	// Zero-friction onboarding: a new company owned by the agent, its key
	// limited to it.
	z := (&client{w: w}).must(http.StatusCreated, "POST", "/agents/onboard", map[string]any{"agentName": "founder-bot", "companyName": "Bot Co"}).body
	bot := &client{w: w, token: str(z["apiKey"])}
	bot.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Bot founder", "type": "FOUNDER"})
	bot.company = str(me["companyId"])
	field(t, bot.do("GET", "/stakeholders", nil), 404, "NOT_FOUND", "")
}

func TestTokensAndRateLimits(t *testing.T) {
	w := start(t)
	anon := &client{w: w}
	reg := anon.must(http.StatusCreated, "POST", "/auth/register", map[string]any{"name": "Cy", "email": "cy@c.test",
		"password": "correct-horse-9", "companyName": "C"}).body
	field(t, anon.do("POST", "/auth/register", map[string]any{"name": "Cy", "email": "CY@c.test", "password": "correct-horse-9",
		"companyName": "C2"}), 409, "CONFLICT", "email")
	field(t, anon.do("POST", "/auth/login", map[string]any{"email": "cy@c.test", "password": "wrong-password"}), 401, "UNAUTHORIZED", "")
	login := anon.must(http.StatusOK, "POST", "/auth/login", map[string]any{"email": "cy@c.test", "password": "correct-horse-9"}).body
	// Refresh rotates; the spent token then fails and ends the session.
	r1 := anon.must(http.StatusOK, "POST", "/auth/refresh", map[string]any{"refreshToken": login["refreshToken"]}).body
	field(t, anon.do("POST", "/auth/refresh", map[string]any{"refreshToken": login["refreshToken"]}), 401, "UNAUTHORIZED", "")
	field(t, anon.do("POST", "/auth/refresh", map[string]any{"refreshToken": r1["refreshToken"]}), 401, "UNAUTHORIZED", "")
	// The other session (from register) still refreshes.
	anon.must(http.StatusOK, "POST", "/auth/refresh", map[string]any{"refreshToken": reg["refreshToken"]})

	// Free plan: 10 calls a minute, with the headers on every response.
	c := &client{w: w, token: str(reg["accessToken"])}
	for i := 1; i <= 10; i++ {
		r := c.must(http.StatusOK, "GET", "/auth/me", nil)
		if r.header.Get("X-RateLimit-Limit") != "10" || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(10-i) ||
			r.header.Get("X-RateLimit-Reset") == "" {
			t.Fatalf("call %d headers %v", i, r.header)
		}
	}
	over := c.do("GET", "/auth/me", nil)
	field(t, over, 429, "RATE_LIMITED", "")
	if over.header.Get("Retry-After") == "" || over.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("429 headers %v", over.header)
	}
}

func mustJSON(v any) string {
	b, _ := jsonMarshal(v)
	return string(b)
}

func TestOptionalBodiesAreStillChecked(t *testing.T) {
	w := start(t)
	c := w.register("Ob", "ob@o.test", "O")
	pool := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Plan", "type": "OPTIONS_POOL", "totalShares": 100}).body
	c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 100})
	e := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "E", "type": "EMPLOYEE"}).body
	g := c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": e["id"], "shareClassId": pool["id"],
		"grantType": "RSU", "quantity": 10, "vestingSchedule": "IMMEDIATE", "grantDate": "2025-01-01"}).body
	second := c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": e["id"], "shareClassId": pool["id"],
		"grantType": "RSU", "quantity": 5, "vestingSchedule": "IMMEDIATE", "grantDate": "2025-01-02"}).body
	// Changing a pending grant's terms keeps its place, its creation time, and the pool's totals right.
	upd := c.must(http.StatusOK, "PUT", "/equity-grants/"+str(g["id"]), map[string]any{"quantity": 20}).body
	list := c.must(http.StatusOK, "GET", "/equity-grants", nil).body["data"].([]any)
	if upd["quantity"] != float64(20) || upd["createdAt"] != g["createdAt"] || list[0].(map[string]any)["id"] != g["id"] ||
		list[1].(map[string]any)["id"] != second["id"] {
		t.Fatalf("after PUT: %v, list %v", upd, list)
	}
	if p := c.must(http.StatusOK, "GET", "/share-classes/"+str(pool["id"]), nil).body; p["availableShares"] != float64(75) {
		t.Fatalf("pool after PUT %v", p)
	}
	field(t, c.do("POST", "/equity-grants/"+str(g["id"])+"/accept", map[string]any{"acceptedOn": "soon"}), 400, "VALIDATION_ERROR", "acceptedOn")
	ok := c.must(http.StatusOK, "POST", "/equity-grants/"+str(g["id"])+"/accept", nil).body
	if ok["status"] != "ACTIVE" {
		t.Fatalf("accepted without a body: %v", ok)
	}
}
