package hackathon

import (
	"net/http"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// pairView is what a judge compares in pairwise judging.
type pairView struct {
	JudgeID  string          `json:"judge_id"`
	Previous *submissionView `json:"previous"`
	Current  *submissionView `json:"current"`
	Alpha    float64         `json:"judge_alpha"`
	Beta     float64         `json:"judge_beta"`
	Seen     int             `json:"seen"`
}

func pairOf(h *hackathon.Hackathon, judge string) pairView {
	v := pairView{JudgeID: judge, Alpha: 10, Beta: 1}
	if h.Pairs == nil || h.Pairs.Judges[judge] == nil {
		return v
	}
	j := h.Pairs.Judges[judge]
	v.Alpha, v.Beta, v.Seen = j.Alpha, j.Beta, len(j.Seen)
	if s, ok := submissionOf(h, j.Previous); ok {
		v.Previous = &s
	}
	if s, ok := submissionOf(h, j.Current); ok {
		v.Current = &s
	}
	return v
}

// pairAction runs a pairwise decision for the calling judge and answers
// with their pair afterwards.
func (a *API) pairAction(w http.ResponseWriter, r *http.Request, c caller, decide func(h *hackathon.Hackathon) ([]kernel.Event, error)) {
	if err := a.do(r, c, decide); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var v pairView
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		v = pairOf(h, c.UserID)
		return nil
	})
	writeJSON(w, r, http.StatusOK, v, err)
}

// pairNext shows the calling judge their next submission (Gavel's flow: a
// first one, then one to compare it with, chosen by expected information
// gain).
func (a *API) pairNext(w http.ResponseWriter, r *http.Request, c caller) {
	a.pairAction(w, r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.NextPair(c.UserID, a.svc.Now()) })
}

// pairVote records the calling judge's vote: {"winner": "current"|"previous"}.
func (a *API) pairVote(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Winner string `json:"winner"`
	}
	if err := httpx.DecodeJSON(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.pairAction(w, r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.VotePair(c.UserID, b.Winner, a.svc.Now())
	})
}

// pairEntry is one submission of the pairwise leaderboard.
type pairEntry struct {
	Rank         int     `json:"rank"`
	SubmissionID string  `json:"submission_id"`
	ProjectName  string  `json:"project_name"`
	Mu           float64 `json:"mu"`
	SigmaSq      float64 `json:"sigma_sq"`
	Votes        int     `json:"votes"`
}

// pairLeaderboard ranks submissions by Crowd-BT quality (mu desc, then
// fewer uncertainty, then id), with the same visibility as the scored
// leaderboard.
func (a *API) pairLeaderboard(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	var all []pairEntry
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			if !h.IsOrganizer(c.UserID) && !h.HasRole(c.UserID, hackathon.RoleJudge) && h.Status != hackathon.StatusCompleted {
				return kernel.Forbidden("the leaderboard is for organisers and judges until the hackathon is COMPLETED")
			}
			for id, s := range h.Submissions {
				e := pairEntry{SubmissionID: id, ProjectName: s.ProjectName, Mu: 0, SigmaSq: 1}
				if h.Pairs != nil {
					it := h.Pairs.Item(id)
					e.Mu, e.SigmaSq, e.Votes = it.Mu, it.SigmaSq, h.Pairs.Votes[id]
				}
				all = append(all, e)
			}
			return nil
		})
	}
	slices.SortFunc(all, func(x, y pairEntry) int {
		switch {
		case x.Mu != y.Mu:
			return cmpDesc(x.Mu, y.Mu)
		case x.SigmaSq != y.SigmaSq:
			return -cmpDesc(x.SigmaSq, y.SigmaSq)
		}
		return strings.Compare(x.SubmissionID, y.SubmissionID)
	})
	for i := range all {
		all[i].Rank = i + 1
	}
	writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
