package hackathon

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// scoreBody is the body of POST .../judging/scores.
type scoreBody struct {
	SubmissionID string            `json:"submission_id"`
	JudgeID      string            `json:"judge_id"`
	Scores       map[string]number `json:"scores"`
	TotalScore   *number           `json:"total_score"`
	Feedback     string            `json:"feedback"`
}

// scoreView is a judge's current score of a submission.
type scoreView struct {
	SubmissionID string                 `json:"submission_id"`
	JudgeID      string                 `json:"judge_id"`
	RubricID     string                 `json:"rubric_id"`
	Scores       map[string]json.Number `json:"scores"`
	TotalScore   json.Number            `json:"total_score"`
	Feedback     string                 `json:"feedback"`
	Revision     int                    `json:"revision"`
	ScoredBy     string                 `json:"scored_by"`
	ScoredAt     time.Time              `json:"scored_at"`
}

func scoreOf(s hackathon.ScoreRecorded) scoreView {
	v := scoreView{SubmissionID: s.SubmissionID, JudgeID: s.JudgeID, RubricID: s.RubricID, Scores: map[string]json.Number{},
		TotalScore: json.Number(s.Total), Feedback: s.Feedback, Revision: s.Revision, ScoredBy: s.By, ScoredAt: s.At}
	for k, x := range s.Scores {
		v.Scores[k] = json.Number(x)
	}
	return v
}

func required(field, v string) error {
	if v == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	return nil
}

func (a *API) postScore(w http.ResponseWriter, r *http.Request, c caller) {
	var b scoreBody
	err := httpx.DecodeJSON(r, &b)
	for _, f := range []struct{ name, v string }{{"submission_id", b.SubmissionID}, {"judge_id", b.JudgeID}} {
		if err == nil {
			err = required(f.name, f.v)
		}
	}
	if err == nil && b.Scores == nil {
		err = kernel.Invalid("scores", "required", "scores is required: an object with a number for each criterion of the active rubric")
	}
	if err == nil && b.TotalScore == nil {
		err = kernel.Invalid("total_score", "required", "total_score is required: the rubric's weighted total")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in := hackathon.ScoreInput{SubmissionID: b.SubmissionID, JudgeID: b.JudgeID, Scores: map[string]string{},
		TotalScore: b.TotalScore.String(), Feedback: b.Feedback}
	for k, v := range b.Scores {
		in.Scores[k] = v.String()
	}
	var v scoreView
	status := http.StatusOK
	err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		evs, err := h.RecordScore(c.UserID, in, a.svc.Now())
		if err != nil {
			return nil, err
		}
		if len(evs) > 0 {
			status = http.StatusCreated
			v = scoreOf(*evs[0].(*hackathon.ScoreRecorded))
		} else {
			v = scoreOf(h.Scores[hackathon.ScoreKey{SubmissionID: in.SubmissionID, JudgeID: in.JudgeID}])
		}
		return evs, nil
	})
	writeJSON(w, r, status, v, err)
}

// listScores lists current scores: an organiser sees every score, a judge
// their own; filters submission_id and judge_id.
func (a *API) listScores(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	q := r.URL.Query()
	sub, judge := q.Get("submission_id"), q.Get("judge_id")
	var all []scoreView
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			org := h.IsOrganizer(c.UserID)
			if !org && !h.HasRole(c.UserID, hackathon.RoleJudge) {
				return kernel.Forbidden("only organisers and judges may list scores")
			}
			for k, s := range h.Scores {
				if (sub == "" || k.SubmissionID == sub) && (judge == "" || k.JudgeID == judge) && (org || k.JudgeID == c.UserID) {
					all = append(all, scoreOf(s))
				}
			}
			return nil
		})
	}
	sortScores(all)
	writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
}

func (a *API) recuse(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		SubmissionID string `json:"submission_id"`
		JudgeID      string `json:"judge_id"`
		Reason       string `json:"reason"`
	}
	err := httpx.DecodeJSON(r, &b)
	if err == nil {
		err = required("submission_id", b.SubmissionID)
	}
	if err == nil && b.JudgeID == "" {
		b.JudgeID = c.UserID
	}
	if err == nil {
		err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.Recuse(c.UserID, b.JudgeID, b.SubmissionID, b.Reason, a.svc.Now())
		})
	}
	writeJSON(w, r, http.StatusCreated, map[string]string{"submission_id": b.SubmissionID, "judge_id": b.JudgeID, "reason": b.Reason}, err)
}

