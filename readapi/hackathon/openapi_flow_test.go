package hackathon_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"

	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
)

// oaMultipart is a multipart/form-data body with one file part.
func oaMultipart(t *testing.T, name string, content []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("file", name)
	if err == nil {
		_, err = fw.Write(content)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), b.Bytes()
}

// TestOpenAPIResponsesConform drives the live surface through a
// hackathon's life (create, tracks, prizes, judges, LIVE, joins, teams,
// submissions and files, rubrics, scores, recusals, assignments, the
// leaderboards, pairwise judging, search, dashboards, analytics and the
// export) and checks every request and answer against openapi.json.
func TestOpenAPIResponsesConform(t *testing.T) {
	s := newServer(t)
	v := newConformance(t, s)
	tok := func(email string) (oaCred, string) {
		bearer, uid := s.user(t, email)
		return oaCred{bearer: bearer}, uid
	}
	org, orgID := tok("org@conform.test")
	co, coID := tok("co@conform.test")
	b1, _ := tok("b1@conform.test")
	b2, _ := tok("b2@conform.test")
	b3, b3ID := tok("b3@conform.test")
	mentor, mentorID := tok("mentor@conform.test")
	stranger, _ := tok("stranger@conform.test")
	anon := oaCred{}
	orgKey := oaCred{key: s.apiKey(t, orgID)}

	v.call(anon, "GET", "/openapi.json", nil, http.StatusOK)
	v.call(anon, "GET", "/docs", nil, http.StatusOK)
	h := oaID(t, v.call(org, "POST", base, map[string]any{"name": "Conform Hack", "description": "Tools for open data.",
		"start_date": "2026-05-01", "end_date": "2026-05-03T18:00:00Z", "location": "Berlin", "max_participants": 50}, http.StatusCreated))
	hp := base + "/" + h
	v.call(orgKey, "GET", base+"?status=DRAFT&limit=5", nil, http.StatusOK)
	v.call(org, "GET", hp, nil, http.StatusOK)
	v.call(org, "PATCH", hp, map[string]any{"is_online": true, "max_participants": nil}, http.StatusOK)
	v.call(org, "POST", hp+"/organizers", map[string]any{"user_id": coID}, http.StatusOK)
	v.call(co, "DELETE", hp+"/organizers/"+coID, nil, http.StatusNoContent)

	track := oaID(t, v.call(org, "POST", hp+"/tracks", map[string]any{"name": "Open Data", "color": "#3366CC"}, http.StatusCreated))
	spare := oaID(t, v.call(org, "POST", hp+"/tracks", map[string]any{"name": "Spare"}, http.StatusCreated))
	v.call(org, "GET", hp+"/tracks", nil, http.StatusOK)
	v.call(org, "GET", hp+"/tracks/"+track, nil, http.StatusOK)
	v.call(org, "PATCH", hp+"/tracks/"+track, map[string]any{"description": "Data everyone may use."}, http.StatusOK)
	v.call(org, "DELETE", hp+"/tracks/"+spare, nil, http.StatusNoContent)
	prize := oaID(t, v.call(org, "POST", hp+"/prizes", map[string]any{"name": "Best data tool", "amount": 500, "currency": "EUR",
		"track_id": track}, http.StatusCreated))
	other := oaID(t, v.call(org, "POST", hp+"/prizes", map[string]any{"name": "Honourable mention"}, http.StatusCreated))
	v.call(org, "GET", hp+"/prizes", nil, http.StatusOK)
	v.call(org, "GET", hp+"/prizes/"+prize, nil, http.StatusOK)
	v.call(org, "PATCH", hp+"/prizes/"+prize, map[string]any{"amount": "750.50"}, http.StatusOK)
	v.call(org, "DELETE", hp+"/prizes/"+other, nil, http.StatusNoContent)

	// Judges are invited while DRAFT and accept through the mailed token.
	var judges []oaCred
	var judgeIDs []string
	for _, email := range []string{"j1@conform.test", "j2@conform.test", "j3@conform.test"} {
		j, jid := tok(email)
		judges, judgeIDs = append(judges, j), append(judgeIDs, jid)
	}
	v.call(org, "POST", hp+"/invite-judges", map[string]any{"emails": []string{"j1@conform.test", "j2@conform.test", "j3@conform.test"}},
		http.StatusCreated)
	for i, j := range judges {
		token := s.invitation(t, []string{"j1@conform.test", "j2@conform.test", "j3@conform.test"}[i])
		v.call(anon, "GET", hp+"/invitations/"+url.PathEscape(token), nil, http.StatusOK)
		v.call(j, "POST", hp+"/join", map[string]any{"role": "judge", "invitation_token": token}, http.StatusCreated)
	}
	v.call(org, "POST", hp+"/status", map[string]any{"status": "LIVE"}, http.StatusOK)

	// Builders, a mentor, teams and members.
	for _, b := range []oaCred{b1, b2, b3} {
		v.call(b, "POST", hp+"/join", map[string]any{"role": "builder"}, http.StatusCreated)
	}
	v.call(b1, "POST", hp+"/join", map[string]any{"role": "builder"}, http.StatusOK)
	v.call(mentor, "POST", hp+"/join", map[string]any{"role": "mentor"}, http.StatusCreated)
	v.call(org, "GET", hp+"/participants?role=builder", nil, http.StatusOK)
	teamA := oaID(t, v.call(b1, "POST", hp+"/teams", map[string]any{"name": "Alpha", "description": "Open data tools."}, http.StatusCreated))
	teamB := oaID(t, v.call(b2, "POST", hp+"/teams", map[string]any{"name": "Beta"}, http.StatusCreated))
	v.call(b1, "POST", hp+"/teams/"+teamA+"/members", map[string]any{"user_id": b3ID}, http.StatusCreated)
	v.call(b3, "DELETE", hp+"/teams/"+teamA+"/members/"+b3ID, nil, http.StatusNoContent)
	v.call(mentor, "POST", hp+"/teams/"+teamB+"/members", map[string]any{"user_id": mentorID, "role": "mentor"}, http.StatusCreated)
	teamC := oaID(t, v.call(b3, "POST", hp+"/teams", map[string]any{"name": "Gamma"}, http.StatusCreated))
	v.call(b3, "PATCH", hp+"/teams/"+teamC, map[string]any{"description": "Short-lived."}, http.StatusOK)
	v.call(stranger, "GET", hp+"/teams", nil, http.StatusOK)
	v.call(stranger, "GET", hp+"/teams/"+teamA, nil, http.StatusOK)

	// Submissions and a file.
	subA := oaID(t, v.call(b1, "POST", hp+"/submissions", map[string]any{"team_id": teamA, "project_name": "Open Lens",
		"description": "A lens on open data.", "track_id": track}, http.StatusCreated))
	subB := oaID(t, v.call(b2, "POST", hp+"/submissions", map[string]any{"team_id": teamB, "project_name": "Beta Map"}, http.StatusCreated))
	subC := oaID(t, v.call(b3, "POST", hp+"/submissions", map[string]any{"team_id": teamC, "project_name": "Gone"}, http.StatusCreated))
	v.call(b3, "DELETE", hp+"/submissions/"+subC, nil, http.StatusNoContent)
	v.call(b3, "DELETE", hp+"/teams/"+teamC, nil, http.StatusNoContent)
	v.call(b1, "PATCH", hp+"/submissions/"+subA, map[string]any{"description": "A lens on open data, for every city."}, http.StatusOK)
	v.call(stranger, "GET", hp+"/submissions?track_id="+track, nil, http.StatusOK)
	v.call(stranger, "GET", hp+"/submissions/"+subA, nil, http.StatusOK)
	ct, body := oaMultipart(t, "notes.txt", []byte("How Open Lens works.\n"))
	file := v.send(b1, "POST", hp+"/submissions/"+subA+"/files", ct, body, http.StatusCreated, true).Body["file_id"].(string)
	v.call(stranger, "GET", hp+"/submissions/"+subA+"/files/"+file, nil, http.StatusOK)
	ct, body = oaMultipart(t, "tool.exe", []byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"))
	v.send(b1, "POST", hp+"/submissions/"+subA+"/files", ct, body, http.StatusUnsupportedMediaType, true)
	v.send(b1, "POST", hp+"/submissions/"+subA+"/files", "text/plain", []byte("not multipart"), http.StatusUnsupportedMediaType, false)

	// Rubrics.
	criteria := []map[string]any{{"key": "impact", "name": "Impact", "weight": 2, "min": 1, "max": 5},
		{"key": "polish", "name": "Polish", "weight": "1", "min": 1, "max": 5}}
	rubric := oaID(t, v.call(org, "POST", hp+"/rubrics", map[string]any{"name": "Main", "criteria": criteria, "is_active": true}, http.StatusCreated))
	draftRubric := oaID(t, v.call(org, "POST", hp+"/rubrics", map[string]any{"name": "Draft", "criteria": criteria[:1],
		"tie_break": []string{"raw_mean", "normalised", "id"}}, http.StatusCreated))
	v.call(org, "GET", hp+"/rubrics", nil, http.StatusOK)
	v.call(judges[0], "GET", hp+"/rubrics/active", nil, http.StatusOK)
	v.call(org, "GET", hp+"/rubrics/"+rubric, nil, http.StatusOK)
	v.call(org, "PATCH", hp+"/rubrics/"+draftRubric, map[string]any{"name": "Draft 2"}, http.StatusOK)
	v.call(org, "DELETE", hp+"/rubrics/"+draftRubric, nil, http.StatusNoContent)

	// Scores, a revision, a recusal.
	score := func(j oaCred, jid, sub string, impact, polish int, want int) {
		v.call(j, "POST", hp+"/judging/scores", map[string]any{"submission_id": sub, "judge_id": jid,
			"scores": map[string]any{"impact": impact, "polish": polish}, "total_score": 2*impact + polish, "feedback": "Good."}, want)
	}
	score(judges[0], judgeIDs[0], subA, 4, 3, http.StatusCreated)
	score(judges[0], judgeIDs[0], subA, 5, 3, http.StatusCreated)
	score(judges[0], judgeIDs[0], subA, 5, 3, http.StatusOK)
	score(judges[0], judgeIDs[0], subB, 2, 2, http.StatusCreated)
	score(judges[1], judgeIDs[1], subA, 3, 3, http.StatusCreated)
	score(judges[1], judgeIDs[1], subB, 4, 4, http.StatusCreated)
	v.call(judges[2], "POST", hp+"/judging/recusals", map[string]any{"submission_id": subB, "reason": "I advised Beta."}, http.StatusCreated)
	v.call(org, "GET", hp+"/judging/scores?submission_id="+subA, nil, http.StatusOK)
	hist := v.call(judges[0], "GET", hp+"/judging/scores/history?submission_id="+subA+"&judge_id="+judgeIDs[0], nil, http.StatusOK)
	if revs, _ := hist.Body["revisions"].([]any); len(revs) != 2 {
		t.Errorf("score history: %d revisions, want 2 (4,3 then 5,3; the identical third is no event): %s", len(revs), hist.Raw)
	}
	v.call(judges[1], "GET", hp+"/judging/scores/history?submission_id="+subA+"&judge_id="+judgeIDs[0], nil, http.StatusForbidden)
	v.call(org, "GET", hp+"/judging/assignments", nil, http.StatusOK)
	v.call(judges[1], "GET", hp+"/judging/assignments?k=2", nil, http.StatusOK)
	v.call(org, "GET", hp+"/judging/leaderboard", nil, http.StatusOK)
	v.call(judges[0], "GET", hp+"/judging/leaderboard?method=raw&track_id="+track+"&limit=10", nil, http.StatusOK)
	v.call(judges[1], "POST", hp+"/judging/pairwise/next", nil, http.StatusOK)
	v.call(judges[1], "POST", hp+"/judging/pairwise/next", nil, http.StatusOK)
	v.call(judges[1], "POST", hp+"/judging/pairwise/votes", map[string]any{"winner": "current"}, http.StatusOK)
	v.call(org, "GET", hp+"/judging/pairwise/leaderboard", nil, http.StatusOK)

	// Search, dashboards, analytics.
	v.call(stranger, "GET", "/api/v1/search?query=open+data&limit=5", nil, http.StatusOK)
	v.call(stranger, "GET", "/api/v1/search/"+h+"?query=lens&track_id="+track, nil, http.StatusOK)
	v.call(org, "GET", "/api/v1/dashboard/organizer", nil, http.StatusOK)
	v.call(b1, "GET", "/api/v1/dashboard/builder", nil, http.StatusOK)
	v.call(b3, "GET", "/api/v1/dashboard/builder", nil, http.StatusOK)
	v.call(judges[0], "GET", "/api/v1/dashboard/judge", nil, http.StatusOK)
	v.call(org, "GET", "/api/v1/dashboard/"+h+"/overview", nil, http.StatusOK)
	v.call(stranger, "GET", "/api/v1/dashboard/"+h+"/overview", nil, http.StatusOK)
	v.call(judges[1], "GET", hp+"/analytics/stats", nil, http.StatusOK)
	v.call(org, "GET", hp+"/analytics/export", nil, http.StatusOK)
	v.call(org, "GET", hp+"/analytics/export?format=csv", nil, http.StatusOK)

	// The error body on each status.
	v.call(stranger, "GET", "/api/v1/search", nil, http.StatusBadRequest, true)
	v.call(org, "GET", hp+"/analytics/export?format=xml", nil, http.StatusBadRequest, true)
	v.call(org, "POST", base, map[string]any{"name": "No dates"}, http.StatusBadRequest, true)
	v.call(anon, "GET", base, nil, http.StatusUnauthorized)
	v.call(b1, "GET", hp+"/analytics/stats", nil, http.StatusForbidden)
	v.call(judges[1], "POST", hp+"/judging/scores", map[string]any{"submission_id": subB, "judge_id": judgeIDs[0],
		"scores": map[string]any{"impact": 1, "polish": 1}, "total_score": 3}, http.StatusForbidden)
	v.call(stranger, "GET", base+"/0190d3a4-0000-7000-8000-000000000000", nil, http.StatusNotFound)
	v.call(org, "POST", hp+"/status", map[string]any{"status": "DRAFT"}, http.StatusConflict)
	v.call(b1, "POST", hp+"/teams", map[string]any{"name": "Second"}, http.StatusConflict)
	v.call(b1, "POST", hp+"/submissions", map[string]any{"team_id": teamA, "project_name": "Again"}, http.StatusConflict)
	v.call(org, "PATCH", hp+"/rubrics/"+rubric, map[string]any{"criteria": criteria[:1]}, http.StatusConflict)
	v.call(judges[1], "POST", hp+"/judging/scores", map[string]any{"submission_id": subA, "judge_id": judgeIDs[1],
		"scores": map[string]any{"impact": 5, "polish": 5}, "total_score": 14}, http.StatusUnprocessableEntity)
	v.call(judges[1], "POST", hp+"/judging/scores", map[string]any{"submission_id": subA, "judge_id": judgeIDs[1],
		"scores": map[string]any{"impact": 9, "polish": 5}, "total_score": 23}, http.StatusUnprocessableEntity)
	v.call(org, "POST", hp+"/status", map[string]any{"status": "COMPLETED"}, http.StatusOK)
	v.call(stranger, "GET", hp+"/judging/leaderboard", nil, http.StatusOK)
	v.call(b2, "PATCH", hp+"/submissions/"+subB, map[string]any{"project_name": "Late"}, http.StatusConflict)

	// 429 with Retry-After, on a surface limited to 2 requests a minute.
	small := newServerWith(t, options{Limiter: readhackathon.NewLimiter(2, nil)})
	sv := newConformance(t, small)
	bearer, _ := small.user(t, "busy@conform.test")
	for range 2 {
		sv.call(oaCred{bearer: bearer}, "GET", base, nil, http.StatusOK)
	}
	if r := sv.call(oaCred{bearer: bearer}, "GET", base, nil, http.StatusTooManyRequests); r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}

	// Every operation was called.
	called := map[string]bool{}
	for k := range v.seen {
		called[k[:len(k)-4]] = true
	}
	doc := loadSpec(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !called[op.OperationID] {
				t.Errorf("%s %s (%s) was not called by the conformance flow", method, path, op.OperationID)
			}
		}
	}
}
