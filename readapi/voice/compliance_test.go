package voice_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/strata-platform/strata/readapi/httpx"
)

func TestNoProviderAnswers503TelephonyUnconfigured(t *testing.T) {
	w := start(t, options{})
	u := w.user(t, "ann@example.com")
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"},
		503, "telephony_unconfigured", "")
	w.wantError(t, u, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
		503, "telephony_unconfigured", "")
	var logs struct {
		Total int `json:"total"`
	}
	if st, raw := w.do(t, u, "GET", "/api/v1/calls/logs", nil, &logs); st != 200 || logs.Total != 0 {
		t.Fatalf("a refused call was recorded: %d %s", st, raw)
	}
}

func TestBadInputNamesTheField(t *testing.T) {
	w := start(t, options{})
	u := w.user(t, "ann@example.com")
	cases := []struct {
		path  string
		body  map[string]any
		field string
	}{
		{"/api/v1/calls/outbound", map[string]any{"to_number": "+14155550123"}, "from_number"},
		{"/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100"}, "to_number"},
		{"/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "4155550123"}, "to_number"},
		{"/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "queue_id": "q1"}, "queue_id"},
		{"/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "status_callback_url": "ftp://x"}, "status_callback_url"},
		{"/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"}, "body"},
		{"/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": string(make([]byte, 0)) + longText(1601)}, "body"},
		{"/api/v1/contacts", map[string]any{"phone": "+14155550123"}, "name"},
		{"/api/v1/contacts", map[string]any{"name": "Bo", "phone": "555"}, "phone"},
		{"/api/v1/contacts", map[string]any{"name": "Bo", "phone": "+14155550123", "email": "nope"}, "email"},
		{"/api/v1/numbers/search", map[string]any{"number_type": "local"}, "country"},
		{"/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "landline"}, "number_type"},
		{"/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "limit": 51}, "limit"},
		{"/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "limit": 0}, "limit"},
		{"/api/v1/compliance/dnc", map[string]any{"phone": "12"}, "phone"},
	}
	for _, c := range cases {
		w.wantError(t, u, "POST", c.path, c.body, 400, "bad_request", c.field)
	}
	w.wantError(t, u, "GET", "/api/v1/calls/logs?direction=sideways", nil, 400, "bad_request", "direction")
	w.wantError(t, u, "GET", "/api/v1/calls/logs?limit=0", nil, 400, "bad_request", "limit")
	w.wantError(t, u, "GET", "/api/v1/calls/logs?date_start=yesterday", nil, 400, "bad_request", "date_start")
}

func longText(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}

func TestDoNotCallRefusesCallsAndSMSWith451(t *testing.T) {
	w := start(t, options{})
	u := w.user(t, "ann@example.com")
	other := w.user(t, "bob@example.com")
	if st, raw := w.do(t, u, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": "+14155550123", "reason": "asked"}, nil); st != 201 {
		t.Fatalf("add: %d %s", st, raw)
	}
	var check struct {
		Listed bool   `json:"listed"`
		Source string `json:"source"`
	}
	if st, _ := w.do(t, u, "GET", "/api/v1/compliance/dnc?phone=%2B14155550123", nil, &check); st != 200 || !check.Listed || check.Source != "api" {
		t.Fatalf("check: %+v", check)
	}
	// Before the provider is looked at: a listed number is refused whether or not telephony works.
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"},
		451, "do_not_call", "to_number")
	w.wantError(t, u, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
		451, "do_not_call", "to_number")
	// Another organization's list is its own.
	w.wantError(t, other, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
		503, "telephony_unconfigured", "")
	var list struct {
		Items []struct {
			Phone *string `json:"phone"`
		} `json:"items"`
		Total int `json:"total"`
	}
	if st, _ := w.do(t, u, "GET", "/api/v1/compliance/dnc", nil, &list); st != 200 || list.Total != 1 || list.Items[0].Phone == nil || *list.Items[0].Phone != "+14155550123" {
		t.Fatalf("list: %+v", list)
	}
	if st, raw := w.do(t, u, "DELETE", "/api/v1/compliance/dnc/%2B14155550123", nil, nil); st != 204 {
		t.Fatalf("remove: %d %s", st, raw)
	}
	w.wantError(t, u, "DELETE", "/api/v1/compliance/dnc/%2B14155550123", nil, 404, "not_found", "")
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123"},
		503, "telephony_unconfigured", "")
}

func TestCallingHoursAcrossTimeZones(t *testing.T) {
	la, _ := time.LoadLocation("America/Los_Angeles")
	ny, _ := time.LoadLocation("America/New_York")
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	zones := map[string][]*time.Location{"+14155550123": {la}, "+12125550123": {ny}, "+15555550100": {ny, la}, "+819012345678": {tokyo}}
	w := start(t, options{Zones: func(n string) []*time.Location { return zones[n] }})
	u := w.user(t, "ann@example.com")
	call := func(to string) map[string]any { return map[string]any{"from_number": "+14155550100", "to_number": to} }
	w.setClock(time.Date(2026, 11, 27, 10, 30, 0, 0, ny)) // 07:30 in Los Angeles
	e := w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+14155550123"), 422, "calling_hours", "to_number")
	if e.Details.Message == "" {
		t.Fatal("no rule in the refusal")
	}
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+12125550123"), 503, "telephony_unconfigured", "")
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+15555550100"), 422, "calling_hours", "to_number") // strictest of two
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+19995550100"), 422, "calling_hours", "to_number") // zone unknown
	// SMS is not a call: no calling-hours guard.
	w.wantError(t, u, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": "+14155550123", "body": "hi"},
		503, "telephony_unconfigured", "")
	// The organization turns the guard off.
	var h struct {
		Enforced bool `json:"enforced"`
	}
	if st, raw := w.do(t, u, "PUT", "/api/v1/compliance/calling-hours", map[string]any{"enforced": false}, &h); st != 200 || h.Enforced {
		t.Fatalf("guard off: %d %s", st, raw)
	}
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+14155550123"), 503, "telephony_unconfigured", "")
	w.do(t, u, "PUT", "/api/v1/compliance/calling-hours", map[string]any{"enforced": true}, nil)
	w.wantError(t, u, "POST", "/api/v1/calls/outbound", call("+819012345678"), 422, "calling_hours", "to_number") // 00:30 in Tokyo
}

func TestAuthAndRateLimit(t *testing.T) {
	w := start(t, options{Limiter: httpx.NewWindowLimiter(3, nil)})
	w.wantError(t, nil, "GET", "/api/v1/calls/logs", nil, 401, "unauthorized", "")
	u := w.user(t, "ann@example.com")
	for i := range 3 {
		if st, raw := w.do(t, u, "GET", "/api/v1/contacts", nil, nil); st != 200 {
			t.Fatalf("request %d: %d %s", i, st, raw)
		}
	}
	req, _ := http.NewRequest("GET", w.URL+"/api/v1/contacts", nil)
	req.Header.Set("Authorization", "Bearer "+u.bearer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ra, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || ra < 1 || ra > 60 {
		t.Fatalf("fourth request: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
