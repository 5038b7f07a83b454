package judging

import (
	"math"
	"math/rand/v2"
	"testing"
)

const tol = 1e-12

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestStats(t *testing.T) {
	tests := []struct {
		name           string
		totals         []float64
		n              int
		mean, sd       float64
		wantSDExactly0 bool
	}{
		{name: "empty", totals: nil, n: 0},
		{name: "one", totals: []float64{7}, n: 1, mean: 7, wantSDExactly0: true},
		// mean 4; deviations -2,0,2; variance (4+0+4)/3 = 8/3; sd = sqrt(8/3) = 1.632993161855452
		{name: "2,4,6", totals: []float64{2, 4, 6}, n: 3, mean: 4, sd: math.Sqrt(8.0 / 3)},
		{name: "constant", totals: []float64{5, 5, 5}, n: 3, mean: 5, wantSDExactly0: true},
		// mean 2.5; deviations ±1.5, ±0.5; variance (2.25+0.25+0.25+2.25)/4 = 1.25
		{name: "1..4", totals: []float64{1, 2, 3, 4}, n: 4, mean: 2.5, sd: math.Sqrt(1.25)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Stats("j", tc.totals)
			if s.JudgeID != "j" || s.N != tc.n || !near(s.Mean, tc.mean, tol) || !near(s.SD, tc.sd, tol) {
				t.Fatalf("Stats = %+v, want N %d mean %v sd %v", s, tc.n, tc.mean, tc.sd)
			}
			if tc.wantSDExactly0 && s.SD != 0 {
				t.Fatalf("SD = %v, want exactly 0", s.SD)
			}
		})
	}
}

func TestZ(t *testing.T) {
	a := JudgeStats{N: 3, Mean: 4, SD: math.Sqrt(8.0 / 3)}
	tests := []struct {
		name  string
		total float64
		s     JudgeStats
		want  float64
	}{
		// (2-4)/sqrt(8/3) = -2/1.6329931618554521 = -1.224744871391589 = -sqrt(3/2)
		{"below mean", 2, a, -math.Sqrt(1.5)},
		{"at mean", 4, a, 0},
		{"above mean", 6, a, math.Sqrt(1.5)},
		{"two scores", 9, JudgeStats{N: 2, Mean: 5, SD: 4}, 0},
		{"no scores", 9, JudgeStats{}, 0},
		{"zero spread", 5, JudgeStats{N: 3, Mean: 5}, 0},
		{"spread below 1e-12", 6, JudgeStats{N: 3, Mean: 5, SD: 1e-13}, 0},
		{"NaN spread", 6, JudgeStats{N: 3, Mean: 5, SD: math.NaN()}, 0},
		{"spread at 1e-12 counts", 6, JudgeStats{N: 3, Mean: 5, SD: 1e-12}, 1e12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Z(tc.total, tc.s); !near(got, tc.want, tol*math.Max(1, math.Abs(tc.want))) {
				t.Fatalf("Z = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNormaliseHandComputed(t *testing.T) {
	// Judge A: s1=2, s2=4, s3=6 -> mean 4, sd sqrt(8/3) = 1.6329931618554521,
	//          z = -1.224744871391589, 0, +1.224744871391589 (±sqrt(3/2)).
	// Judge B: 5, 5, 5 -> sd 0 -> z 0 each.
	// Judge C: s1=9, s2=1 -> only 2 scores -> z 0 each.
	scores := []Score{
		{"s1", "A", 2}, {"s2", "A", 4}, {"s3", "A", 6},
		{"s1", "B", 5}, {"s2", "B", 5}, {"s3", "B", 5},
		{"s1", "C", 9}, {"s2", "C", 1},
	}
	want := []Result{
		// raw (2+5+9)/3 = 16/3; z (-sqrt(3/2)+0+0)/3 = -1/sqrt(6) = -0.408248290463863
		{"s1", 3, 16.0 / 3, -1 / math.Sqrt(6)},
		// raw (4+5+1)/3 = 10/3; z (0+0+0)/3 = 0
		{"s2", 3, 10.0 / 3, 0},
		// raw (6+5)/2 = 5.5; z (sqrt(3/2)+0)/2 = sqrt(6)/4 = 0.6123724356957945
		{"s3", 2, 5.5, math.Sqrt(6) / 4},
	}
	got := Normalise(scores)
	if len(got) != len(want) {
		t.Fatalf("Normalise = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.SubmissionID != w.SubmissionID || g.N != w.N || !near(g.RawMean, w.RawMean, tol) || !near(g.ZMean, w.ZMean, tol) {
			t.Errorf("result %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestNormaliseEdges(t *testing.T) {
	tests := []struct {
		name   string
		scores []Score
		want   []Result
	}{
		{name: "nil", scores: nil, want: nil},
		{name: "one score", scores: []Score{{"x", "j", 3}}, want: []Result{{"x", 1, 3, 0}}},
		{
			// every judge has fewer than MinScoresForZ scores: ZMean is 0, RawMean still averages
			name:   "no judge reaches MinScoresForZ",
			scores: []Score{{"b", "j1", 1}, {"a", "j1", 3}, {"a", "j2", 8}},
			want:   []Result{{"a", 2, 5.5, 0}, {"b", 1, 1, 0}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Normalise(tc.scores)
			if len(got) != len(tc.want) {
				t.Fatalf("Normalise = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("result %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestNormaliseOrderIndependent(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 42} {
		r := rand.New(rand.NewPCG(seed, 99))
		var scores []Score
		for j := range 8 {
			for s := range 30 {
				if r.IntN(3) > 0 {
					// awkward fractions so summation order would show in the last bits
					scores = append(scores, Score{
						SubmissionID: string(rune('a'+s%26)) + string(rune('0'+s/26)),
						JudgeID:      string(rune('A' + j)),
						Total:        r.Float64()*100 + 1.0/3,
					})
				}
			}
		}
		base := Normalise(scores)
		for range 20 {
			r.Shuffle(len(scores), func(i, j int) { scores[i], scores[j] = scores[j], scores[i] })
			got := Normalise(scores)
			if len(got) != len(base) {
				t.Fatalf("seed %d: %d results, want %d", seed, len(got), len(base))
			}
			for i := range got {
				g, b := got[i], base[i]
				if g.SubmissionID != b.SubmissionID || g.N != b.N ||
					math.Float64bits(g.RawMean) != math.Float64bits(b.RawMean) ||
					math.Float64bits(g.ZMean) != math.Float64bits(b.ZMean) {
					t.Fatalf("seed %d: result %d = %+v after shuffle, want %+v", seed, i, g, b)
				}
			}
		}
		for i := 1; i < len(base); i++ {
			if base[i-1].SubmissionID >= base[i].SubmissionID {
				t.Fatalf("seed %d: output not sorted by SubmissionID at %d", seed, i)
			}
		}
	}
}

func TestNormaliseDoesNotModifyInput(t *testing.T) {
	scores := []Score{{"b", "B", 1}, {"a", "A", 2}}
	Normalise(scores)
	if scores[0].SubmissionID != "b" || scores[1].SubmissionID != "a" {
		t.Fatalf("input reordered: %+v", scores)
	}
}
