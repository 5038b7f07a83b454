package hackathon

import (
	"context"
	stdsql "database/sql"
	"fmt"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
)

// recordScore keeps the judge's latest score, then recomputes that judge's
// statistics and the results of every submission the judge scored (a new
// score moves the judge's mean and spread, so each of their z-scores): the
// numbers judging.Normalise would give over all scores, in the same
// summation order (a judge's totals by submission id, a submission's
// scores by judge id in byte order), hence the same bits after a rebuild.
func recordScore(ctx context.Context, tx *stdsql.Tx, id string, ev *hackathon.ScoreRecorded) error {
	var top stdsql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT top_criterion FROM rubrics WHERE rubric_id = $1`, ev.RubricID).Scan(&top); err != nil && err != stdsql.ErrNoRows {
		return err
	}
	var topScore any
	if v, ok := ev.Scores[top.String]; ok && top.Valid {
		topScore = hackathon.DecimalFloat(v)
	}
	if err := exec(ctx, tx, `INSERT INTO scores (hackathon_id, submission_id, judge_id, rubric_id, total, total_f, top_score, scores,
		feedback, revision, scored_by, scored_at) VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8::jsonb, $9, $10, $11, $12)
		ON CONFLICT (submission_id, judge_id) DO UPDATE SET rubric_id = EXCLUDED.rubric_id, total = EXCLUDED.total,
		total_f = EXCLUDED.total_f, top_score = EXCLUDED.top_score, scores = EXCLUDED.scores, feedback = EXCLUDED.feedback,
		revision = EXCLUDED.revision, scored_by = EXCLUDED.scored_by, scored_at = EXCLUDED.scored_at`,
		id, ev.SubmissionID, ev.JudgeID, ev.RubricID, ev.Total, hackathon.DecimalFloat(ev.Total), topScore,
		scoresJSON(ev.Scores), ev.Feedback, ev.Revision, ev.By, ev.At); err != nil {
		return err
	}
	scored, err := judgeStats(ctx, tx, id, ev.JudgeID)
	if err != nil {
		return err
	}
	return recomputeResults(ctx, tx, scored)
}

// judgeStats recomputes one judge's statistics from their totals and
// returns the submissions the judge scored.
func judgeStats(ctx context.Context, tx *stdsql.Tx, id, judge string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT submission_id, total_f FROM scores WHERE hackathon_id = $1 AND judge_id = $2
		ORDER BY submission_id`, id, judge)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var subs []string
	var totals []float64
	for rows.Next() {
		var s string
		var t float64
		if err := rows.Scan(&s, &t); err != nil {
			return nil, err
		}
		subs, totals = append(subs, s), append(totals, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	st := judging.Stats(judge, totals)
	return subs, exec(ctx, tx, `INSERT INTO judge_stats (hackathon_id, judge_id, n, mean, sd) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (hackathon_id, judge_id) DO UPDATE SET n = EXCLUDED.n, mean = EXCLUDED.mean, sd = EXCLUDED.sd`,
		id, judge, st.N, st.Mean, st.SD)
}

// recomputeResults recomputes the results of the submissions subs (those
// the judge scored). Their scores are found through the primary key: an
// IN (subquery) let the planner scan every hackathon's scores instead.
func recomputeResults(ctx context.Context, tx *stdsql.Tx, subs []string) error {
	rows, err := tx.QueryContext(ctx, `SELECT s.submission_id, s.judge_id, s.total_f, s.top_score, js.n, js.mean, js.sd
		FROM scores s JOIN judge_stats js ON js.hackathon_id = s.hackathon_id AND js.judge_id = s.judge_id
		WHERE s.submission_id = ANY($1::uuid[])
		ORDER BY s.submission_id, s.judge_id COLLATE "C"`, subs)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids []string
	var ns []int
	var raws, zs []float64
	var tops []stdsql.NullFloat64
	var group []judging.Score
	stats := map[string]judging.JudgeStats{}
	var topSum float64
	var topN int
	flush := func() {
		if len(group) == 0 {
			return
		}
		r := judging.ResultOf(group[0].SubmissionID, group, func(j string) judging.JudgeStats { return stats[j] })
		ids, ns, raws, zs = append(ids, r.SubmissionID), append(ns, r.N), append(raws, r.RawMean), append(zs, r.ZMean)
		top := stdsql.NullFloat64{}
		if topN > 0 {
			top = stdsql.NullFloat64{Float64: topSum / float64(topN), Valid: true}
		}
		tops = append(tops, top)
		group, topSum, topN = group[:0], 0, 0
	}
	for rows.Next() {
		var sc judging.Score
		var topScore stdsql.NullFloat64
		var st judging.JudgeStats
		if err := rows.Scan(&sc.SubmissionID, &sc.JudgeID, &sc.Total, &topScore, &st.N, &st.Mean, &st.SD); err != nil {
			return err
		}
		if len(group) > 0 && group[0].SubmissionID != sc.SubmissionID {
			flush()
		}
		st.JudgeID = sc.JudgeID
		stats[sc.JudgeID] = st
		group = append(group, sc)
		if topScore.Valid {
			topSum += topScore.Float64
			topN++
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	flush()
	return updateResults(ctx, tx, ids, ns, raws, zs, tops)
}

func updateResults(ctx context.Context, tx *stdsql.Tx, ids []string, ns []int, raws, zs []float64, tops []stdsql.NullFloat64) error {
	if len(ids) == 0 {
		return nil
	}
	n64 := make([]int64, len(ns))
	for i, n := range ns {
		n64[i] = int64(n)
	}
	topv := make([]*float64, len(tops))
	for i, t := range tops {
		if t.Valid {
			v := t.Float64
			topv[i] = &v
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE results r SET n = u.n, raw_mean = u.raw, z_mean = u.z, top_mean = u.top
		FROM unnest($1::uuid[], $2::int[], $3::float8[], $4::float8[], $5::float8[]) AS u(id, n, raw, z, top)
		WHERE r.submission_id = u.id`, ids, n64, raws, zs, topv)
	if err != nil {
		return fmt.Errorf("update results: %w", err)
	}
	return nil
}
