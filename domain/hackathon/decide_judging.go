package hackathon

import (
	"maps"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// RubricNotFound is the error for a rubric the hackathon does not have.
func RubricNotFound(id string) error {
	return kernel.NotFound("rubric " + id + " not found in this hackathon")
}

// SaveRubric decides creating a rubric or replacing a rubric's name,
// criteria and ladder, by an organiser before COMPLETED. The first rubric
// becomes active; activate makes this one active. The active rubric (its
// criteria and its tie-break ladder) is fixed once judging starts.
func (h *Hackathon) SaveRubric(by, id string, create bool, r Rubric, changed []string, activate bool, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage rubrics"); err != nil {
		return nil, err
	}
	if _, ok := h.Rubrics[id]; !create && !ok {
		return nil, RubricNotFound(id)
	} else if create && ok {
		return nil, kernel.Conflict("rubric "+id+" already exists", nil)
	}
	if err := h.open("changing rubrics"); err != nil {
		return nil, err
	}
	r, err := r.Normalize()
	if err != nil {
		return nil, err
	}
	var evs []kernel.Event
	if create || len(changed) > 0 {
		if !create && id == h.ActiveRubric && h.JudgingStarted() {
			return nil, kernel.Conflict("rubric "+id+" is active and judging has started: its criteria and tie-break ladder are fixed", nil)
		}
		evs = append(evs, &RubricSaved{RubricID: id, Rubric: r, Created: create, Changed: changed, By: by, At: at})
	}
	if (activate || h.ActiveRubric == "") && h.ActiveRubric != id {
		if h.JudgingStarted() {
			return nil, kernel.Conflict("judging has started: the active rubric can no longer change", nil)
		}
		evs = append(evs, &RubricActivated{RubricID: id, By: by, At: at})
	}
	return evs, nil
}

// DeleteRubric decides removing a rubric that is not the active one.
func (h *Hackathon) DeleteRubric(by, id string, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage rubrics"); err != nil {
		return nil, err
	}
	if _, ok := h.Rubrics[id]; !ok {
		return nil, RubricNotFound(id)
	}
	if err := h.open("changing rubrics"); err != nil {
		return nil, err
	}
	if id == h.ActiveRubric {
		return nil, kernel.Conflict("rubric "+id+" is the active rubric: activate another one before deleting it", nil)
	}
	return []kernel.Event{&RubricDeleted{RubricID: id, By: by, At: at}}, nil
}

// Conflicted reports why judge may not judge the submission ("" when
// nothing stands in the way): they are or were a member or mentor of its
// team, or they recused themselves.
func (h *Hackathon) Conflicted(judge, submissionID string) string {
	s := h.Submissions[submissionID]
	if s == nil {
		return ""
	}
	if t := h.Teams[s.TeamID]; t != nil && t.Members[judge] != "" {
		if t.Members[judge] == RoleMentor {
			return "conflict of interest: judge " + judge + " mentors team " + s.TeamID
		}
		return "conflict of interest: judge " + judge + " is a member of team " + s.TeamID
	}
	if t := h.Teams[s.TeamID]; t != nil && t.Former[judge] {
		return "conflict of interest: judge " + judge + " was a member or mentor of team " + s.TeamID
	}
	if h.Recusals[ScoreKey{submissionID, judge}] {
		return "judge " + judge + " recused themselves from submission " + submissionID
	}
	return ""
}

// ScoreInput is a score as a judge (or an organiser for them) sends it.
type ScoreInput struct {
	SubmissionID, JudgeID string
	Scores                map[string]string
	TotalScore            string
	Feedback              string
}

// judgeAction checks that judge may act on the submission through by:
// the submission exists, judge joined as judge, by is the judge or an
// organiser, the hackathon is not COMPLETED, and no conflict stands.
func (h *Hackathon) judgeAction(by, judge, submissionID, what string) error {
	if err := h.judgeAllowed(by, judge, submissionID, what); err != nil {
		return err
	}
	if why := h.Conflicted(judge, submissionID); why != "" {
		return kernel.Forbidden(why)
	}
	return nil
}

// judgeAllowed is judgeAction without the conflict check.
func (h *Hackathon) judgeAllowed(by, judge, submissionID, what string) error {
	if h.Submissions[submissionID] == nil {
		return SubmissionNotFound(submissionID)
	}
	if !h.HasRole(judge, RoleJudge) {
		return kernel.E(kernel.KindUnprocessable, "judge_id "+judge+" has not joined this hackathon as judge")
	}
	if by != judge && !h.IsOrganizer(by) {
		return kernel.Forbidden("a judge " + what + " only as themselves (organisers may enter it for a judge)")
	}
	return h.open(what)
}

// RecordScore decides a judge's score (or a revision of it) against the
// active rubric until the hackathon is COMPLETED. A revision identical to
// the current score changes nothing.
func (h *Hackathon) RecordScore(by string, in ScoreInput, at time.Time) ([]kernel.Event, error) {
	if err := h.judgeAction(by, in.JudgeID, in.SubmissionID, "scores"); err != nil {
		return nil, err
	}
	r, ok := h.Rubrics[h.ActiveRubric]
	if !ok {
		return nil, kernel.Conflict("the hackathon has no active rubric: an organiser creates one before judging", nil)
	}
	scores, total, err := r.Score(in.Scores, in.TotalScore)
	if err != nil {
		return nil, err
	}
	feedback, err := text("feedback", in.Feedback, MaxFeedback, false, true)
	if err != nil {
		return nil, err
	}
	prev, had := h.Scores[ScoreKey{in.SubmissionID, in.JudgeID}]
	if had && prev.Feedback == feedback && maps.Equal(prev.Scores, scores) {
		return nil, nil
	}
	return []kernel.Event{&ScoreRecorded{SubmissionID: in.SubmissionID, JudgeID: in.JudgeID, RubricID: h.ActiveRubric,
		Scores: scores, Total: total, Feedback: feedback, Revision: prev.Revision + 1, By: by, At: at}}, nil
}

// Recuse decides a judge stepping back from a submission they have not
// scored; a reason is required. Recusing again changes nothing.
func (h *Hackathon) Recuse(by, judge, submissionID, reason string, at time.Time) ([]kernel.Event, error) {
	reason, err := text("reason", reason, MaxReason, true, true)
	if err != nil {
		return nil, err
	}
	if h.Recusals[ScoreKey{submissionID, judge}] {
		if err := h.judgeAllowed(by, judge, submissionID, "recuses"); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err := h.judgeAction(by, judge, submissionID, "recuses"); err != nil {
		return nil, err
	}
	if _, scored := h.Scores[ScoreKey{submissionID, judge}]; scored {
		return nil, kernel.Conflict("judge "+judge+" already scored submission "+submissionID+": a recorded score stays", nil)
	}
	return []kernel.Event{&JudgeRecused{SubmissionID: submissionID, JudgeID: judge, Reason: reason, By: by, At: at}}, nil
}

// Judges returns the ids of the users who joined as judge, sorted.
func (h *Hackathon) Judges() []string {
	var out []string
	for u, roles := range h.Participants {
		if roles[RoleJudge] {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}
