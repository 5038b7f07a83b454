package audit

import (
	"math"
	"slices"
	"sort"
)

// Industries a full audit may name (its benchmark group); "other" when it
// names none.
func Industries() []string {
	return []string{"saas", "devtools", "ecommerce", "fintech", "healthcare", "media", "education", "marketplace",
		"agency", "travel", "real_estate", "government", "nonprofit", "other"}
}

// ValidIndustry reports whether s is one of Industries.
func ValidIndustry(s string) bool { return slices.Contains(Industries(), s) }

// MinBenchmarkScans is the fewest stored scans an industry's benchmark is
// computed from; below it the answer is insufficient_data.
const MinBenchmarkScans = 10

// Benchmark is an industry's score distribution over stored full scans
// (the latest of each site).
type Benchmark struct {
	Industry string  `json:"industry"`
	Scans    int     `json:"scans"`
	AvgScore float64 `json:"avg_score"`
	P25      float64 `json:"p25"`
	P50      float64 `json:"p50"`
	P75      float64 `json:"p75"`
	P90      float64 `json:"p90"`
}

// Distribution computes the benchmark of scores (any order): the mean and
// the quantiles by linear interpolation between closest ranks (the
// "type 7" estimator of Hyndman and Fan, numpy's and R's default),
// rounded to one decimal. ok is false below MinBenchmarkScans.
func Distribution(industry string, scores []int) (Benchmark, bool) {
	b := Benchmark{Industry: industry, Scans: len(scores)}
	if len(scores) < MinBenchmarkScans {
		return b, false
	}
	xs := make([]float64, len(scores))
	sum := 0.0
	for i, s := range scores {
		xs[i] = float64(s)
		sum += xs[i]
	}
	sort.Float64s(xs)
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		lo := math.Floor(h)
		v := xs[int(lo)]
		if int(lo)+1 < len(xs) {
			v += (h - lo) * (xs[int(lo)+1] - xs[int(lo)])
		}
		return round1(v)
	}
	b.AvgScore = round1(sum / float64(len(xs)))
	b.P25, b.P50, b.P75, b.P90 = q(0.25), q(0.50), q(0.75), q(0.90)
	return b, true
}

// PercentileRank is the share of scores below score, counting ties half
// (the mid-rank definition), in percent rounded to one decimal.
func PercentileRank(score int, scores []int) float64 {
	if len(scores) == 0 {
		return 0
	}
	below, equal := 0, 0
	for _, s := range scores {
		switch {
		case s < score:
			below++
		case s == score:
			equal++
		}
	}
	return round1(100 * (float64(below) + 0.5*float64(equal)) / float64(len(scores)))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
