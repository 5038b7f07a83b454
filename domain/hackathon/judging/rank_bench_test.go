package judging

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkRank5000 ranks a leaderboard of 5,000 scored submissions (the
// size of strata bench hackathon) by the default ladder.
func BenchmarkRank5000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	entries := make([]Entry, 5000)
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for i := range entries {
		entries[i] = Entry{SubmissionID: fmt.Sprintf("%08x-sub", rng.Uint32()), ZMean: rng.NormFloat64(), RawMean: 1 + 4*rng.Float64(),
			TopCriterion: float64(1 + rng.IntN(5)), HasTopCriterion: true, Scores: 3, SubmittedAt: t0.Add(time.Duration(i) * time.Second)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rank(entries, MethodZScore, DefaultLadder()); err != nil {
			b.Fatal(err)
		}
	}
}
