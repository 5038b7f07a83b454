package content_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestTwinsLifecycle(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@content.test")
	bob := w.user(t, "bob@content.test")

	w.must(t, http.StatusUnauthorized, nil, "GET", base+"/twins", nil)
	r := w.must(t, http.StatusCreated, ada, "POST", base+"/twins", map[string]any{"name": "Ada Twin", "voice_id": "v_123",
		"style_tags": []string{"witty", "concise", "witty"}, "persona_prompt": "You are Ada.",
		"platform_defaults": map[string]any{"short_video": map[string]any{"caption_style": "bold"}}})
	id, _ := r.Body["id"].(string)
	if len(id) != 36 || r.Body["memory_namespace"] != "twin_"+id || r.Body["name"] != "Ada Twin" || r.Body["created_at"] == nil {
		t.Fatalf("created twin: %s", r.Raw)
	}
	if tags := r.Body["style_tags"].([]any); len(tags) != 2 {
		t.Fatalf("style_tags not deduplicated: %v", tags)
	}
	list := w.must(t, http.StatusOK, ada, "GET", base+"/twins", nil)
	if len(list.List) != 1 || list.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("list: %s", list.Raw)
	}
	if other := w.must(t, http.StatusOK, bob, "GET", base+"/twins", nil); len(other.List) != 0 {
		t.Fatalf("bob sees ada's twins: %s", other.Raw)
	}
	w.must(t, http.StatusNotFound, bob, "GET", base+"/twins/"+id, nil)
	p := w.must(t, http.StatusOK, ada, "PATCH", base+"/twins/"+id, map[string]any{"persona_prompt": "You are Ada, briefly."})
	if p.Body["name"] != "Ada Twin" || p.Body["persona_prompt"] != "You are Ada, briefly." || p.Body["voice_id"] != "v_123" {
		t.Fatalf("patch is not partial: %s", p.Raw)
	}
	g := w.must(t, http.StatusOK, ada, "GET", base+"/twins/"+id, nil)
	if g.Body["persona_prompt"] != "You are Ada, briefly." {
		t.Fatalf("get after patch: %s", g.Raw)
	}
	w.must(t, http.StatusNoContent, ada, "DELETE", base+"/twins/"+id, nil)
	w.must(t, http.StatusNotFound, ada, "GET", base+"/twins/"+id, nil)
	w.must(t, http.StatusNotFound, ada, "PATCH", base+"/twins/"+id, map[string]any{"name": "x"})
	w.must(t, http.StatusNotFound, ada, "DELETE", base+"/twins/"+id, nil)
	if l := w.must(t, http.StatusOK, ada, "GET", base+"/twins", nil); len(l.List) != 0 {
		t.Fatalf("deleted twin listed: %s", l.Raw)
	}
}

func TestTwinValidation(t *testing.T) {
	w := start(t)
	ada := w.user(t, "ada@content.test")
	for _, tc := range []struct {
		body   any
		status int
		field  string
	}{
		{map[string]any{}, http.StatusUnprocessableEntity, "name"},
		{map[string]any{"name": 42}, http.StatusUnprocessableEntity, "name"},
		{map[string]any{"name": "x", "unknown": 1}, http.StatusUnprocessableEntity, "unknown"},
		{map[string]any{"name": "  "}, http.StatusBadRequest, "name"},
		{map[string]any{"name": strings.Repeat("n", 101)}, http.StatusBadRequest, "name"},
		{map[string]any{"name": "x", "style_tags": []string{""}}, http.StatusBadRequest, "style_tags[0]"},
		{map[string]any{"name": "x", "platform_defaults": map[string]any{"fax": map[string]any{}}}, http.StatusBadRequest, "platform_defaults.fax"},
		{map[string]any{"name": "x", "voice_id": "has space"}, http.StatusBadRequest, "voice_id"},
	} {
		r := w.do(t, ada, "POST", base+"/twins", tc.body)
		if r.Status != tc.status || !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("POST %v: %d %s; want %d naming %s", tc.body, r.Status, r.Raw, tc.status, tc.field)
		}
	}
}
