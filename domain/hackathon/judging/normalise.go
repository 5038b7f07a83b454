package judging

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Score is one judge's current score of one submission. Total is the rubric's
// weighted total; float64 is fine here because it is a derived statistic, not
// the stored score.
type Score struct {
	SubmissionID string
	JudgeID      string
	Total        float64
}

// JudgeStats describes the spread of one judge's totals: N is the number of
// totals, Mean their arithmetic mean and SD their population standard
// deviation (divided by N, not N-1). All three are zero when N is zero.
type JudgeStats struct {
	JudgeID string
	N       int
	Mean    float64
	SD      float64
}

// MinScoresForZ is the number of scores a judge needs before Z trusts the
// judge's spread: with fewer, Z is zero for every score of that judge.
const MinScoresForZ = 3

// zeroSpread is the standard deviation below which a judge is treated as
// having given every submission the same total.
const zeroSpread = 1e-12

// Stats returns N, Mean and population SD of totals. It sums in the given
// order, so the result is bit-for-bit reproducible when the caller passes the
// totals in a deterministic order. The SD is computed in two passes (mean
// first, then squared deviations), which keeps it non-negative and accurate.
func Stats(judgeID string, totals []float64) JudgeStats {
	s := JudgeStats{JudgeID: judgeID, N: len(totals)}
	if s.N == 0 {
		return s
	}
	var sum float64
	for _, t := range totals {
		sum += t
	}
	s.Mean = sum / float64(s.N)
	var sq float64
	for _, t := range totals {
		d := t - s.Mean
		sq += d * d
	}
	s.SD = math.Sqrt(sq / float64(s.N))
	return s
}

// Z returns the z-score (total-Mean)/SD of total against a judge's stats. It
// returns 0 when the judge has fewer than MinScoresForZ scores or no spread
// (SD below 1e-12, or NaN), so such a judge neither lifts nor sinks a
// submission.
func Z(total float64, s JudgeStats) float64 {
	if s.N < MinScoresForZ || !(s.SD >= zeroSpread) {
		return 0
	}
	return (total - s.Mean) / s.SD
}

// Result is the normalised outcome of one submission: N scores, RawMean the
// mean of their totals and ZMean the mean of their z-scores, each z-score
// taken against the stats of the judge who gave it.
type Result struct {
	SubmissionID string
	N            int
	RawMean      float64
	ZMean        float64
}

// Normalise computes a Result for every submission that has at least one
// score. Each judge's stats are computed from all of that judge's scores in
// the input. The result does not depend on the order of scores: they are
// sorted by (JudgeID, SubmissionID, Total) before any sum is taken, so every
// sum runs in the same order, and the output is sorted by SubmissionID. The
// input slice is not modified.
func Normalise(scores []Score) []Result {
	if len(scores) == 0 {
		return nil
	}
	sorted := slices.Clone(scores)
	slices.SortFunc(sorted, compareScores)

	// Per-judge stats: sorted groups each judge's scores together, in
	// SubmissionID order.
	stats := make(map[string]JudgeStats)
	totals := make([]float64, 0, len(sorted))
	for i := 0; i < len(sorted); {
		j := i
		totals = totals[:0]
		for j < len(sorted) && sorted[j].JudgeID == sorted[i].JudgeID {
			totals = append(totals, sorted[j].Total)
			j++
		}
		stats[sorted[i].JudgeID] = Stats(sorted[i].JudgeID, totals)
		i = j
	}

	// Per-submission results: sorted visits each submission's scores in
	// JudgeID order.
	bySub := make(map[string][]Score)
	for _, sc := range sorted {
		bySub[sc.SubmissionID] = append(bySub[sc.SubmissionID], sc)
	}
	out := make([]Result, 0, len(bySub))
	for id, group := range bySub {
		out = append(out, ResultOf(id, group, func(judge string) JudgeStats { return stats[judge] }))
	}
	slices.SortFunc(out, func(x, y Result) int { return strings.Compare(x.SubmissionID, y.SubmissionID) })
	return out
}

// ResultOf computes one submission's Result from its scores, which the
// caller passes sorted by JudgeID, with stats giving each judge's
// JudgeStats (computed by Stats over that judge's totals in SubmissionID
// order). Normalise is ResultOf over every submission, so a read model
// that keeps judge stats and recomputes only the submissions a new score
// touches gets the same numbers, bit for bit.
func ResultOf(submissionID string, scores []Score, stats func(judge string) JudgeStats) Result {
	r := Result{SubmissionID: submissionID, N: len(scores)}
	if r.N == 0 {
		return r
	}
	var raw, zsum float64
	for _, sc := range scores {
		raw += sc.Total
		zsum += Z(sc.Total, stats(sc.JudgeID))
	}
	r.RawMean, r.ZMean = raw/float64(r.N), zsum/float64(r.N)
	return r
}

// compareScores orders scores by JudgeID, SubmissionID and then Total, so
// that even duplicate (judge, submission) pairs sort the same way every time
// (cmp.Compare puts NaN first, so the order stays total).
func compareScores(a, b Score) int {
	if c := strings.Compare(a.JudgeID, b.JudgeID); c != 0 {
		return c
	}
	if c := strings.Compare(a.SubmissionID, b.SubmissionID); c != 0 {
		return c
	}
	return cmp.Compare(a.Total, b.Total)
}
