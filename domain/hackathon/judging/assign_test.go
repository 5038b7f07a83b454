package judging

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkAssignment verifies every guarantee of Assign from the input alone and
// returns a description of the first violation ("" when none).
func checkAssignment(in AssignInput, out []Assignment) string {
	k := in.K
	if k <= 0 {
		k = DefaultK
	}
	subs := slices.Clone(in.Submissions)
	slices.Sort(subs)
	subs = slices.Compact(subs)
	if len(out) != len(subs) {
		return fmt.Sprintf("%d assignments for %d submissions", len(out), len(subs))
	}
	listed := map[string]bool{}
	for _, j := range in.Judges {
		listed[j] = true
	}
	isFixed := func(s, j string) bool { return slices.Contains(in.Fixed[s], j) }
	eligible := func(s, j string) bool { return listed[j] && !in.Conflicts[s][j] }
	for i, as := range out {
		s := as.SubmissionID
		if s != subs[i] {
			return fmt.Sprintf("assignment %d is %q, want %q", i, s, subs[i])
		}
		if !slices.IsSorted(as.JudgeIDs) || len(slices.Compact(slices.Clone(as.JudgeIDs))) != len(as.JudgeIDs) {
			return fmt.Sprintf("%s: judges %v not sorted or duplicated", s, as.JudgeIDs)
		}
		fixed := map[string]bool{}
		for _, j := range in.Fixed[s] {
			fixed[j] = true
			if !slices.Contains(as.JudgeIDs, j) {
				return fmt.Sprintf("%s: fixed judge %s dropped", s, j)
			}
		}
		e := 0
		for j := range listed {
			if eligible(s, j) && !fixed[j] {
				e++
			}
		}
		if want := max(len(fixed), min(k, len(fixed)+e)); len(as.JudgeIDs) != want {
			return fmt.Sprintf("%s: %d judges, want %d (K %d, fixed %d, eligible %d)", s, len(as.JudgeIDs), want, k, len(fixed), e)
		}
		for _, j := range as.JudgeIDs {
			if !fixed[j] && !eligible(s, j) {
				return fmt.Sprintf("%s: judge %s is conflicted or unlisted", s, j)
			}
		}
	}
	// Balance: no judge a with load >= load(b)+2 holds a non-fixed seat that b could take.
	loads := Loads(out)
	for _, as := range out {
		for _, a := range as.JudgeIDs {
			if isFixed(as.SubmissionID, a) {
				continue
			}
			for b := range listed {
				if loads[a] >= loads[b]+2 && eligible(as.SubmissionID, b) && !slices.Contains(as.JudgeIDs, b) {
					return fmt.Sprintf("unbalanced: %s (load %d) could hand %s to %s (load %d)", a, loads[a], as.SubmissionID, b, loads[b])
				}
			}
		}
	}
	return ""
}

// randomInput draws a case: 0-60 submissions, 0-15 judges, K 1-4, conflict
// density 0-60%, and on about a third of the cases some Fixed judges
// (sometimes conflicted, sometimes not in Judges).
func randomInput(r *rand.Rand) AssignInput {
	in := AssignInput{K: 1 + r.IntN(4), Conflicts: map[string]map[string]bool{}, Fixed: map[string][]string{}}
	for i := range r.IntN(61) {
		in.Submissions = append(in.Submissions, fmt.Sprintf("s%02d", i))
	}
	for i := range r.IntN(16) {
		in.Judges = append(in.Judges, fmt.Sprintf("j%02d", i))
	}
	r.Shuffle(len(in.Submissions), func(i, j int) { in.Submissions[i], in.Submissions[j] = in.Submissions[j], in.Submissions[i] })
	density := r.Float64() * 0.6
	withFixed := r.IntN(3) == 0
	for _, s := range in.Submissions {
		for _, j := range in.Judges {
			if r.Float64() < density {
				if in.Conflicts[s] == nil {
					in.Conflicts[s] = map[string]bool{}
				}
				in.Conflicts[s][j] = true
			}
			if withFixed && r.IntN(8) == 0 {
				in.Fixed[s] = append(in.Fixed[s], j)
			}
		}
		if withFixed && r.IntN(20) == 0 {
			in.Fixed[s] = append(in.Fixed[s], "retired-judge")
		}
	}
	return in
}

func TestAssignProperties(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 2026))
		in := randomInput(r)
		out := Assign(in)
		if msg := checkAssignment(in, out); msg != "" {
			t.Fatalf("seed %d (%d subs, %d judges, K %d): %s", seed, len(in.Submissions), len(in.Judges), in.K, msg)
		}
		if again := Assign(in); !slices.EqualFunc(out, again, func(a, b Assignment) bool {
			return a.SubmissionID == b.SubmissionID && slices.Equal(a.JudgeIDs, b.JudgeIDs)
		}) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

