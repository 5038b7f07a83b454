package audit

import (
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/domain/audit"
	"github.com/strata-platform/strata/domain/kernel"
	projaudit "github.com/strata-platform/strata/projections/audit"
	"github.com/strata-platform/strata/readapi/httpx"
)

// CheckSummary is a check as the seed shapes it (no findings).
type CheckSummary struct {
	Name     string `json:"name"`
	Passed   bool   `json:"passed"`
	Score    int    `json:"score"`
	MaxScore int    `json:"max_score"`
	Details  string `json:"details"`
}

// ScanSummary is a scan as the seed shapes it: the findings and their
// fixes are the full report's (unlock).
type ScanSummary struct {
	URL           string         `json:"url"`
	Score         int            `json:"score"`
	MaxScore      int            `json:"max_score"`
	Grade         string         `json:"grade"`
	ScannedAt     time.Time      `json:"scanned_at"`
	RubricVersion string         `json:"rubric_version"`
	Checks        []CheckSummary `json:"checks"`
}

func summary(s audit.Scan) ScanSummary {
	out := ScanSummary{URL: s.URL, Score: s.Score, MaxScore: s.MaxScore, Grade: s.Grade, ScannedAt: s.ScannedAt,
		RubricVersion: s.RubricVersion, Checks: make([]CheckSummary, len(s.Checks))}
	for i, c := range s.Checks {
		out.Checks[i] = CheckSummary{Name: c.Name, Passed: c.Passed, Score: c.Score, MaxScore: c.MaxScore, Details: c.Details}
	}
	return out
}

type urlBody struct {
	URL      string `json:"url"`
	Industry string `json:"industry"`
}

// quick serves POST /ax-audit {url}: the scan, nothing stored.
func (a *API) quick(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL string `json:"url"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	scan, err := a.svc.Quick(r.Context(), body.URL)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, summary(scan))
}

// Report is a stored report as GET reports/{id} shows it.
type Report struct {
	ReportID string `json:"report_id"`
	Industry string `json:"industry"`
	ScanSummary
	Unlocked bool `json:"unlocked"`
	// Findings are every check's findings with evidence and fixes, once
	// the report is unlocked.
	Findings []audit.CheckResult `json:"findings,omitempty"`
	Requests int                 `json:"requests"`
	StoredAt time.Time           `json:"stored_at"`
}

// full serves POST /full {url, industry}: the scan, stored.
func (a *API) full(w http.ResponseWriter, r *http.Request) {
	var body urlBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rep, err := a.svc.Full(r.Context(), body.URL, body.Industry)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Location", Base+"/reports/"+rep.ReportID)
	_ = httpx.WriteJSON(w, http.StatusCreated, Report{ReportID: rep.ReportID, Industry: rep.Industry, ScanSummary: summary(rep.Scan),
		Requests: rep.Requests, StoredAt: rep.At})
}

// report serves GET /reports/{report_id}.
func (a *API) report(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["report_id"]
	rep, err := a.readReport(r, id)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, rep)
}

func (a *API) readReport(r *http.Request, id string) (*Report, error) {
	if len(id) != 36 || !isUUID(id) {
		return nil, &kernel.Error{Kind: kernel.KindNotFound, Field: "report_id", Rule: "exists", Message: "no report " + id}
	}
	var rep Report
	var raw []byte
	err := a.cfg.DB.QueryRowContext(r.Context(), `SELECT report_id::text, industry, scan, unlocked, requests, stored_at
		FROM `+projaudit.Schema+`.reports WHERE report_id = $1`, id).Scan(&rep.ReportID, &rep.Industry, &raw, &rep.Unlocked, &rep.Requests, &rep.StoredAt)
	if errors.Is(err, stdsql.ErrNoRows) {
		return nil, &kernel.Error{Kind: kernel.KindNotFound, Field: "report_id", Rule: "exists", Message: "no report " + id}
	}
	if err != nil {
		return nil, err
	}
	var scan audit.Scan
	if err := json.Unmarshal(raw, &scan); err != nil {
		return nil, err
	}
	rep.ScanSummary, rep.StoredAt = summary(scan), rep.StoredAt.UTC()
	if rep.Unlocked {
		rep.Findings = scan.Checks
	}
	return &rep, nil
}

// unlock serves POST /unlock {report_id, email}: the full report.
func (a *API) unlock(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ReportID string `json:"report_id"`
		Email    string `json:"email"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if body.ReportID == "" {
		httpx.WriteError(w, r, kernel.Invalid("report_id", "required", "report_id is required"))
		return
	}
	u, err := a.svc.Unlock(r.Context(), body.ReportID, body.Email)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": "unlocked", "report_id": u.Report.ReportID, "lead_id": u.LeadID,
		"report": Report{ReportID: u.Report.ReportID, Industry: u.Report.Industry, ScanSummary: summary(u.Report.Scan), Unlocked: true,
			Findings: u.Report.Scan.Checks, Requests: u.Report.Requests, StoredAt: u.Report.At}})
}

