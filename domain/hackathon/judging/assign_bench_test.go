package judging

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchInput is 5,000 submissions and 100 judges with K 3; about 3% of pairs
// are conflicts (team members, mentors) and 2% of submissions already have a
// fixed judge.
func benchInput() AssignInput {
	r := rand.New(rand.NewPCG(5000, 100))
	in := AssignInput{K: 3, Conflicts: map[string]map[string]bool{}, Fixed: map[string][]string{}}
	for j := range 100 {
		in.Judges = append(in.Judges, fmt.Sprintf("judge-%03d", j))
	}
	for s := range 5000 {
		id := fmt.Sprintf("sub-%05d", s)
		in.Submissions = append(in.Submissions, id)
		for range 3 {
			if in.Conflicts[id] == nil {
				in.Conflicts[id] = map[string]bool{}
			}
			in.Conflicts[id][in.Judges[r.IntN(100)]] = true
		}
		if r.IntN(50) == 0 {
			in.Fixed[id] = []string{in.Judges[r.IntN(100)]}
		}
	}
	return in
}

func BenchmarkAssign5000x100(b *testing.B) {
	in := benchInput()
	b.ReportAllocs()
	for b.Loop() {
		Assign(in)
	}
}

func TestAssignBenchInputIsValid(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	in := benchInput()
	if msg := checkAssignment(in, Assign(in)); msg != "" {
		t.Fatal(msg)
	}
}
