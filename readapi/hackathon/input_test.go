package hackathon_test

import (
	"net/http"
	"testing"
)

// TestBadInput: malformed bodies are 400 and the message names the field.
func TestBadInput(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	hack := func(fields map[string]any) map[string]any {
		b := map[string]any{"name": "H", "start_date": "2026-03-01T09:00:00Z", "end_date": "2026-03-02T09:00:00Z"}
		for k, v := range fields {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	cases := []struct {
		name, path string
		body       any
		words      []string
	}{
		{"unknown field", base, hack(map[string]any{"nmae": "x"}), []string{"nmae", "unknown_field"}},
		{"unknown track field", path(id, "/tracks"), map[string]any{"name": "AI", "colour": "#fff"}, []string{"colour"}},
		{"no offset", base, hack(map[string]any{"start_date": "2026-03-01T09:00:00"}), []string{"start_date", "offset"}},
		{"no offset end", base, hack(map[string]any{"end_date": "2026-03-02 09:00:00"}), []string{"end_date", "offset"}},
		{"end before start", base, hack(map[string]any{"end_date": "2026-02-28T09:00:00Z"}), []string{"end_date", "start_date"}},
		{"not a date", base, hack(map[string]any{"start_date": "soon"}), []string{"start_date"}},
		{"missing start", base, hack(map[string]any{"start_date": nil}), []string{"start_date", "required"}},
		{"missing name", base, hack(map[string]any{"name": nil}), []string{"name", "required"}},
		{"max_participants zero", base, hack(map[string]any{"max_participants": 0}), []string{"max_participants"}},
		{"max_participants text", base, hack(map[string]any{"max_participants": "ten"}), []string{"max_participants"}},
		{"is_online text", base, hack(map[string]any{"is_online": "yes"}), []string{"is_online"}},
		{"bad colour", path(id, "/tracks"), map[string]any{"name": "AI", "color": "#12345g"}, []string{"color", "hex"}},
		{"colour name", path(id, "/tracks"), map[string]any{"name": "AI", "color": "red"}, []string{"color"}},
		{"track without name", path(id, "/tracks"), map[string]any{"color": "#abc"}, []string{"name", "required"}},
		{"currency XYZ", path(id, "/prizes"), map[string]any{"name": "P", "amount": 100, "currency": "XYZ"}, []string{"currency", "ISO 4217"}},
		{"currency XXX", path(id, "/prizes"), map[string]any{"name": "P", "amount": 100, "currency": "XXX"}, []string{"currency"}},
		{"amount without currency", path(id, "/prizes"), map[string]any{"name": "P", "amount": 100}, []string{"currency"}},
		{"negative amount", path(id, "/prizes"), map[string]any{"name": "P", "amount": -1, "currency": "USD"}, []string{"amount"}},
		{"amount text", path(id, "/prizes"), map[string]any{"name": "P", "amount": "a lot", "currency": "USD"}, []string{"amount", "number"}},
		{"weight text", path(id, "/rubrics"), map[string]any{"name": "R", "criteria": []map[string]any{{"key": "a", "weight": "heavy"}}},
			[]string{"weight", "number"}},
		{"syntax", base, `{"name": "H",`, []string{"body", "JSON"}},
		{"join role", path(id, "/join"), map[string]any{"role": "spectator"}, []string{"role"}},
		{"list limit", base + "?limit=0", nil, []string{"limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := "POST"
			if c.body == nil {
				method = "GET"
			}
			refused(t, s.raw(method, c.path, org.Token, c.body), http.StatusBadRequest, c.path, c.words...)
		})
	}

	// The same fields are accepted when right: a 3-digit colour is kept
	// as #rrggbb, the currency in upper case, dates in UTC.
	tr := s.must(t, http.StatusCreated, "POST", path(id, "/tracks"), org.Token, map[string]any{"name": "AI", "color": "#AbC"})
	if tr["color"] != "#aabbcc" {
		t.Fatalf("color %v, want #aabbcc", tr["color"])
	}
	pr := s.must(t, http.StatusCreated, "POST", path(id, "/prizes"), org.Token, map[string]any{"name": "P", "amount": 1500.5, "currency": "eur"})
	if pr["currency"] != "EUR" || pr["amount"] != 1500.5 {
		t.Fatalf("prize %v", pr)
	}
	h := s.must(t, http.StatusCreated, "POST", base, org.Token, hack(map[string]any{"start_date": "2026-03-01T10:00:00+01:00"}))
	if h["start_date"] != "2026-03-01T09:00:00Z" {
		t.Fatalf("start_date %v, want 2026-03-01T09:00:00Z", h["start_date"])
	}
}
