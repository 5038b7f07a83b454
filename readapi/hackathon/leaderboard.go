package hackathon

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/jackc/pgx/v5/stdlib"

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
	v, err := a.boards.Leaderboard(r.Context(), hid(r), method, track, limit, offset)
	writeJSON(w, r, http.StatusOK, v, err)
}

// Leaderboard reads and ranks a hackathon's leaderboard from the read
// model (method zscore or raw; track "" for overall), without a cache.
func Leaderboard(ctx context.Context, db *stdsql.DB, id, method, track string, limit, offset int) (leaderboardView, error) {
	return (&Boards{db: db}).Leaderboard(ctx, id, method, track, limit, offset)
}

// ranking is a computed leaderboard: every ranked entry and what the page
// around them says.
type ranking struct {
	ladder   []string
	top      *string
	ranked   []judging.Ranked
	unscored int
	below    []string
}

type boardKey struct {
	id, method, track string
	version           int64
}

// Boards computes leaderboards and keeps the latest ones of this process,
// each under the read model's results_version of its hackathon, which
// every change of a score, a submission or the active rubric moves: a
// request reads the version (one row) and computes the ranking again only
// when it moved. Pages and project names are read per request.
type Boards struct {
	db    *stdsql.DB
	cache *lru.Cache[boardKey, *ranking] // nil: no cache
}

// NewBoards returns leaderboards over db keeping up to size rankings.
func NewBoards(db *stdsql.DB, size int) *Boards {
	c, err := lru.New[boardKey, *ranking](size)
	if err != nil {
		panic(err) // only for size <= 0
	}
	return &Boards{db: db, cache: c}
}

// Leaderboard returns one page of a hackathon's leaderboard.
func (b *Boards) Leaderboard(ctx context.Context, id, method, track string, limit, offset int) (leaderboardView, error) {
	v := leaderboardView{HackathonID: id, Method: method, Entries: []entryView{}, Limit: limit, Offset: offset, Notes: leaderboardNotes}
	if track != "" {
		v.TrackID = &track
	}
	key := boardKey{id: id, method: method, track: track}
	var top, ladderJSON stdsql.NullString
	err := b.db.QueryRowContext(ctx, `SELECT h.results_version, ar.top_criterion, array_to_json(ar.ladder)::text
		FROM rm_hackathon_v1.hackathons h LEFT JOIN rm_hackathon_v1.active_rubrics ar ON ar.hackathon_id = h.hackathon_id
		WHERE h.hackathon_id = $1`, id).Scan(&key.version, &top, &ladderJSON)
	if err != nil && err != stdsql.ErrNoRows {
		return v, err
	}
	var rk *ranking
	if b.cache != nil {
		rk, _ = b.cache.Get(key)
	}
	if rk == nil {
		if rk, err = b.rank(ctx, id, method, track, top, ladderJSON); err != nil {
			return v, err
		}
		if b.cache != nil {
			b.cache.Add(key, rk)
		}
	}
	v.Ladder, v.TopCriterion, v.Unscored, v.JudgesBelowMin, v.Total = rk.ladder, rk.top, rk.unscored, rk.below, len(rk.ranked)
	page := rk.ranked[min(offset, len(rk.ranked)):min(len(rk.ranked), offset+limit)]
	details, err := pageDetails(ctx, b.db, page)
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

// rank reads the results and ranks them by the published ladder.
func (b *Boards) rank(ctx context.Context, id, method, track string, top, ladderJSON stdsql.NullString) (*ranking, error) {
	rk := &ranking{ladder: judging.DefaultLadder()}
	if ladderJSON.Valid {
		if err := json.Unmarshal([]byte(ladderJSON.String), &rk.ladder); err != nil {
			return nil, err
		}
	}
	if top.Valid {
		t := top.String
		rk.top = &t
	}
	// One row per submission of the hackathon (or the track), in id order
	// (the order judging.Rank sorts by first); the names are read for the
	// page's entries alone.
	q, args := `SELECT submission_id, n, raw_mean, z_mean, top_mean, submitted_at FROM rm_hackathon_v1.results
		WHERE hackathon_id = $1`, []any{id}
	if track != "" {
		q, args = q+` AND track_id = $2::uuid`, append(args, track)
	}
	entries, unscored, err := readResults(ctx, b.db, q+` ORDER BY submission_id`, args...)
	if err != nil {
		return nil, err
	}
	rk.unscored = unscored
	if rk.below, err = judgesBelowMin(ctx, b.db, id); err != nil {
		return nil, err
	}
	if rk.ranked, err = judging.Rank(entries, method, rk.ladder); err != nil {
		return nil, err
	}
	if method == judging.MethodRaw {
		rk.ladder = append([]string{judging.RungRawMean}, slices.DeleteFunc(slices.Clone(rk.ladder), func(s string) bool { return s == judging.RungRawMean })...)
	}
	return rk, nil
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

// readResults reads the results rows of q (submission_id, n, raw_mean,
// z_mean, top_mean, submitted_at) as ranking entries, through pgx's own
// interface on the pool's connection (binary values, no database/sql
// conversions: a third of the leaderboard's time at 5,000 rows went to
// them); rows without scores are counted, not returned.
func readResults(ctx context.Context, db *stdsql.DB, q string, args ...any) ([]judging.Entry, int, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	var entries []judging.Entry
	unscored := 0
	err = conn.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("leaderboard: driver connection %T is not pgx's", dc)
		}
		rows, err := pc.Conn().Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id [16]byte
		var top *float64
		var e judging.Entry
		for rows.Next() {
			if err := rows.Scan(&id, &e.Scores, &e.RawMean, &e.ZMean, &top, &e.SubmittedAt); err != nil {
				return err
			}
			if e.Scores == 0 {
				unscored++
				continue
			}
			e.SubmissionID = uuid.UUID(id).String()
			e.TopCriterion, e.HasTopCriterion = 0, top != nil
			if top != nil {
				e.TopCriterion = *top
			}
			entries = append(entries, e)
		}
		return rows.Err()
	})
	return entries, unscored, err
}
