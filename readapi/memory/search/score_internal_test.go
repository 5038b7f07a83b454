package search

import (
	"math"
	"testing"
)

func TestFastExp2(t *testing.T) {
	tests := []struct{ from, to float64 }{{-1, 0}, {-60, -1}, {-1019, -1000}}
	for _, tt := range tests {
		worst := 0.0
		for x := tt.from; x <= tt.to; x += (tt.to - tt.from) / 10000 {
			worst = max(worst, math.Abs(fastExp2(x)/math.Exp2(x)-1))
		}
		if worst > 2e-4 {
			t.Errorf("fastExp2 on [%v, %v]: relative error %v", tt.from, tt.to, worst)
		}
	}
	if fastExp2(-5000) != 0 {
		t.Error("fastExp2 underflow is not 0")
	}
}

func TestSortDims(t *testing.T) {
	for _, n := range []int{0, 1, 95, 96, 1000} {
		in := make([]uint32, n)
		for i := range in {
			in[i] = uint32(i*2654435761) & (1<<24 - 1)
		}
		out := sortDims(in)
		if len(out) != n {
			t.Fatalf("n=%d: len %d", n, len(out))
		}
		for i := 1; i < n; i++ {
			if out[i] < out[i-1] {
				t.Fatalf("n=%d: not sorted at %d", n, i)
			}
		}
	}
}
