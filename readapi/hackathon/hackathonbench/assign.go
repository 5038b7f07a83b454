package hackathonbench

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Target of the issue.
const assignP95Ms = 500

// assignInput is the assignment problem the assignments route builds from
// the fold (readapi/hackathon's assignInput): the submissions, the judges,
// who may not judge what, who already scored what.
func assignInput(h *hackathon.Hackathon, k int) judging.AssignInput {
	in := judging.AssignInput{Submissions: slices.Sorted(maps.Keys(h.Submissions)), Judges: h.Judges(), K: k,
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

// assignmentsView is what the bench reads of GET .../judging/assignments.
type assignmentsView struct {
	Submissions int `json:"submissions"`
	Judges      int `json:"judges"`
	Assignments []struct {
		SubmissionID string   `json:"submission_id"`
		JudgeIDs     []string `json:"judge_ids"`
	} `json:"assignments"`
}

// assignments measures GET .../judging/assignments as the organiser, before
// any score, against judging.Assign on the same input in process, in
// alternation; it keeps the panels the route answered (the same as
// judging.Assign's, or the run fails).
func (b *bench) assignments(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	var in judging.AssignInput
	build, err := timed(func() error {
		return b.srv.Service.View(ctx, b.hid, b.organiser.ID, func(h *hackathon.Hackathon) error {
			in = assignInput(h, o.K)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(in.Submissions) != o.Submissions || len(in.Judges) != o.Judges {
		return nil, fmt.Errorf("hackathonbench: the fold has %d submissions and %d judges, want %d and %d", len(in.Submissions),
			len(in.Judges), o.Submissions, o.Judges)
	}
	o.Logf("GET .../judging/assignments as the organiser, %d submissions x %d judges, k=%d, against judging.Assign in process (%d each) ...",
		o.Submissions, o.Judges, o.K, o.Assignments)
	path := base + "/" + b.hid + "/judging/assignments"
	var want []judging.Assignment
	var got assignmentsView
	pure := func(int) error { want = judging.Assign(in); return nil }
	route := func(int) error { return b.callJSON(ctx, b.organiser, http.MethodGet, path, nil, &got, http.StatusOK) }
	if _, _, err := pairs(ctx, 1, pure, route); err != nil { // warm-up
		return nil, err
	}
	baseLat, ours, err := pairs(ctx, o.Assignments, pure, route)
	if err != nil {
		return nil, err
	}
	b.panels = map[string][]string{}
	for _, a := range got.Assignments {
		b.panels[a.SubmissionID] = a.JudgeIDs
	}
	loads := map[string]int{}
	for i, a := range want {
		if !slices.Equal(b.panels[a.SubmissionID], a.JudgeIDs) || len(a.JudgeIDs) != o.K {
			return nil, fmt.Errorf("hackathonbench: assignment %d: the route gave %v to %s, judging.Assign %v (k=%d)", i,
				b.panels[a.SubmissionID], a.SubmissionID, a.JudgeIDs, o.K)
		}
		for _, j := range a.JudgeIDs {
			loads[j]++
		}
	}
	if len(got.Assignments) != o.Submissions || len(want) != o.Submissions {
		return nil, fmt.Errorf("hackathonbench: %d panels from the route, %d from judging.Assign, want %d", len(got.Assignments),
			len(want), o.Submissions)
	}
	lo, hi := slices.Min(slices.Collect(maps.Values(loads))), slices.Max(slices.Collect(maps.Values(loads)))
	o.Logf("  route p50 %.1f p95 %.1f ms; judging.Assign p50 %.1f p95 %.1f ms; input built from the fold in %s; loads %d-%d",
		quantile(ours, .5), quantile(ours, .95), quantile(baseLat, .5), quantile(baseLat, .95), build.Round(time.Millisecond), lo, hi)
	name := fmt.Sprintf("GET .../judging/assignments %%s, %d subs x %d judges (base: judging.Assign in process)", o.Submissions, o.Judges)
	return []storebench.Figure{
		{Name: fmt.Sprintf(name, "p50"), Unit: storebench.UnitMs, Ours: quantile(ours, .5), Baseline: quantile(baseLat, .5), Samples: len(ours)},
		{Name: fmt.Sprintf(name, "p95"), Unit: storebench.UnitMs, Ours: quantile(ours, .95), Baseline: quantile(baseLat, .95),
			Target: storebench.Target{Max: assignP95Ms}, Samples: len(ours)},
	}, nil
}
