package hackathon

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// judgeStatsView is one judge's scoring: how many current scores (of live
// submissions) and their mean total (null without scores).
type judgeStatsView struct {
	JudgeID      string   `json:"judge_id"`
	Scores       int      `json:"scores"`
	AverageTotal *float64 `json:"average_total"`
}

// statsView is GET .../analytics/stats. AverageTeamSize counts members
// (builders and mentors) per team; AverageTotalScore is the mean of the
// current totals; AverageScoresPerJudge is scores over judges (0 without
// judges).
type statsView struct {
	HackathonID           string           `json:"hackathon_id"`
	Status                string           `json:"status"`
	Participants          roleCounts       `json:"participants"`
	Teams                 int              `json:"teams"`
	AverageTeamSize       float64          `json:"average_team_size"`
	Submissions           int              `json:"submissions"`
	SubmissionsByTrack    []trackCount     `json:"submissions_by_track"`
	Scores                int              `json:"scores"`
	AverageTotalScore     *float64         `json:"average_total_score"`
	AverageScoresPerJudge float64          `json:"average_scores_per_judge"`
	Judges                []judgeStatsView `json:"judges"`
	Judging               judgingProgress  `json:"judging"`
}

// stats is GET .../analytics/stats, for organisers and judges, from the
// hackathon's fold.
func (a *API) stats(w http.ResponseWriter, r *http.Request, c caller) {
	var v statsView
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		if !h.IsOrganizer(c.UserID) && !h.HasRole(c.UserID, hackathon.RoleJudge) {
			return kernel.Forbidden("analytics are for the hackathon's organisers and judges")
		}
		v = statsOf(h)
		return nil
	})
	writeJSON(w, r, http.StatusOK, v, err)
}

func statsOf(h *hackathon.Hackathon) statsView {
	o := overviewOf(h, "")
	v := statsView{HackathonID: h.ID, Status: h.Status, Participants: o.Participants, Teams: o.Teams, Submissions: o.Submissions,
		SubmissionsByTrack: o.SubmissionsByTrack, Scores: o.Scores, Judging: o.Judging, Judges: []judgeStatsView{}}
	members := 0
	for _, t := range h.Teams {
		members += len(t.Members)
	}
	if len(h.Teams) > 0 {
		v.AverageTeamSize = float64(members) / float64(len(h.Teams))
	}
	sums := map[string]float64{}
	var all float64
	for key, s := range h.Scores {
		if h.Submissions[key.SubmissionID] != nil {
			x := hackathon.DecimalFloat(s.Total)
			sums[key.JudgeID] += x
			all += x
		}
	}
	if v.Scores > 0 {
		mean := all / float64(v.Scores)
		v.AverageTotalScore = &mean
	}
	for _, jc := range judgeCounts(h) {
		js := judgeStatsView{JudgeID: jc.JudgeID, Scores: jc.Scores}
		if jc.Scores > 0 {
			mean := sums[jc.JudgeID] / float64(jc.Scores)
			js.AverageTotal = &mean
		}
		v.Judges = append(v.Judges, js)
	}
	if len(v.Judges) > 0 {
		v.AverageScoresPerJudge = float64(v.Scores) / float64(len(v.Judges))
	}
	return v
}

// Export formats.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// export is GET .../analytics/export?format=json|csv, for organisers: the
// participants, teams, submissions, current scores and z-score leaderboard
// from the read model, sorted by id (the leaderboard by rank), so a
// rebuilt read model exports the same bytes.
func (a *API) export(w http.ResponseWriter, r *http.Request, c caller) {
	format, err := enumParam(r, "format", FormatJSON, FormatCSV)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	err = a.view(r, c, func(h *hackathon.Hackathon) error {
		if !h.IsOrganizer(c.UserID) {
			return kernel.Forbidden("only the hackathon's organisers may export it")
		}
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := readExport(r.Context(), a.db, hid(r))
	if err != nil || format != FormatCSV {
		writeJSON(w, r, http.StatusOK, v, err)
		return
	}
	var b bytes.Buffer
	if err := writeCSV(&b, v); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="hackathon-`+v.HackathonID+`.csv"`)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}
