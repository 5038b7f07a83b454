package hackathonbench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// rankedAgain measures the leaderboard right after a revised score: the
// score moves the read model's results, so the surface ranks the whole
// hackathon again instead of serving the ranking it keeps (the figure of
// the leaderboard step is a read of an unchanged read model). Each round
// sends a revision (untimed: its feedback changes, so it is a new event),
// then times GET /api/v1/hackathons/{id} and the leaderboard with the same
// judge's key.
func (b *bench) rankedAgain(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	jobs, err := b.jobs()
	if err != nil {
		return nil, err
	}
	n := max(10, o.Leaderboard/3)
	o.Logf("GET .../judging/leaderboard right after a revised score (ranked again), %d rounds ...", n)
	hpath := base + "/" + b.hid
	var baseLat, ours []time.Duration
	for i := range n {
		j := jobs[(i*7919)%len(jobs)]
		body := bytes.Replace(b.scoreBody(j), []byte("Scored by the strata bench"), fmt.Appendf(nil, "Revised by the strata bench, round %d", i), 1)
		r, err := b.send(ctx, b.judges[j.judge].Key, http.MethodPost, hpath+"/judging/scores", body)
		if err != nil {
			return nil, err
		}
		if r.status != http.StatusCreated {
			return nil, fmt.Errorf("hackathonbench: revised score: status %d: %.300s", r.status, r.raw)
		}
		u := b.judges[j.judge]
		d, err := timed(func() error { _, err := b.call(ctx, u, http.MethodGet, hpath, nil, http.StatusOK); return err })
		if err != nil {
			return nil, err
		}
		baseLat = append(baseLat, d)
		var page boardView
		if d, err = timed(func() error {
			return b.callJSON(ctx, u, http.MethodGet, hpath+"/judging/leaderboard", nil, &page, http.StatusOK)
		}); err != nil {
			return nil, err
		}
		if page.Total != o.Submissions {
			return nil, fmt.Errorf("hackathonbench: the leaderboard after a revision ranks %d submissions, want %d", page.Total, o.Submissions)
		}
		ours = append(ours, d)
	}
	o.Logf("  p50 %.2f p95 %.2f ms; GET /hackathons/{id} p50 %.2f p95 %.2f ms", quantile(ours, .5), quantile(ours, .95),
		quantile(baseLat, .5), quantile(baseLat, .95))
	name := "GET .../judging/leaderboard after a revised score (ranked again)"
	return []storebench.Figure{
		{Name: name + " p50 (base: GET /hackathons/{id})", Unit: storebench.UnitMs, Ours: quantile(ours, .5), Baseline: quantile(baseLat, .5), Samples: n},
		{Name: name + " p95 (base: GET /hackathons/{id})", Unit: storebench.UnitMs, Ours: quantile(ours, .95), Baseline: quantile(baseLat, .95), Samples: n},
	}, nil
}