// leads serves POST /leads.
func (a *API) leads(w http.ResponseWriter, r *http.Request) {
	var body cmd.Lead
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out, err := a.svc.CaptureLead(r.Context(), body)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusCreated, out)
}

// scores reads the latest stored score of each site in an industry.
func (a *API) scores(r *http.Request, industry string) ([]int, error) {
	rows, err := a.cfg.DB.QueryContext(r.Context(), `SELECT DISTINCT ON (host) score FROM `+projaudit.Schema+`.reports
		WHERE industry = $1 ORDER BY host, stored_at DESC`, industry)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// industries serves GET /benchmark: the supported industries and how many
// scans each has.
func (a *API) industries(w http.ResponseWriter, r *http.Request) {
	type row struct {
		Industry  string `json:"industry"`
		Scans     int    `json:"scans"`
		Available bool   `json:"available"`
	}
	counts := map[string]int{}
	rows, err := a.cfg.DB.QueryContext(r.Context(), `SELECT industry, count(DISTINCT host) FROM `+projaudit.Schema+`.reports
		GROUP BY industry`)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var ind string
		var n int
		if err := rows.Scan(&ind, &n); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		counts[ind] = n
	}
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := []row{}
	for _, ind := range audit.Industries() {
		out = append(out, row{Industry: ind, Scans: counts[ind], Available: counts[ind] >= audit.MinBenchmarkScans})
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"industries": out, "minimum_scans": audit.MinBenchmarkScans,
		"method": "the latest stored full scan of each site; quantiles by linear interpolation (type 7)"})
}

func (a *API) industryOf(r *http.Request) (string, error) {
	ind := mux.Vars(r)["industry"]
	if !audit.ValidIndustry(ind) {
		return "", &kernel.Error{Kind: kernel.KindNotFound, Field: "industry", Rule: "enum",
			Message: fmt.Sprintf("no benchmark for %q; GET %s/benchmark lists the industries", ind, Base)}
	}
	return ind, nil
}

// insufficient is the answer below MinBenchmarkScans.
func insufficient(ind string, n int) map[string]any {
	return map[string]any{"industry": ind, "status": "insufficient_data", "scans": n, "minimum_scans": audit.MinBenchmarkScans,
		"avg_score": nil, "p25": nil, "p50": nil, "p75": nil, "p90": nil,
		"message": fmt.Sprintf("%d stored full scans in %s; a benchmark needs at least %d", n, ind, audit.MinBenchmarkScans)}
}

// benchmark serves GET /benchmark/{industry}.
func (a *API) benchmark(w http.ResponseWriter, r *http.Request) {
	ind, err := a.industryOf(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s, err := a.scores(r, ind)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	b, ok := audit.Distribution(ind, s)
	if !ok {
		_ = httpx.WriteJSON(w, http.StatusOK, insufficient(ind, len(s)))
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"industry": b.Industry, "status": "ok", "scans": b.Scans,
		"avg_score": b.AvgScore, "p25": b.P25, "p50": b.P50, "p75": b.P75, "p90": b.P90})
}

// percentile serves GET /benchmark/{industry}/percentile?score=.
func (a *API) percentile(w http.ResponseWriter, r *http.Request) {
	ind, err := a.industryOf(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	raw := r.URL.Query().Get("score")
	score, perr := strconv.Atoi(raw)
	if raw == "" || perr != nil || score < 0 || score > 100 {
		httpx.WriteError(w, r, kernel.Invalid("score", "range:0-100", "score is required: a whole number from 0 to 100"))
		return
	}
	s, err := a.scores(r, ind)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if len(s) < audit.MinBenchmarkScans {
		out := insufficient(ind, len(s))
		out["score"], out["percentile"] = score, nil
		_ = httpx.WriteJSON(w, http.StatusOK, out)
		return
	}
	p := audit.PercentileRank(score, s)
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"score": score, "industry": ind, "percentile": p, "status": "ok", "scans": len(s),
		"message": fmt.Sprintf("A score of %d is above %.1f%% of %d %s sites audited (ties count half).", score, p, len(s), ind)})
}

func isUUID(s string) bool {
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