func TestAssignBalancedWithoutConflicts(t *testing.T) {
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 1))
		k := 1 + r.IntN(4)
		in := AssignInput{K: k}
		for i := range r.IntN(80) {
			in.Submissions = append(in.Submissions, fmt.Sprintf("s%02d", i))
		}
		for i := range k + r.IntN(12) {
			in.Judges = append(in.Judges, fmt.Sprintf("j%02d", i))
		}
		out := Assign(in)
		if msg := checkAssignment(in, out); msg != "" {
			t.Fatalf("seed %d: %s", seed, msg)
		}
		loads := Loads(out)
		lo, hi := len(out), 0
		for _, j := range in.Judges {
			lo, hi = min(lo, loads[j]), max(hi, loads[j])
		}
		if len(out) > 0 && hi-lo > 1 {
			t.Fatalf("seed %d: loads from %d to %d", seed, lo, hi)
		}
	}
}

func TestAssignCases(t *testing.T) {
	tests := []struct {
		name string
		in   AssignInput
		want map[string][]string
	}{
		{
			name: "no judges",
			in:   AssignInput{Submissions: []string{"b", "a"}},
			want: map[string][]string{"a": {}, "b": {}},
		},
		{
			name: "default K is 3",
			in:   AssignInput{Submissions: []string{"a"}, Judges: []string{"j4", "j3", "j2", "j1"}},
			want: map[string][]string{"a": {"j1", "j2", "j3"}},
		},
		{
			name: "conflict leaves fewer than K",
			in: AssignInput{Submissions: []string{"a"}, Judges: []string{"j1", "j2"}, K: 2,
				Conflicts: map[string]map[string]bool{"a": {"j1": true, "j2": false}}},
			want: map[string][]string{"a": {"j2"}},
		},
		{
			name: "fixed judges kept even when conflicted, unlisted or more than K",
			in: AssignInput{Submissions: []string{"a", "b"}, Judges: []string{"j1", "j2", "j3"}, K: 1,
				Conflicts: map[string]map[string]bool{"a": {"j1": true}},
				Fixed:     map[string][]string{"a": {"j1", "gone", "j1"}, "zzz": {"j3"}}},
			// a is full with its fixed judges; b takes the least-loaded: j2 or j3 (load 0), j2 by id.
			want: map[string][]string{"a": {"gone", "j1"}, "b": {"j2"}},
		},
		{
			name: "most constrained first",
			// c can only take j1; filling a and b first by id would load j1 early.
			in: AssignInput{Submissions: []string{"a", "b", "c"}, Judges: []string{"j1", "j2"}, K: 1,
				Conflicts: map[string]map[string]bool{"c": {"j2": true}}},
			want: map[string][]string{"a": {"j2"}, "b": {"j1"}, "c": {"j1"}},
		},
		{
			name: "duplicate submissions and judges collapse",
			in:   AssignInput{Submissions: []string{"a", "a"}, Judges: []string{"j1", "j1"}, K: 2},
			want: map[string][]string{"a": {"j1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := Assign(tc.in)
			if msg := checkAssignment(tc.in, out); msg != "" {
				t.Fatal(msg)
			}
			if len(out) != len(tc.want) {
				t.Fatalf("got %d assignments, want %d", len(out), len(tc.want))
			}
			for _, as := range out {
				if w := tc.want[as.SubmissionID]; !slices.Equal(as.JudgeIDs, w) && (len(w) > 0 || len(as.JudgeIDs) > 0) {
					t.Errorf("%s: judges %v, want %v", as.SubmissionID, as.JudgeIDs, w)
				}
			}
		})
	}
}

// TestAssignPanelsOverlap: the co-occurrence tie-break spreads pairings, so
// with 6 judges in panels of 2 every judge shares a panel with several others.
func TestAssignPanelsOverlap(t *testing.T) {
	in := AssignInput{K: 2, Judges: []string{"j1", "j2", "j3", "j4", "j5", "j6"}}
	for i := range 15 {
		in.Submissions = append(in.Submissions, fmt.Sprintf("s%02d", i))
	}
	partners := map[string]map[string]bool{}
	for _, as := range Assign(in) {
		a, b := as.JudgeIDs[0], as.JudgeIDs[1]
		for _, p := range [][2]string{{a, b}, {b, a}} {
			if partners[p[0]] == nil {
				partners[p[0]] = map[string]bool{}
			}
			partners[p[0]][p[1]] = true
		}
	}
	for _, j := range in.Judges {
		if len(partners[j]) < 3 {
			t.Errorf("%s shares panels with only %d judges", j, len(partners[j]))
		}
	}
}

func TestLoads(t *testing.T) {
	got := Loads([]Assignment{{"a", []string{"x", "y"}}, {"b", []string{"x"}}, {"c", nil}})
	if len(got) != 2 || got["x"] != 2 || got["y"] != 1 {
		t.Fatalf("Loads = %v", got)
	}
}
