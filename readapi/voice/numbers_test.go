package voice_test

import (
	"context"
	"testing"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/voice"
)

func TestNumberInventorySearchPurchaseConfigRelease(t *testing.T) {
	w := start(t, options{})
	a, b := w.user(t, "ann@example.com"), w.user(t, "bob@example.com")
	ctx := context.Background()
	for _, n := range []cmd.ImportedNumber{
		{Phone: "+14155550100", National: "4155550100", Country: "US", NumberType: voice.TypeLocal},
		{Phone: "+14155550177", National: "4155550177", Country: "US", NumberType: voice.TypeLocal},
		{Phone: "+12125550100", National: "2125550100", Country: "US", NumberType: voice.TypeLocal},
		{Phone: "+18005550100", National: "8005550100", Country: "US", NumberType: voice.TypeTollFree},
	} {
		if added, err := w.Svc.ImportNumber(ctx, n, "test", "t"); err != nil || !added {
			t.Fatal(added, err)
		}
	}
	if added, _ := w.Svc.ImportNumber(ctx, cmd.ImportedNumber{Phone: "+14155550100", Country: "US", NumberType: voice.TypeLocal}, "test", "t"); added {
		t.Fatal("imported twice")
	}
	type found struct {
		Items []struct {
			ID          string `json:"id"`
			PhoneNumber string `json:"phone_number"`
			Status      string `json:"status"`
		} `json:"items"`
	}
	var f found
	w.do(t, a, "POST", "/api/v1/numbers/search", map[string]any{"country": "us", "number_type": "local", "area_code": "415"}, &f)
	if len(f.Items) != 2 || f.Items[0].PhoneNumber != "+14155550100" || f.Items[0].Status != "available" {
		t.Fatalf("area code 415: %+v", f)
	}
	w.do(t, a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "contains": "0177"}, &f)
	if len(f.Items) != 1 || f.Items[0].PhoneNumber != "+14155550177" {
		t.Fatalf("contains: %+v", f)
	}
	w.do(t, a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "mobile"}, &f)
	if len(f.Items) != 0 {
		t.Fatalf("invented mobile numbers: %+v", f)
	}
	var bought struct {
		ID           string `json:"id"`
		Status       string `json:"status"`
		FriendlyName string `json:"friendly_name"`
	}
	if st, raw := w.do(t, a, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550100", "friendly_name": "Main"}, &bought); st != 201 || bought.Status != "active" {
		t.Fatalf("purchase: %d %s", st, raw)
	}
	w.wantError(t, b, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550100"}, 409, "conflict", "")
	w.wantError(t, b, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155559999"}, 404, "not_found", "")
	w.do(t, a, "POST", "/api/v1/numbers/search", map[string]any{"country": "US", "number_type": "local", "area_code": "415"}, &f)
	if len(f.Items) != 1 {
		t.Fatalf("a bought number still offered: %+v", f)
	}
	var list struct {
		Total int `json:"total"`
	}
	w.do(t, b, "GET", "/api/v1/numbers", nil, &list)
	if list.Total != 0 {
		t.Fatal("b sees a's number")
	}
	w.wantError(t, b, "PUT", "/api/v1/numbers/"+bought.ID+"/config", map[string]any{"friendly_name": "x"}, 404, "not_found", "")
	w.wantError(t, a, "PUT", "/api/v1/numbers/"+bought.ID+"/config", map[string]any{"routing": map[string]any{"type": "pbx"}}, 400, "bad_request", "routing.type")
	var cfg struct {
		Routing struct {
			Type     string `json:"type"`
			TargetID string `json:"target_id"`
		} `json:"routing"`
	}
	if st, raw := w.do(t, a, "PUT", "/api/v1/numbers/"+bought.ID+"/config", map[string]any{"routing": map[string]any{"type": "forward", "target_id": "+12125550123"}}, &cfg); st != 200 || cfg.Routing.Type != "forward" {
		t.Fatalf("config: %d %s", st, raw)
	}
	if st, _ := w.do(t, a, "DELETE", "/api/v1/numbers/"+bought.ID, nil, nil); st != 204 {
		t.Fatal("release")
	}
	if st, raw := w.do(t, b, "POST", "/api/v1/numbers/purchase", map[string]any{"phone_number": "+14155550100"}, nil); st != 201 {
		t.Fatalf("released number not available again: %d %s", st, raw)
	}
}

func TestContactsCreateListSearch(t *testing.T) {
	w := start(t, options{})
	a, b := w.user(t, "ann@example.com"), w.user(t, "bob@example.com")
	var c struct {
		ID    string   `json:"id"`
		Name  string   `json:"name"`
		Phone string   `json:"phone"`
		Tags  []string `json:"tags"`
	}
	if st, raw := w.do(t, a, "POST", "/api/v1/contacts", map[string]any{"name": "Grace Hopper", "phone": "+14155550123",
		"email": "grace@example.com", "company": "Navy", "tags": []string{"vip", "VIP", "east"}}, &c); st != 201 || c.Name != "Grace Hopper" || len(c.Tags) != 2 {
		t.Fatalf("create: %d %s", st, raw)
	}
	w.do(t, a, "POST", "/api/v1/contacts", map[string]any{"name": "Alan Turing", "phone": "+442071838750"}, nil)
	var list struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
		Total   int  `json:"total"`
		HasMore bool `json:"has_more"`
	}
	w.do(t, a, "GET", "/api/v1/contacts?search=hopper", nil, &list)
	if list.Total != 1 || list.Items[0].Name != "Grace Hopper" {
		t.Fatalf("search: %+v", list)
	}
	w.do(t, a, "GET", "/api/v1/contacts?limit=1", nil, &list)
	if list.Total != 2 || len(list.Items) != 1 || !list.HasMore || list.Items[0].Name != "Alan Turing" {
		t.Fatalf("page: %+v", list)
	}
	w.do(t, b, "GET", "/api/v1/contacts", nil, &list)
	if list.Total != 0 {
		t.Fatal("b sees a's contacts")
	}
	w.wantError(t, b, "GET", "/api/v1/contacts/"+c.ID, nil, 404, "not_found", "")
	var calls struct {
		Total int `json:"total"`
	}
	if st, _ := w.do(t, a, "GET", "/api/v1/contacts/"+c.ID+"/calls", nil, &calls); st != 200 || calls.Total != 0 {
		t.Fatal("contact calls")
	}
}
