package hackathon

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/readapi/apidocs"
)

// Routes adds the hackathon routes to the hackathon surface's router.
func Routes(r *mux.Router, cfg Config) *API {
	if cfg.Limiter == nil {
		cfg.Limiter = NewLimiter(DefaultRate, nil)
	}
	a := &API{svc: cfg.Service, db: cfg.DB, auth: cfg.Auth, limit: cfg.Limiter, boards: NewBoards(cfg.DB, 64)}
	get, post, patch, del := http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete
	const hs = "/api/v1/hackathons"
	const h = hs + "/{hackathon_id}"

	r.HandleFunc("/openapi.json", OpenAPI).Methods(get)
	r.Handle("/docs", apidocs.Handler("Strata hackathon API", "/openapi.json")).Methods(get)
	r.Handle(hs, a.need(a.createHackathon)).Methods(post)
	r.Handle(hs, a.need(a.listHackathons)).Methods(get)
	r.Handle(h, a.need(a.getHackathon)).Methods(get)
	r.Handle(h, a.need(a.patchHackathon)).Methods(patch)
	r.Handle(h+"/status", a.need(a.setStatus)).Methods(post)
	r.Handle(h+"/organizers", a.need(a.addOrganizer)).Methods(post)
	r.Handle(h+"/organizers/{user_id}", a.need(a.removeOrganizer)).Methods(del)

	// Full-text search: /search before /search/{hackathon_id}.
	r.Handle("/api/v1/search", a.need(a.search)).Methods(get)
	r.Handle("/api/v1/search/{hackathon_id}", a.need(a.searchHackathon)).Methods(get)

	// Dashboards: the fixed paths before /dashboard/{hackathon_id}/overview.
	r.Handle("/api/v1/dashboard/organizer", a.need(a.organizerDashboard)).Methods(get)
	r.Handle("/api/v1/dashboard/builder", a.need(a.builderDashboard)).Methods(get)
	r.Handle("/api/v1/dashboard/judge", a.need(a.judgeDashboard)).Methods(get)
	r.Handle("/api/v1/dashboard/{hackathon_id}/overview", a.need(a.overview)).Methods(get)
	r.Handle(h+"/analytics/stats", a.need(a.stats)).Methods(get)
	r.Handle(h+"/analytics/export", a.need(a.export)).Methods(get)

	resource(r, a, h+"/tracks", "/{track_id}", a.tracks())
	resource(r, a, h+"/prizes", "/{prize_id}", a.prizes())

	r.Handle(h+"/join", a.need(a.join)).Methods(post)
	r.Handle(h+"/participants", a.need(a.participants)).Methods(get)
	r.Handle(h+"/invite-judges", a.need(a.inviteJudges)).Methods(post)
	r.Handle(h+"/invitations/{token}", http.HandlerFunc(a.invitation)).Methods(get)

	resource(r, a, h+"/teams", "/{team_id}", a.teams())
	r.Handle(h+"/teams/{team_id}/members", a.need(a.addMember)).Methods(post)
	r.Handle(h+"/teams/{team_id}/members/{user_id}", a.need(a.removeMember)).Methods(del)

	subs := a.submissions()
	create, _, getOne, patchOne, delOne := subs.handlers(a)
	r.Handle(h+"/submissions", a.need(create)).Methods(post)
	r.Handle(h+"/submissions", a.need(a.listSubmissions)).Methods(get)
	r.Handle(h+"/submissions/{submission_id}", a.need(getOne)).Methods(get)
	r.Handle(h+"/submissions/{submission_id}", a.need(patchOne)).Methods(patch)
	r.Handle(h+"/submissions/{submission_id}", a.need(delOne)).Methods(del)
	r.Handle(h+"/submissions/{submission_id}/files", a.need(a.uploadFile)).Methods(post)
	r.Handle(h+"/submissions/{submission_id}/files/{file_id}", a.need(a.downloadFile)).Methods(get)

	r.Handle(h+"/rubrics", a.need(a.createRubric)).Methods(post)
	r.Handle(h+"/rubrics", a.need(a.listRubrics)).Methods(get)
	r.Handle(h+"/rubrics/active", a.need(a.activeRubric)).Methods(get)
	r.Handle(h+"/rubrics/{rubric_id}", a.need(a.getRubric)).Methods(get)
	r.Handle(h+"/rubrics/{rubric_id}", a.need(a.patchRubric)).Methods(patch)
	r.Handle(h+"/rubrics/{rubric_id}", a.need(a.deleteRubric)).Methods(del)

	r.Handle(h+"/judging/scores", a.need(a.postScore)).Methods(post)
	r.Handle(h+"/judging/scores", a.need(a.listScores)).Methods(get)
	r.Handle(h+"/judging/scores/history", a.need(a.scoreHistory)).Methods(get)
	r.Handle(h+"/judging/recusals", a.need(a.recuse)).Methods(post)
	r.Handle(h+"/judging/assignments", a.need(a.assignments)).Methods(get)
	r.Handle(h+"/judging/leaderboard", a.need(a.leaderboard)).Methods(get)
	r.Handle(h+"/judging/pairwise/next", a.need(a.pairNext)).Methods(post)
	r.Handle(h+"/judging/pairwise/votes", a.need(a.pairVote)).Methods(post)
	r.Handle(h+"/judging/pairwise/leaderboard", a.need(a.pairLeaderboard)).Methods(get)
	return a
}

// resource adds the five routes of a fold-kept sub-resource.
func resource[V any](r *mux.Router, a *API, base, item string, res resourceDef[V]) {
	create, list, get, patch, del := res.handlers(a)
	r.Handle(base, a.need(create)).Methods(http.MethodPost)
	r.Handle(base, a.need(list)).Methods(http.MethodGet)
	r.Handle(base+item, a.need(get)).Methods(http.MethodGet)
	r.Handle(base+item, a.need(patch)).Methods(http.MethodPatch)
	r.Handle(base+item, a.need(del)).Methods(http.MethodDelete)
}
