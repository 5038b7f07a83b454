package hackathon

import (
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
)

// PairShown records the pair a judge is looking at in pairwise judging:
// Current, and Previous (the one seen before it, "" for a judge's first).
type PairShown struct {
	JudgeID  string    `json:"judge_id"`
	Previous string    `json:"previous,omitempty"`
	Current  string    `json:"current"`
	At       time.Time `json:"at"`
}

// PairVoted records one pairwise vote and the Crowd-BT estimates it left:
// the judge's reliability and both submissions' quality.
type PairVoted struct {
	JudgeID       string    `json:"judge_id"`
	WinnerID      string    `json:"winner_id"`
	LoserID       string    `json:"loser_id"`
	Alpha         float64   `json:"alpha"`
	Beta          float64   `json:"beta"`
	WinnerMu      float64   `json:"winner_mu"`
	WinnerSigmaSq float64   `json:"winner_sigma_sq"`
	LoserMu       float64   `json:"loser_mu"`
	LoserSigmaSq  float64   `json:"loser_sigma_sq"`
	At            time.Time `json:"at"`
}

// EventType implementations.
func (PairShown) EventType() string { return "hackathon.pair_shown" }
func (PairVoted) EventType() string { return "hackathon.pair_voted" }

// Pairwise is the pairwise judging state of a hackathon: each judge's pair
// and what they have seen, every submission's quality and vote count.
type Pairwise struct {
	Judges map[string]*PairJudge
	Items  map[string]judging.Item
	Votes  map[string]int // submission -> votes it took part in
}

// PairJudge is one judge in pairwise judging.
type PairJudge struct {
	judging.Annotator
	Previous, Current string
	Seen              map[string]bool
}

func (h *Hackathon) pairwise() *Pairwise {
	if h.Pairs == nil {
		h.Pairs = &Pairwise{Judges: map[string]*PairJudge{}, Items: map[string]judging.Item{}, Votes: map[string]int{}}
	}
	return h.Pairs
}

func (p *Pairwise) judge(id string) *PairJudge {
	j := p.Judges[id]
	if j == nil {
		j = &PairJudge{Annotator: judging.NewAnnotator(id), Seen: map[string]bool{}}
		p.Judges[id] = j
	}
	return j
}

// Item returns a submission's quality estimate (the prior before any vote).
func (p *Pairwise) Item(id string) judging.Item {
	if it, ok := p.Items[id]; ok {
		return it
	}
	return judging.NewItem(id)
}

func (h *Hackathon) applyPairwise(e kernel.Event) {
	p := h.pairwise()
	switch ev := e.(type) {
	case *PairShown:
		j := p.judge(ev.JudgeID)
		j.Previous, j.Current = ev.Previous, ev.Current
		j.Seen[ev.Current] = true
	case *PairVoted:
		j := p.judge(ev.JudgeID)
		j.Alpha, j.Beta = ev.Alpha, ev.Beta
		p.Items[ev.WinnerID] = judging.Item{ID: ev.WinnerID, Mu: ev.WinnerMu, SigmaSq: ev.WinnerSigmaSq}
		p.Items[ev.LoserID] = judging.Item{ID: ev.LoserID, Mu: ev.LoserMu, SigmaSq: ev.LoserSigmaSq}
		p.Votes[ev.WinnerID]++
		p.Votes[ev.LoserID]++
	}
}

// pairJudge checks that by may judge pairwise: a judge, before COMPLETED.
func (h *Hackathon) pairJudge(by string) (*PairJudge, error) {
	if !h.HasRole(by, RoleJudge) {
		return nil, kernel.Forbidden("only judges judge pairwise")
	}
	if err := h.open("pairwise judging"); err != nil {
		return nil, err
	}
	return h.pairwise().judge(by), nil
}

// nextFor chooses the submission a judge sees after current: the one of
// greatest expected information gain among live submissions the judge has
// not seen and may judge (no conflict of interest).
func (h *Hackathon) nextFor(j *PairJudge, current string) (string, bool) {
	p := h.pairwise()
	var cands []judging.Item
	ids := make([]string, 0, len(h.Submissions))
	for id := range h.Submissions {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if !j.Seen[id] && id != current && h.Conflicted(j.ID, id) == "" {
			cands = append(cands, p.Item(id))
		}
	}
	var cur *judging.Item
	if current != "" {
		it := p.Item(current)
		cur = &it
	}
	it, ok := judging.Next(j.Annotator, cur, cands)
	return it.ID, ok
}

// NextPair decides what a judge looks at: a first submission; after the
// first, a second to compare it with; otherwise the pair stays until the
// judge votes. No submission left to show is a conflict (409).
func (h *Hackathon) NextPair(by string, at time.Time) ([]kernel.Event, error) {
	j, err := h.pairJudge(by)
	if err != nil {
		return nil, err
	}
	live := j.Current != "" && h.Submissions[j.Current] != nil
	if live && j.Previous != "" && h.Submissions[j.Previous] != nil {
		return nil, nil
	}
	prev := ""
	if live {
		prev = j.Current
	}
	next, ok := h.nextFor(j, prev)
	if !ok {
		return nil, kernel.Conflict("no submission left for judge "+by+" to compare", nil)
	}
	return []kernel.Event{&PairShown{JudgeID: by, Previous: prev, Current: next, At: at}}, nil
}

// VotePair decides a judge's vote on their pair (winner "current" or
// "previous"), updates the estimates by Crowd-BT and shows the next
// submission (when one is left) to compare with the current one.
func (h *Hackathon) VotePair(by, winner string, at time.Time) ([]kernel.Event, error) {
	if winner != "current" && winner != "previous" {
		return nil, kernel.Invalid("winner", "enum:current,previous", "winner must be current or previous")
	}
	j, err := h.pairJudge(by)
	if err != nil {
		return nil, err
	}
	if j.Previous == "" || j.Current == "" || h.Submissions[j.Previous] == nil || h.Submissions[j.Current] == nil {
		return nil, kernel.Conflict("judge "+by+" has no pair to vote on: POST .../judging/pairwise/next first", nil)
	}
	p := h.pairwise()
	w, l := p.Item(j.Current), p.Item(j.Previous)
	if winner == "previous" {
		w, l = l, w
	}
	a, w, l := judging.Vote(j.Annotator, w, l)
	evs := []kernel.Event{&PairVoted{JudgeID: by, WinnerID: w.ID, LoserID: l.ID, Alpha: a.Alpha, Beta: a.Beta,
		WinnerMu: w.Mu, WinnerSigmaSq: w.SigmaSq, LoserMu: l.Mu, LoserSigmaSq: l.SigmaSq, At: at}}
	// The next pair is chosen on the estimates after the vote.
	after := *h
	after.Pairs = &Pairwise{Judges: map[string]*PairJudge{}, Items: map[string]judging.Item{}, Votes: p.Votes}
	for k, v := range p.Items {
		after.Pairs.Items[k] = v
	}
	after.Pairs.Items[w.ID], after.Pairs.Items[l.ID] = w, l
	jj := *j
	jj.Annotator = a
	if next, ok := after.nextFor(&jj, j.Current); ok {
		evs = append(evs, &PairShown{JudgeID: by, Previous: j.Current, Current: next, At: at})
	}
	return evs, nil
}
