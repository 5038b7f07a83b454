package hackathon_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/projections"
	projhackathon "github.com/strata-platform/strata/projections/hackathon"
)

// analyticsWorld is a LIVE hackathon with three teams (names a spreadsheet
// would take for formulas), three submissions and three judges who scored
// each of them.
type analyticsWorld struct {
	id, org, judge, builder, stranger string
	teams, subs                       []string
}

func newAnalyticsWorld(t *testing.T, s *server) analyticsWorld {
	t.Helper()
	var w analyticsWorld
	w.org, _ = s.user(t, "org@analytics.test")
	w.stranger, _ = s.user(t, "stranger@analytics.test")
	w.id = s.liveHackathon(t, w.org, map[string]any{"name": "Numbers Hack"})
	track := s.must(t, http.StatusCreated, "POST", base+"/"+w.id+"/tracks", w.org, map[string]any{"name": "Data"})["id"].(string)
	names := []string{"=SUM(A1:A9)", "+plus crew", "@home"}
	projects := []string{"-minus", "Quote \"unquote\", comma", "Plain"}
	for i := range 3 {
		tok, _ := s.user(t, fmt.Sprintf("b%d@analytics.test", i))
		if i == 0 {
			w.builder = tok
		}
		s.must(t, http.StatusCreated, "POST", base+"/"+w.id+"/join", tok, map[string]any{"role": "builder"})
		team := s.must(t, http.StatusCreated, "POST", base+"/"+w.id+"/teams", tok, map[string]any{"name": names[i],
			"description": "line one\nline two"})["id"].(string)
		body := map[string]any{"team_id": team, "project_name": projects[i]}
		if i == 1 {
			body["track_id"] = track
		}
		w.teams = append(w.teams, team)
		w.subs = append(w.subs, s.must(t, http.StatusCreated, "POST", base+"/"+w.id+"/submissions", tok, body)["id"].(string))
	}
	s.must(t, http.StatusCreated, "POST", base+"/"+w.id+"/rubrics", w.org, dashRubric)
	for j := range 3 {
		tok, uid := s.dashJudge(t, w.org, w.id, fmt.Sprintf("judge%d@analytics.test", j))
		if j == 0 {
			w.judge = tok
		}
		for i, sub := range w.subs {
			s.dashScore(t, tok, uid, w.id, sub, 2+i*(j+1))
		}
	}
	return w
}

// TestAnalyticsStats: the counts and means, for organisers and judges
// only.
func TestAnalyticsStats(t *testing.T) {
	s := newServer(t)
	w := newAnalyticsWorld(t, s)
	path := base + "/" + w.id + "/analytics/stats"
	st := s.must(t, http.StatusOK, "GET", path, w.org, nil)
	for k, want := range map[string]float64{"teams": 3, "average_team_size": 1, "submissions": 3, "scores": 9,
		"average_scores_per_judge": 3} {
		if st[k] != want {
			t.Fatalf("stats %s = %v, want %v: %v", k, st[k], want, st)
		}
	}
	// Totals: judge j scores 2, 2+(j+1), 2+2(j+1): means 3, 4, 5; all 4.
	if st["average_total_score"] != float64(4) || jsonAt(t, st, "participants", "builder") != float64(3) ||
		jsonAt(t, st, "participants", "judge") != float64(3) || jsonAt(t, st, "judging", "complete") != float64(3) ||
		len(st["judges"].([]any)) != 3 || jsonAt(t, st, "submissions_by_track", 0, "submissions") != float64(1) ||
		jsonAt(t, st, "submissions_by_track", 1, "submissions") != float64(2) {
		t.Fatalf("stats: %v", st)
	}
	var means []float64
	for _, j := range st["judges"].([]any) {
		if jsonAt(t, j, "scores") != float64(3) {
			t.Fatalf("judge %v", j)
		}
		means = append(means, jsonAt(t, j, "average_total").(float64))
	}
	if slices.Sort(means); !slices.Equal(means, []float64{3, 4, 5}) {
		t.Fatalf("judges' means %v", means)
	}
	s.must(t, http.StatusOK, "GET", path, w.judge, nil)
	refused(t, s.raw("GET", path, w.builder, nil), http.StatusForbidden, path, "organisers and judges")
	refused(t, s.raw("GET", path, w.stranger, nil), http.StatusForbidden, path)
	draft := s.hackathon(t, w.org, nil)
	refused(t, s.raw("GET", base+"/"+draft+"/analytics/stats", w.stranger, nil), http.StatusNotFound, "")
	empty := s.must(t, http.StatusOK, "GET", base+"/"+draft+"/analytics/stats", w.org, nil)
	if empty["average_total_score"] != nil || empty["average_team_size"] != float64(0) || len(empty["judges"].([]any)) != 0 {
		t.Fatalf("stats of an empty hackathon: %v", empty)
	}
}

// csvRecords parses a CSV export and groups its rows by section (the
// header row first).
func csvRecords(t *testing.T, raw []byte) (map[string][][]string, []string) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(raw))
	r.FieldsPerRecord = 0 // every line as wide as the first (RFC 4180)
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("the export is not CSV: %v\n%s", err, raw)
	}
	out := map[string][][]string{}
	var order []string
	section := ""
	for _, rec := range recs {
		if rec[0] == "section" {
			section = ""
		} else if section == "" {
			section = rec[0]
			order = append(order, section)
		}
		key := rec[0]
		if key == "section" {
			key = "header"
		}
		out[key] = append(out[key], rec)
	}
	return out, order
}

