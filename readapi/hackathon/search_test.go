package hackathon_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// searchPath is a search URL with its query.
func searchPath(path string, params ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	return path + "?" + q.Encode()
}

// searchItems returns the items of a search answer as "type:title".
func searchItems(t *testing.T, body map[string]any) []string {
	t.Helper()
	items, ok := body["items"].([]any)
	if !ok {
		t.Fatalf("no items in %v", body)
	}
	var out []string
	for _, it := range items {
		m := it.(map[string]any)
		out = append(out, m["type"].(string)+":"+m["title"].(string))
	}
	return out
}

// TestFullTextSearch: /search finds hackathons, teams and submissions the
// caller may see (a DRAFT only for its organisers), best match first, with
// a snippet; /search/{hackathon_id} stays in one hackathon and filters
// submissions by track.
func TestFullTextSearch(t *testing.T) {
	s := newServer(t)
	org, _ := s.user(t, "org@search.test")
	builder, _ := s.user(t, "builder@search.test")
	other, _ := s.user(t, "other@search.test")
	stranger, _ := s.user(t, "stranger@search.test")

	live := s.liveHackathon(t, org, map[string]any{"name": "Climate Hack", "description": "Build tools that measure the climate crisis."})
	draft := s.hackathon(t, org, map[string]any{"name": "Secret Climate Summit"})
	track := s.must(t, http.StatusCreated, "POST", base+"/"+live+"/tracks", org, map[string]any{"name": "Oceans"})["id"].(string)
	for _, tok := range []string{builder, other} {
		s.must(t, http.StatusCreated, "POST", base+"/"+live+"/join", tok, map[string]any{"role": "builder"})
	}
	team := s.must(t, http.StatusCreated, "POST", base+"/"+live+"/teams", builder,
		map[string]any{"name": "Carbon Crunchers", "description": "We crunch climate numbers."})["id"].(string)
	s.must(t, http.StatusCreated, "POST", base+"/"+live+"/submissions", builder, map[string]any{"team_id": team,
		"project_name": "Climate Lens", "description": "A lens on climate data for every city.", "track_id": track})
	team2 := s.must(t, http.StatusCreated, "POST", base+"/"+live+"/teams", other,
		map[string]any{"name": "Wave Riders"})["id"].(string)
	s.must(t, http.StatusCreated, "POST", base+"/"+live+"/submissions", other, map[string]any{"team_id": team2,
		"project_name": "Tide Climate Model"})

	got := s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "climate"), stranger, nil)
	items := searchItems(t, got)
	want := map[string]bool{"hackathon:Climate Hack": true, "team:Carbon Crunchers": true, "submission:Climate Lens": true,
		"submission:Tide Climate Model": true}
	if len(items) != len(want) || got["total"] != float64(len(want)) || got["query"] != "climate" {
		t.Fatalf("stranger's search: %v (total %v), want %v", items, got["total"], want)
	}
	for _, it := range items {
		if !want[it] {
			t.Fatalf("stranger's search has %s: %v", it, items)
		}
	}
	var prev float64 = 2
	for _, it := range got["items"].([]any) {
		m := it.(map[string]any)
		rank := m["rank"].(float64)
		if rank > prev || rank <= 0 || m["id"] == "" || m["hackathon_id"] != live {
			t.Fatalf("result %v: rank %v after %v, hackathon %s", m, rank, prev, live)
		}
		prev = rank
		snippet := m["snippet"].(string)
		switch m["title"] {
		case "Tide Climate Model":
			if snippet != "" {
				t.Fatalf("a submission without a description has snippet %q", snippet)
			}
		case "Climate Hack", "Climate Lens", "Carbon Crunchers":
			if !strings.Contains(snippet, "**climate**") {
				t.Fatalf("snippet %q does not mark the match", snippet)
			}
		}
	}

	// The organiser sees their DRAFT; websearch syntax works.
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", `"secret climate"`), org, nil))
	if len(items) != 1 || items[0] != "hackathon:Secret Climate Summit" {
		t.Fatalf("organiser's phrase search: %v", items)
	}
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", `"secret climate"`), stranger, nil))
	if len(items) != 0 {
		t.Fatalf("a stranger finds a DRAFT: %v", items)
	}
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "climate -lens"), stranger, nil))
	if len(items) != 3 {
		t.Fatalf("climate -lens: %v", items)
	}

	// Pages: limit and offset, the total counting every match.
	p1 := s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "climate", "limit", "2"), stranger, nil)
	p2 := s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "climate", "limit", "2", "offset", "2"), stranger, nil)
	p3 := s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "climate", "offset", "10"), stranger, nil)
	if joined := append(searchItems(t, p1), searchItems(t, p2)...); strings.Join(joined, ",") != strings.Join(searchItems(t, got), ",") {
		t.Fatalf("pages %v, want %v", joined, searchItems(t, got))
	}
	if p3["total"] != float64(4) || len(searchItems(t, p3)) != 0 {
		t.Fatalf("past the end: %v", p3)
	}

	// Within one hackathon: teams and submissions only; track_id keeps
	// that track's submissions.
	in := "/api/v1/search/" + live
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath(in, "query", "climate"), stranger, nil))
	if len(items) != 3 || strings.Contains(strings.Join(items, ","), "hackathon:") {
		t.Fatalf("search in the hackathon: %v", items)
	}
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath(in, "query", "climate", "track_id", track), stranger, nil))
	if strings.Join(items, ",") != "submission:Climate Lens,team:Carbon Crunchers" &&
		strings.Join(items, ",") != "team:Carbon Crunchers,submission:Climate Lens" {
		t.Fatalf("search in the track: %v", items)
	}
	items = searchItems(t, s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search/"+draft, "query", "climate"), org, nil))
	if len(items) != 0 {
		t.Fatalf("search in an empty DRAFT: %v", items)
	}

	// Refusals.
	for _, c := range []struct {
		path   string
		status int
		words  []string
	}{
		{"/api/v1/search", http.StatusBadRequest, []string{"query", "required"}},
		{searchPath("/api/v1/search", "query", "   "), http.StatusBadRequest, []string{"query", "required"}},
		{searchPath("/api/v1/search", "query", strings.Repeat("é", 201)), http.StatusBadRequest, []string{"query", "200"}},
		{searchPath("/api/v1/search", "query", "climate", "limit", "0"), http.StatusBadRequest, []string{"limit"}},
		{searchPath("/api/v1/search", "query", "climate", "limit", "101"), http.StatusBadRequest, []string{"limit"}},
		{searchPath(in, "query", ""), http.StatusBadRequest, []string{"query"}},
		{searchPath(in, "query", "climate", "track_id", "nope"), http.StatusNotFound, []string{"track"}},
		{searchPath("/api/v1/search/"+draft, "query", "climate"), http.StatusNotFound, []string{draft}},
		{searchPath("/api/v1/search/not-a-uuid", "query", "climate"), http.StatusNotFound, nil},
	} {
		refused(t, s.raw("GET", c.path, stranger, nil), c.status, strings.SplitN(c.path, "?", 2)[0], c.words...)
	}
	refused(t, s.raw("GET", searchPath("/api/v1/search", "query", "climate"), "", nil), http.StatusUnauthorized, "/api/v1/search")
	// Only stop words: no matches, not an error.
	if items := searchItems(t, s.must(t, http.StatusOK, "GET", searchPath("/api/v1/search", "query", "the and"), stranger, nil)); len(items) != 0 {
		t.Fatalf("stop words: %v", items)
	}
}
