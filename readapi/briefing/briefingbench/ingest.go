package briefingbench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/eventstore/storebench"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// ingest sends the synthetic observations as NDJSON batches from
// o.Ingesters clients, each making its batches as it goes, and waits for
// the read model to hold them all.
func (b *bench) ingest(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	g := newGenerator(o.Seed, o.Observations, o.Batch, b.asOf)
	n := g.batches()
	o.Logf("ingesting %d observations as %d NDJSON batches of %d from %d clients (as of %s) ...", o.Observations, n, o.Batch,
		o.Ingesters, b.asOf.Format(time.DateOnly))
	var next, recorded, bytesSent atomic.Int64
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range o.Ingesters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				obs := g.batch(i)
				body, err := ndjson(obs)
				if err == nil {
					var out cmdbriefing.Ingested
					err = b.call(ctx, http.MethodPost, base+"/observations", "application/x-ndjson", body, &out)
					if err == nil && (out.Recorded != len(obs) || out.Duplicates != 0) {
						err = fmt.Errorf("briefingbench: batch %d: %d recorded, %d duplicates, want %d and 0", i, out.Recorded,
							out.Duplicates, len(obs))
					}
					recorded.Add(int64(out.Recorded))
					bytesSent.Add(int64(len(body)))
				}
				if err != nil {
					once.Do(func() { failed = err })
					next.Store(int64(n))
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
	sent := time.Since(start)
	o.Logf("  %d observations recorded in %s (%.0f/s, %.0f MB of NDJSON); waiting for the read model ...", recorded.Load(),
		sent.Round(time.Millisecond), float64(recorded.Load())/sent.Seconds(), float64(bytesSent.Load())/1e6)
	err := waitFor(ctx, 10*time.Minute, "the read model's observations", func() (bool, string, error) {
		var rows int
		if err := b.srv.DB.QueryRowContext(ctx, `SELECT count(*) FROM `+projbriefing.Schema+`.observations`).Scan(&rows); err != nil {
			return false, "", err
		}
		return rows >= o.Observations, fmt.Sprintf("%d of %d rows", rows, o.Observations), nil
	})
	if err != nil {
		return nil, err
	}
	projected := time.Since(start)
	o.Logf("  the read model holds them all after %s (%.0f/s)", projected.Round(time.Millisecond),
		float64(o.Observations)/projected.Seconds())
	return []storebench.Figure{
		{Name: fmt.Sprintf("setup: POST .../observations, %d observations, NDJSON batches of %d, %d clients", o.Observations, o.Batch,
			o.Ingesters), Unit: "obs/s", Ours: float64(recorded.Load()) / sent.Seconds(), Samples: n},
		{Name: "setup: observations until the read model (briefing.v1) holds them all", Unit: "obs/s",
			Ours: float64(o.Observations) / projected.Seconds(), Samples: o.Observations},
	}, nil
}
