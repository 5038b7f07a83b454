package builder

import (
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/readapi/httpx"
)

type enrollRequest struct {
	CompanyID   string               `json:"companyId"`
	CompanyName string               `json:"companyName"`
	Track       string               `json:"track"`
	Goal        string               `json:"goal"`
	TimeZone    string               `json:"timeZone"`
	Window      *builder.Window      `json:"window"`
	Budget      *builder.BudgetInput `json:"budget"`
}

type enrollmentView struct {
	CompanyID   string         `json:"companyId"`
	Enrolled    bool           `json:"enrolled"`
	Updated     bool           `json:"updated"`
	CompanyName string         `json:"companyName"`
	Track       string         `json:"track"`
	Goal        *string        `json:"goal"`
	Window      builder.Window `json:"window"`
	TimeZone    string         `json:"time_zone"`
	Budget      builder.Budget `json:"budget"`
	NextRunAt   time.Time      `json:"next_run_at"`
	EnrolledAt  time.Time      `json:"enrolled_at"`
	Mode        string         `json:"mode"`
}

func enrollmentOf(e cmd.Enrollment) enrollmentView {
	return enrollmentView{CompanyID: e.CompanyID, Enrolled: true, Updated: e.Updated, CompanyName: e.CompanyName, Track: e.Track,
		Goal: optional(e.Goal), Window: e.Window, TimeZone: e.TimeZone, Budget: e.Budget, NextRunAt: e.NextRunAt.UTC(),
		EnrolledAt: e.At.UTC(), Mode: builder.NightlyOffline}
}

// enroll serves POST /api/build/enroll (session): {companyId, companyName,
// track (app|company)} required; goal, timeZone (IANA, default UTC),
// window {start, end} (HH:MM, default 02:00-05:00) and budget
// {max_proposals, max_drafts, max_tokens, max_seconds} optional. 200 with
// the enrollment and next_run_at; enrolling again replaces it (updated).
func enroll(n *cmd.Nightly) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req enrollRequest
		if err := httpx.DecodeJSON(r, &req); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		fs, _ := Founder(r.Context())
		e, err := n.Enroll(r.Context(), fs.UserID, req.CompanyID, builder.EnrollInput{CompanyName: req.CompanyName, Track: req.Track,
			Goal: req.Goal, TimeZone: req.TimeZone, Window: req.Window, Budget: req.Budget})
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		_ = httpx.WriteJSON(w, http.StatusOK, enrollmentOf(e))
	})
}

// nightlyReports serves GET /api/build/nightly?companyId= (session): the
// enrollment (null when not enrolled) and the latest reports, newest
// first, as recorded (builder.nightly_reported).
func nightlyReports(n *cmd.Nightly) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs, _ := Founder(r.Context())
		companyID := r.URL.Query().Get("companyId")
		v, err := n.Reports(r.Context(), fs.UserID, companyID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		var e *enrollmentView
		if v.Enrollment != nil {
			ev := enrollmentOf(*v.Enrollment)
			e = &ev
		}
		w.Header().Set("Cache-Control", "no-store")
		_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"companyId": companyID, "enrolled": e != nil, "enrollment": e,
			"reports": v.Reports})
	})
}
