package template

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type booking map[string]any

func validBooking(name string) booking {
	return booking{"customer_name": name, "customer_email": "ann@example.com", "service": "Vinyasa",
		"date": "2025-03-31", "time": "18:30", "status": "requested"}
}

func TestGeneratedServerServesItsAPI(t *testing.T) {
	node := nodeOrSkip(t)
	s, err := Plan("book yoga classes at my studio")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeApp(t, files)
	dataFile := filepath.Join(t.TempDir(), "state", "data.json")
	app := startApp(t, node, dir, dataFile, "")

	var health map[string]string
	app.expect("GET", "/healthz", "", nil, 200, &health)
	if health["status"] != "ok" {
		t.Fatalf("/healthz = %v", health)
	}
	res, page := app.call("GET", "/", "", nil, nil)
	if res.StatusCode != 200 || !strings.Contains(string(page), `data-entity="booking"`) ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("GET / = %d %s, CSP %q", res.StatusCode, page[:min(200, len(page))], res.Header.Get("Content-Security-Policy"))
	}
	for path, typ := range map[string]string{"/app.js": "text/javascript", "/style.css": "text/css", "/index.html": "text/html"} {
		if r := app.expect("GET", path, "", nil, 200, nil); !strings.HasPrefix(r.Header.Get("Content-Type"), typ) {
			t.Errorf("GET %s: Content-Type %q, want %s", path, r.Header.Get("Content-Type"), typ)
		}
	}
	for _, path := range []string{"/spec.json", "/%2e%2e/spec.json", "/..%2fserver.js", "/nothing.html", "/api/nothing"} {
		app.expect("GET", path, "", nil, 404, nil)
	}

	// Create, read, list, update, delete.
	var first, second, got booking
	created := app.expect("POST", "/api/bookings", "", validBooking("Ann"), 201, &first)
	id, _ := first["id"].(string)
	if id == "" || first["created_at"] == nil || first["customer_phone"] != nil || first["customer_name"] != "Ann" {
		t.Fatalf("created %v", first)
	}
	if loc := created.Header.Get("Location"); loc != "bookings/"+id {
		t.Errorf("Location %q", loc)
	}
	app.expect("GET", "/api/bookings/"+id, "", nil, 200, &got)
	if got["service"] != "Vinyasa" {
		t.Fatalf("GET one = %v", got)
	}
	update := validBooking("Ann")
	update["status"] = "confirmed"
	update["id"] = id // sent back as read: ignored, not an unknown field
	app.expect("PUT", "/api/bookings/"+id, "", update, 200, &got)
	if got["status"] != "confirmed" || got["created_at"] != first["created_at"] || got["id"] != id {
		t.Fatalf("PUT = %v", got)
	}
	app.expect("POST", "/api/bookings", "", validBooking("Bea"), 201, &second)
	var list []booking
	app.expect("GET", "/api/bookings", "", nil, 200, &list)
	if len(list) != 2 || list[0]["status"] != "confirmed" {
		t.Fatalf("list = %v", list)
	}
	app.expect("DELETE", "/api/bookings/"+id, "", nil, 204, nil)
	app.expect("GET", "/api/bookings/"+id, "", nil, 404, nil)
	app.expect("PUT", "/api/bookings/"+id, "", validBooking("Ann"), 404, nil)
	app.expect("GET", "/api/bookings", "", nil, 200, &list)
	if len(list) != 1 || list[0]["id"] != second["id"] {
		t.Fatalf("list after delete = %v", list)
	}

	// Bodies that break a rule: 400 with the field and the rule.
	for _, c := range []struct {
		change      func(booking)
		field, rule string
	}{
		{func(b booking) { delete(b, "customer_email") }, "customer_email", "required"},
		{func(b booking) { b["customer_name"] = "   " }, "customer_name", "required"},
		{func(b booking) { b["status"] = "maybe" }, "status", "enum"},
		{func(b booking) { b["date"] = "2025-02-30" }, "date", "date"},
		{func(b booking) { b["time"] = "25:00" }, "time", "time"},
		{func(b booking) { b["customer_email"] = "ann" }, "customer_email", "email"},
		{func(b booking) { b["customer_phone"] = 5551234 }, "customer_phone", "phone"},
		{func(b booking) { b["notes"] = strings.Repeat("x", 5001) }, "notes", "max_length:5000"},
		{func(b booking) { b["colour"] = "red" }, "colour", "unknown"},
	} {
		b := validBooking("Cy")
		c.change(b)
		var problem map[string]string
		app.expect("POST", "/api/bookings", "", b, 400, &problem)
		if problem["field"] != c.field || problem["rule"] != c.rule || problem["error"] != "invalid" || problem["message"] == "" {
			t.Errorf("want field %s rule %s, got %v", c.field, c.rule, problem)
		}
	}
	var problem map[string]string
	app.expect("POST", "/api/services", "", map[string]any{"name": "Yin", "duration_minutes": "sixty"}, 400, &problem)
	if problem["field"] != "duration_minutes" || problem["rule"] != "number" {
		t.Errorf("a number as text: %v", problem)
	}
	app.expect("POST", "/api/services", "", map[string]any{"name": "Yin", "duration_minutes": 60, "price": "12.5"}, 201, nil)
	app.expect("POST", "/api/services", "", map[string]any{"name": "Yin", "duration_minutes": 60, "price": "12.555"}, 400, nil)
	app.expect("POST", "/api/services", "", []int{1}, 400, nil)
	app.expect("PATCH", "/api/bookings/"+id, "", validBooking("Ann"), 405, nil)
	if res, _ := app.call("POST", "/api/bookings", "", nil, nil); res.StatusCode != 415 {
		t.Errorf("POST without a JSON body = %d, want 415", res.StatusCode)
	}
	app.stop()

	// The records are in DATA_FILE, written whole, with no temporary file left.
	raw, err := os.ReadFile(dataFile)
	if err != nil {
		t.Fatalf("DATA_FILE after stop: %v", err)
	}
	var stored map[string][]booking
	if err := json.Unmarshal(raw, &stored); err != nil || len(stored["bookings"]) != 1 || len(stored["services"]) != 1 {
		t.Fatalf("DATA_FILE = %s (%v)", raw, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dataFile), "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// A restart reads them back; with APP_WRITE_TOKEN set, writes need it,
	// and concurrent writes all land.
	app = startApp(t, node, dir, dataFile, "s3cret")
	app.expect("GET", "/api/bookings", "", nil, 200, &list)
	if len(list) != 1 || list[0]["id"] != second["id"] {
		t.Fatalf("list after restart = %v", list)
	}
	app.expect("POST", "/api/bookings", "", validBooking("Di"), 401, nil)
	app.expect("POST", "/api/bookings", "wrong", validBooking("Di"), 401, nil)
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, _ := app.call("POST", "/api/bookings", "s3cret", validBooking(fmt.Sprintf("Guest %d", i)), nil)
			codes[i] = res.StatusCode
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusCreated {
			t.Fatalf("concurrent POST %d = %d", i, c)
		}
	}
	app.stop()
	app = startApp(t, node, dir, dataFile, "")
	app.expect("GET", "/api/bookings", "", nil, 200, &list)
	if len(list) != 21 {
		t.Fatalf("after 20 concurrent creates and a restart: %d bookings, want 21", len(list))
	}
	app.stop()
}