// assignmentView is one submission's panel.
type assignmentView struct {
	SubmissionID string   `json:"submission_id"`
	JudgeIDs     []string `json:"judge_ids"`
	ScoredBy     []string `json:"scored_by"`
}

// assignments computes the panels: every submission gets k judges (3 by
// default), most constrained first, loads within one where conflicts
// allow, judges who scored a submission kept on it. An organiser sees all;
// a judge sees their own (judge_id defaults to the caller).
func (a *API) assignments(w http.ResponseWriter, r *http.Request, c caller) {
	k, err := intParam(r, "k", judging.DefaultK, 1, 10)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	judge := r.URL.Query().Get("judge_id")
	out := map[string]any{}
	err = a.view(r, c, func(h *hackathon.Hackathon) error {
		if !h.IsOrganizer(c.UserID) {
			if !h.HasRole(c.UserID, hackathon.RoleJudge) || (judge != "" && judge != c.UserID) {
				return kernel.Forbidden("only organisers see every judge's assignments; a judge sees their own")
			}
			judge = c.UserID
		}
		in := assignInput(h, k)
		asg := judging.Assign(in)
		views := []assignmentView{}
		assigned, scored := 0, 0
		for _, x := range asg {
			if judge != "" && !contains(x.JudgeIDs, judge) {
				continue
			}
			v := assignmentView{SubmissionID: x.SubmissionID, JudgeIDs: x.JudgeIDs, ScoredBy: []string{}}
			for _, j := range x.JudgeIDs {
				if _, ok := h.Scores[hackathon.ScoreKey{SubmissionID: x.SubmissionID, JudgeID: j}]; ok {
					v.ScoredBy = append(v.ScoredBy, j)
					if j == judge {
						scored++
					}
				}
			}
			assigned++
			views = append(views, v)
		}
		out["k"], out["judges"], out["submissions"], out["assignments"] = k, len(in.Judges), len(in.Submissions), views
		out["loads"] = judging.Loads(asg)
		if judge != "" {
			out["judge_id"], out["progress"] = judge, map[string]int{"assigned": assigned, "scored": scored}
		}
		return nil
	})
	writeJSON(w, r, http.StatusOK, out, err)
}

// assignInput is the assignment problem of a hackathon: its submissions,
// its judges, who may not judge what, and who already scored what.
func assignInput(h *hackathon.Hackathon, k int) judging.AssignInput {
	in := judging.AssignInput{Submissions: sortedKeys(h.Submissions), Judges: h.Judges(), K: k,
		Conflicts: map[string]map[string]bool{}, Fixed: map[string][]string{}}
	for _, s := range in.Submissions {
		for _, j := range in.Judges {
			if h.Conflicted(j, s) != "" {
				if in.Conflicts[s] == nil {
					in.Conflicts[s] = map[string]bool{}
				}
				in.Conflicts[s][j] = true
			}
		}
	}
	for key := range h.Scores {
		if h.Submissions[key.SubmissionID] != nil {
			in.Fixed[key.SubmissionID] = append(in.Fixed[key.SubmissionID], key.JudgeID)
		}
	}
	for _, js := range in.Fixed {
		slices.Sort(js)
	}
	return in
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// scoreHistory lists every revision of one judge's score of a submission,
// oldest first: organisers see any, a judge their own.
func (a *API) scoreHistory(w http.ResponseWriter, r *http.Request, c caller) {
	q := r.URL.Query()
	sub, judge := q.Get("submission_id"), q.Get("judge_id")
	err := required("submission_id", sub)
	if err == nil {
		err = required("judge_id", judge)
	}
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			if !h.IsOrganizer(c.UserID) && c.UserID != judge {
				return kernel.Forbidden("only organisers, and the judge themselves, see a score's revisions")
			}
			if h.Submissions[sub] == nil {
				return hackathon.SubmissionNotFound(sub)
			}
			return nil
		})
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	revs, err := a.svc.ScoreHistory(r.Context(), hid(r), sub, judge)
	out := make([]scoreView, len(revs))
	for i, s := range revs {
		out[i] = scoreOf(s)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"submission_id": sub, "judge_id": judge, "revisions": out}, err)
}