// TestAnalyticsExport: JSON and CSV (RFC 4180, formula cells guarded),
// organisers only, byte-identical after a rebuild of the read model.
func TestAnalyticsExport(t *testing.T) {
	s := newServer(t)
	w := newAnalyticsWorld(t, s)
	path := base + "/" + w.id + "/analytics/export"

	js := s.raw("GET", path, w.org, nil)
	if js.Status != http.StatusOK || !strings.HasPrefix(js.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("json export: %d %s", js.Status, js.Raw)
	}
	if d := s.raw("GET", path+"?format=json", w.org, nil); !bytes.Equal(d.Raw, js.Raw) {
		t.Fatal("format=json differs from the default")
	}
	for k, n := range map[string]int{"participants": 6, "teams": 3, "submissions": 3, "scores": 9, "leaderboard": 3} {
		if got := len(js.Body[k].([]any)); got != n {
			t.Fatalf("%s: %d, want %d: %s", k, got, n, js.Raw)
		}
	}
	var teamIDs, subIDs, users []string
	for _, x := range js.Body["teams"].([]any) {
		teamIDs = append(teamIDs, jsonAt(t, x, "id").(string))
		if len(jsonAt(t, x, "members").([]any)) != 1 || jsonAt(t, x, "submission_id") == nil {
			t.Fatalf("team %v", x)
		}
	}
	for _, x := range js.Body["submissions"].([]any) {
		subIDs = append(subIDs, jsonAt(t, x, "id").(string))
	}
	for _, x := range js.Body["participants"].([]any) {
		users = append(users, jsonAt(t, x, "user_id").(string))
	}
	if !slices.IsSorted(teamIDs) || !slices.IsSorted(subIDs) || !slices.IsSorted(users) {
		t.Fatalf("not sorted by id: %v %v %v", teamIDs, subIDs, users)
	}
	if jsonAt(t, js.Body, "leaderboard", 0, "rank") != float64(1) || jsonAt(t, js.Body, "scores", 0, "scores", "overall") == nil {
		t.Fatalf("leaderboard or scores: %s", js.Raw)
	}

	c := s.raw("GET", path+"?format=csv", w.org, nil)
	if c.Status != http.StatusOK || c.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		c.Header.Get("Content-Disposition") != `attachment; filename="hackathon-`+w.id+`.csv"` {
		t.Fatalf("csv export: %d %v %s", c.Status, c.Header, c.Raw)
	}
	if !bytes.HasSuffix(c.Raw, []byte("\r\n")) || !bytes.Contains(c.Raw, []byte("\"line one\r\nline two\"")) {
		t.Fatalf("not RFC 4180 (CRLF rows, quoted multi-line fields):\n%s", c.Raw)
	}
	recs, order := csvRecords(t, c.Raw)
	if strings.Join(order, ",") != "participants,teams,submissions,scores,leaderboard" || len(recs["header"]) != 5 {
		t.Fatalf("sections %v, %d headers", order, len(recs["header"]))
	}
	for sec, n := range map[string]int{"participants": 6, "teams": 3, "submissions": 3, "scores": 9, "leaderboard": 3} {
		if len(recs[sec]) != n {
			t.Fatalf("%s: %d rows, want %d", sec, len(recs[sec]), n)
		}
	}
	var names, projects []string
	for _, r := range recs["teams"] {
		names = append(names, r[2])
		if r[3] != "line one\nline two" {
			t.Fatalf("description %q", r[3])
		}
	}
	for _, r := range recs["submissions"] {
		projects = append(projects, r[3])
	}
	for _, want := range []string{"'=SUM(A1:A9)", "'+plus crew", "'@home"} {
		if !slices.Contains(names, want) {
			t.Fatalf("team names %q: no %q", names, want)
		}
	}
	if !slices.Contains(projects, "'-minus") || !slices.Contains(projects, `Quote "unquote", comma`) {
		t.Fatalf("project names %q", projects)
	}
	negative := false
	for _, r := range recs["leaderboard"] {
		negative = negative || strings.HasPrefix(r[6], "-") // normalized_score: a number, not guarded
		if strings.HasPrefix(r[6], "'") {
			t.Fatalf("a number guarded as a formula: %v", r)
		}
	}
	if !negative {
		t.Fatalf("no negative z-score in %v", recs["leaderboard"])
	}

	refused(t, s.raw("GET", path+"?format=xml", w.org, nil), http.StatusBadRequest, path, "format")
	refused(t, s.raw("GET", path, w.judge, nil), http.StatusForbidden, path, "organisers")
	refused(t, s.raw("GET", path+"?format=csv", w.builder, nil), http.StatusForbidden, path)

	// A rebuilt read model exports the same bytes.
	res, err := projections.Rebuilder{DB: s.Platform.DB, Registry: s.Platform.Reg, BatchSize: 5}.Rebuild(context.Background(),
		projhackathon.Projector{})
	if err != nil || res.Applied == 0 {
		t.Fatalf("rebuild: %+v %v", res, err)
	}
	if again := s.raw("GET", path, w.org, nil); !bytes.Equal(again.Raw, js.Raw) {
		t.Fatalf("json export after a rebuild differs:\n%s\nbefore:\n%s", again.Raw, js.Raw)
	}
	if again := s.raw("GET", path+"?format=csv", w.org, nil); !bytes.Equal(again.Raw, c.Raw) {
		t.Fatalf("csv export after a rebuild differs:\n%s\nbefore:\n%s", again.Raw, c.Raw)
	}
}
