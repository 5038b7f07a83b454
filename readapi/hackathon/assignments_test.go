package hackathon_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestAssignments: an organiser sees every submission with k judges, none
// in conflict with it, loads within one; a judge sees their own panels and
// progress; a builder is refused.
func TestAssignments(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	s.addRubric(t, org, id)
	var judges []actor
	for i := range 5 {
		judges = append(judges, s.judge(t, org, id, fmt.Sprintf("judge%d", i)))
	}
	var subs []entry
	for i := range 6 {
		subs = append(subs, s.entry(t, id, fmt.Sprintf("builder%d", i), ""))
	}
	// judge0 mentors team 0, judge1 builds in team 1, judge2 recused from
	// submission 2.
	jm, jb, jr := judges[0], judges[1], judges[2]
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), jm.Token, map[string]any{"role": "mentor"})
	s.must(t, http.StatusCreated, "POST", path(id, "/teams/"+subs[0].Team+"/members"), jm.Token, map[string]any{"user_id": jm.ID, "role": "mentor"})
	s.must(t, http.StatusCreated, "POST", path(id, "/join"), jb.Token, map[string]any{"role": "builder"})
	s.must(t, http.StatusCreated, "POST", path(id, "/teams/"+subs[1].Team+"/members"), subs[1].Builder.Token, map[string]any{"user_id": jb.ID})
	s.must(t, http.StatusCreated, "POST", path(id, "/judging/recusals"), jr.Token, map[string]any{"submission_id": subs[2].Submission, "reason": "former colleague"})
	conflicts := map[string]string{subs[0].Submission: jm.ID, subs[1].Submission: jb.ID, subs[2].Submission: jr.ID}
	asg := path(id, "/judging/assignments")

	for _, k := range []int{3, 2} {
		out := s.must(t, http.StatusOK, "GET", fmt.Sprintf("%s?k=%d", asg, k), org.Token, nil)
		panels := out["assignments"].([]any)
		if len(panels) != len(subs) || out["k"] != float64(k) || out["judges"] != float64(len(judges)) {
			t.Fatalf("k=%d: %v", k, out)
		}
		loads := map[string]int{}
		seen := map[string]bool{}
		for _, p := range panels {
			p := p.(map[string]any)
			sub := p["submission_id"].(string)
			seen[sub] = true
			var js []string
			for _, j := range p["judge_ids"].([]any) {
				js = append(js, j.(string))
				loads[j.(string)]++
			}
			slices.Sort(js)
			if len(js) != k || len(slices.Compact(slices.Clone(js))) != k {
				t.Fatalf("k=%d: submission %s has judges %v", k, sub, js)
			}
			if c := conflicts[sub]; c != "" && slices.Contains(js, c) {
				t.Fatalf("k=%d: conflicted judge %s assigned to %s", k, c, sub)
			}
		}
		if len(seen) != len(subs) {
			t.Fatalf("k=%d: %d submissions assigned, want %d", k, len(seen), len(subs))
		}
		lo, hi := len(subs), 0
		for _, j := range judges {
			lo, hi = min(lo, loads[j.ID]), max(hi, loads[j.ID])
			if reported := out["loads"].(map[string]any)[j.ID]; loads[j.ID] > 0 && reported != float64(loads[j.ID]) {
				t.Fatalf("k=%d: loads[%s] = %v, the panels say %d", k, j.ID, reported, loads[j.ID])
			}
		}
		if hi-lo > 1 {
			t.Fatalf("k=%d: loads %v differ by more than one", k, loads)
		}
	}

	// A judge sees their own panels and progress; scoring one moves it.
	j := judges[3]
	mine := func() (int, int, []string) {
		out := s.must(t, http.StatusOK, "GET", asg, j.Token, nil)
		var ids []string
		for _, p := range out["assignments"].([]any) {
			p := p.(map[string]any)
			if !slices.Contains(anyStrings(p["judge_ids"]), j.ID) {
				t.Fatalf("a judge is shown a panel without them: %v", p)
			}
			ids = append(ids, p["submission_id"].(string))
		}
		pr := out["progress"].(map[string]any)
		if out["judge_id"] != j.ID || pr["assigned"] != float64(len(ids)) {
			t.Fatalf("judge's assignments: %v", out)
		}
		return len(ids), int(pr["scored"].(float64)), ids
	}
	n, scored, ids := mine()
	if n == 0 || scored != 0 {
		t.Fatalf("judge has %d assignments, %d scored", n, scored)
	}
	s.score(t, id, j, j.ID, ids[0], 3, 3)
	if n2, scored, ids2 := mine(); n2 != n || scored != 1 || !slices.Contains(ids2, ids[0]) {
		t.Fatalf("after one score: %d assignments (%v), %d scored", n2, ids2, scored)
	}
	refused(t, s.raw("GET", asg+"?judge_id="+judges[4].ID, j.Token, nil), http.StatusForbidden, asg)
	refused(t, s.raw("GET", asg, subs[0].Builder.Token, nil), http.StatusForbidden, asg)
	refused(t, s.raw("GET", asg+"?k=11", org.Token, nil), http.StatusBadRequest, asg, "k")
	// An organiser may look at one judge's panels.
	if out := s.must(t, http.StatusOK, "GET", asg+"?judge_id="+j.ID, org.Token, nil); len(out["assignments"].([]any)) != n {
		t.Fatalf("organiser's view of judge %s: %v", j.ID, out)
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
