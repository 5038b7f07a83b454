package hackathon

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

func sortScores(all []scoreView) {
	slices.SortFunc(all, func(a, b scoreView) int {
		if c := strings.Compare(a.SubmissionID, b.SubmissionID); c != 0 {
			return c
		}
		return strings.Compare(a.JudgeID, b.JudgeID)
	})
}

// entryView is one ranked submission.
type entryView struct {
	Rank         int       `json:"rank"`
	SubmissionID string    `json:"submission_id"`
	ProjectName  string    `json:"project_name"`
	TeamID       string    `json:"team_id"`
	TrackID      *string   `json:"track_id"`
	Normalised   float64   `json:"normalized_score"`
	RawMean      float64   `json:"raw_mean"`
	TopCriterion *float64  `json:"top_criterion_mean"`
	ScoreCount   int       `json:"score_count"`
	SubmittedAt  time.Time `json:"submitted_at"`
	SeparatedBy  *string   `json:"separated_by"`
}

// leaderboardView is a leaderboard page.
type leaderboardView struct {
	HackathonID  string      `json:"hackathon_id"`
	Method       string      `json:"method"`
	TrackID      *string     `json:"track_id"`
	Ladder       []string    `json:"ladder"`
	TopCriterion *string     `json:"top_criterion"`
	Entries      []entryView `json:"entries"`
	Total        int         `json:"total"`
	Unscored     int         `json:"unscored"`
	Limit        int         `json:"limit"`
	Offset       int         `json:"offset"`
	Notes        []string    `json:"notes"`
	// JudgesBelowMin are the judges with fewer than 3 scores (their
	// scores count as z = 0).
	JudgesBelowMin []string `json:"judges_below_min_scores"`
}

// leaderboardNotes say how the numbers are made.
var leaderboardNotes = []string{
	"normalized_score is the mean of the submission's per-judge z-scores: (total - judge's mean) / judge's population standard deviation",
	"a judge with zero spread, or with fewer than 3 scores, contributes z = 0 (neither lifts nor sinks); raw_mean counts every score",
	"ties are broken by the active rubric's published ladder; separated_by names the rung that put an entry below the one above it",
	"submissions without scores are not ranked (unscored)",
}

