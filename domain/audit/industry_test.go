package audit

import "testing"

func TestDistributionAndPercentile(t *testing.T) {
	if _, ok := Distribution("saas", []int{50, 60, 70}); ok {
		t.Fatal("a benchmark from 3 scans")
	}
	scores := []int{40, 90, 50, 60, 70, 80, 55, 65, 75, 85} // sorted: 40 50 55 60 65 70 75 80 85 90
	b, ok := Distribution("saas", scores)
	if !ok {
		t.Fatal("no benchmark from 10 scans")
	}
	// mean 670/10 = 67; p25 at h = 2.25: 55 + 0.25*5 = 56.25 -> 56.3; p50 at 4.5: 65 + 0.5*5 = 67.5;
	// p75 at 6.75: 75 + 0.75*5 = 78.75 -> 78.8; p90 at 8.1: 85 + 0.1*5 = 85.5
	if b.AvgScore != 67 || b.P25 != 56.3 || b.P50 != 67.5 || b.P75 != 78.8 || b.P90 != 85.5 || b.Scans != 10 {
		t.Errorf("benchmark %+v", b)
	}
	// 70: 5 below, 1 equal of 10 -> 55%
	if p := PercentileRank(70, scores); p != 55 {
		t.Errorf("percentile of 70: %v", p)
	}
	if p := PercentileRank(100, scores); p != 100 {
		t.Errorf("percentile of 100: %v", p)
	}
	if p := PercentileRank(0, scores); p != 0 {
		t.Errorf("percentile of 0: %v", p)
	}
}
