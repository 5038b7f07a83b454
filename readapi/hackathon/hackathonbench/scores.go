package hackathonbench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Target of the issue.
const scoreP95Ms = 20

// job is one score to send: a judge of a submission's panel.
type job struct {
	sub   string
	judge int // index in b.judges
	n     int // the submission's index in b.subs (its quality)
}

// jobs lists every panel seat in rounds, each judge's first panel, then
// each judge's second, and so on: the judges score at the same pace (the
// surface limits each user to hackathon.DefaultRate requests a minute).
func (b *bench) jobs() ([]job, error) {
	judge := map[string]int{}
	for i, j := range b.judges {
		judge[j.ID] = i
	}
	queue := make([][]job, len(b.judges))
	for n, s := range b.subs {
		for _, id := range b.panels[s] {
			i, ok := judge[id]
			if !ok {
				return nil, fmt.Errorf("hackathonbench: submission %s assigned to %s, not a bench judge", s, id)
			}
			queue[i] = append(queue[i], job{sub: s, judge: i, n: n})
		}
	}
	var out []job
	for r := 0; len(out) < len(b.subs)*b.o.K; r++ {
		for _, q := range queue {
			if r < len(q) {
				out = append(out, q[r])
			}
		}
	}
	return out, nil
}

// scoreBody is a judge's score of a submission: the submission's quality
// (1 to 5), the judge's leniency (-1, 0 or +1) and some noise per
// criterion, with the exact weighted total.
func (b *bench) scoreBody(j job) []byte {
	r := rand.New(rand.NewPCG(uint64(j.n), uint64(j.judge)))
	quality, leniency := 1+(j.n*7919)%5, j.judge%3-1
	scores := map[string]int{}
	total := 0
	for _, c := range criteria {
		v := min(5, max(1, quality+leniency+r.IntN(3)-1))
		scores[c.key] = v
		total += c.weight * v
	}
	raw, _ := json.Marshal(map[string]any{"submission_id": j.sub, "judge_id": b.judges[j.judge].ID, "scores": scores,
		"total_score": total, "feedback": "Scored by the strata bench"}) // maps of strings and numbers always marshal
	return raw
}

// score sends one score as its judge; a 429 (the per-user rate limit) is
// waited out and sent again when retry is set, counted in retried.
func (b *bench) score(ctx context.Context, j job, retry bool, retried *atomic.Int64) error {
	path := base + "/" + b.hid + "/judging/scores"
	for {
		r, err := b.send(ctx, b.judges[j.judge].Key, http.MethodPost, path, b.scoreBody(j))
		if err != nil {
			return err
		}
		switch {
		case r.status == http.StatusCreated:
			return nil
		case r.status == http.StatusTooManyRequests && retry:
			retried.Add(1)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(retryAfter(r)):
			}
		default:
			return fmt.Errorf("POST %s: status %d, want 201: %.500s", path, r.status, r.raw)
		}
	}
}

// scores has every judge score their panels over HTTP with their own API
// key: the first ones from o.Clients clients (unmeasured but for their
// rate), the last o.Measured one at a time, each after the baseline GET
// /api/v1/hackathons/{id} with the same key.
func (b *bench) scores(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	all, err := b.jobs()
	if err != nil {
		return nil, err
	}
	bulk, measured := all[:len(all)-o.Measured], all[len(all)-o.Measured:]
	o.Logf("%d scores over HTTP from %d clients (the judges' API keys, the assignment's panels) ...", len(bulk), o.Clients)
	var next, retried atomic.Int64
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(bulk) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if err := b.score(ctx, bulk[i], true, &retried); err != nil {
					once.Do(func() { failed = err })
					next.Store(int64(len(bulk)))
					return
				}
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	rate := float64(len(bulk)) / elapsed.Seconds()
	o.Logf("  %d scores in %s (%.0f/s, %d answers 429 waited out)", len(bulk), elapsed.Round(time.Millisecond), rate, retried.Load())
	figs := []storebench.Figure{{Name: fmt.Sprintf("setup: %d scores over HTTP, %d clients (judges' keys)", len(bulk), o.Clients),
		Unit: "cmd/s", Ours: rate, Samples: len(bulk)}}

	o.Logf("the last %d scores one at a time, each after GET /api/v1/hackathons/{id} with the same key ...", len(measured))
	hpath := base + "/" + b.hid
	baseLat, ours, err := pairs(ctx, len(measured), func(i int) error {
		_, err := b.call(ctx, b.judges[measured[i].judge], http.MethodGet, hpath, nil, http.StatusOK)
		return err
	}, func(i int) error { return b.score(ctx, measured[i], false, nil) })
	if err != nil {
		return nil, err
	}
	o.Logf("  POST .../judging/scores p50 %.2f p95 %.2f p99 %.2f ms; GET /hackathons/{id} p50 %.2f p95 %.2f p99 %.2f ms",
		quantile(ours, .5), quantile(ours, .95), quantile(ours, .99), quantile(baseLat, .5), quantile(baseLat, .95), quantile(baseLat, .99))
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .5}, {"p95", .95}, {"p99", .99}} {
		f := storebench.Figure{Name: "POST .../judging/scores " + q.name + ", 1 client (base: GET /hackathons/{id})", Unit: storebench.UnitMs,
			Ours: quantile(ours, q.q), Baseline: quantile(baseLat, q.q), Samples: len(ours)}
		if q.name == "p95" {
			f.Target = storebench.Target{Max: scoreP95Ms}
		}
		figs = append(figs, f)
	}
	return figs, nil
}