// leaderboard ranks the scored submissions from the read model. Organisers
// and judges see it at any time; everyone else who may see the hackathon
// once it is COMPLETED.
func (a *API) leaderboard(w http.ResponseWriter, r *http.Request, c caller) {
	method, err := enumParam(r, "method", judging.MethodZScore, judging.MethodRaw)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if method == "" {
		method = judging.MethodZScore
	}
	limit, err := intParam(r, "limit", 100, 1, 1000)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	offset, err := intParam(r, "offset", 0, 0, maxOffset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	track := r.URL.Query().Get("track_id")
	err = a.view(r, c, func(h *hackathon.Hackathon) error {
		if !h.IsOrganizer(c.UserID) && !h.HasRole(c.UserID, hackathon.RoleJudge) && h.Status != hackathon.StatusCompleted {
			return kernel.Forbidden("the leaderboard is for organisers and judges until the hackathon is COMPLETED")
		}
		if _, ok := h.Tracks[track]; track != "" && !ok {
			return hackathon.TrackNotFound(track)
		}
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := Leaderboard(r.Context(), a.db, hid(r), method, track, limit, offset)
	writeJSON(w, r, http.StatusOK, v, err)
}

// Leaderboard reads and ranks a hackathon's leaderboard from the read
// model (method zscore or raw; track "" for overall).
func Leaderboard(ctx context.Context, db *stdsql.DB, id, method, track string, limit, offset int) (leaderboardView, error) {
	v := leaderboardView{HackathonID: id, Method: method, Entries: []entryView{}, Limit: limit, Offset: offset, Notes: leaderboardNotes}
	if track != "" {
		v.TrackID = &track
	}
	ladder := judging.DefaultLadder()
	var top, ladderJSON stdsql.NullString
	err := db.QueryRowContext(ctx, `SELECT top_criterion, array_to_json(ladder)::text FROM rm_hackathon_v1.active_rubrics
		WHERE hackathon_id = $1`, id).Scan(&top, &ladderJSON)
	if err != nil && err != stdsql.ErrNoRows {
		return v, err
	}
	if ladderJSON.Valid {
		if err := json.Unmarshal([]byte(ladderJSON.String), &ladder); err != nil {
			return v, err
		}
	}
	if top.Valid {
		v.TopCriterion = &top.String
	}
	// One row per submission of the hackathon (or the track), in id order
	// (the order judging.Rank sorts by first); the names are read for the
	// page's entries alone.
	q, args := `SELECT submission_id, n, raw_mean, z_mean, top_mean, submitted_at FROM rm_hackathon_v1.results
		WHERE hackathon_id = $1`, []any{id}
	if track != "" {
		q, args = q+` AND track_id = $2::uuid`, append(args, track)
	}
	rows, err := db.QueryContext(ctx, q+` ORDER BY submission_id`, args...)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	var entries []judging.Entry
	for rows.Next() {
		var e judging.Entry
		var topMean stdsql.NullFloat64
		if err := rows.Scan(&e.SubmissionID, &e.Scores, &e.RawMean, &e.ZMean, &topMean, &e.SubmittedAt); err != nil {
			return v, err
		}
		if e.Scores == 0 {
			v.Unscored++
			continue
		}
		e.TopCriterion, e.HasTopCriterion = topMean.Float64, topMean.Valid
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return v, err
	}
	rows.Close()
	if v.JudgesBelowMin, err = judgesBelowMin(ctx, db, id); err != nil {
		return v, err
	}
	ranked, err := judging.Rank(entries, method, ladder)
	if err != nil {
		return v, err
	}
	v.Ladder = ladder
	if method == judging.MethodRaw {
		v.Ladder = append([]string{judging.RungRawMean}, slices.DeleteFunc(slices.Clone(ladder), func(s string) bool { return s == judging.RungRawMean })...)
	}
	v.Total = len(ranked)
	page := ranked[min(offset, len(ranked)):min(len(ranked), offset+limit)]
	details, err := pageDetails(ctx, db, page)
	if err != nil {
		return v, err
	}
	for _, x := range page {
		d := details[x.SubmissionID]
		d.Rank, d.SubmissionID, d.Normalised, d.RawMean, d.ScoreCount = x.Rank, x.SubmissionID, x.ZMean, x.RawMean, x.Scores
		d.SubmittedAt = x.SubmittedAt.UTC()
		if x.HasTopCriterion {
			top := x.TopCriterion
			d.TopCriterion = &top
		}
		if x.SeparatedBy != "" {
			s := x.SeparatedBy
			d.SeparatedBy = &s
		}
		v.Entries = append(v.Entries, d)
	}
	return v, nil
}

// pageDetails reads the project name, team and track of a page's entries.
func pageDetails(ctx context.Context, db *stdsql.DB, page []judging.Ranked) (map[string]entryView, error) {
	out := make(map[string]entryView, len(page))
	if len(page) == 0 {
		return out, nil
	}
	ids := make([]string, len(page))
	for i, x := range page {
		ids[i] = x.SubmissionID
	}
	rows, err := db.QueryContext(ctx, `SELECT r.submission_id, s.project_name, s.team_id, r.track_id
		FROM rm_hackathon_v1.results r JOIN rm_hackathon_v1.submissions s ON s.submission_id = r.submission_id
		WHERE r.submission_id = ANY($1::uuid[])`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var d entryView
		var trackID stdsql.NullString
		if err := rows.Scan(&id, &d.ProjectName, &d.TeamID, &trackID); err != nil {
			return nil, err
		}
		if trackID.Valid {
			d.TrackID = &trackID.String
		}
		out[id] = d
	}
	return out, rows.Err()
}

func judgesBelowMin(ctx context.Context, db *stdsql.DB, id string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT judge_id FROM rm_hackathon_v1.judge_stats WHERE hackathon_id = $1 AND n < $2
		ORDER BY judge_id COLLATE "C"`, id, judging.MinScoresForZ)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var j string
		if err := rows.Scan(&j); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
