package extract

import (
	"strings"
	"testing"
	"time"
)

func TestZZBig(t *testing.T) {
	for _, unit := range []string{benchText + " ", "on ", "I ", "Alice, ", "and ", "a ", "Go ", "is ", "'s ", "he ", "Alice Chen Labs ", "x"} {
		for _, n := range []int{1000, 4000} {
			s := strings.Repeat(unit, n)
			t0 := time.Now()
			Extract(s, Options{Self: "me"})
			t.Logf("%q x%d (%d bytes): %v", unit[:min(len(unit), 12)], n, len(s), time.Since(t0))
		}
	}
}
