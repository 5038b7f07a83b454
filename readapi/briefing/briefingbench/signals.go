package briefingbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// signalDays is how far back the synthetic signals were created.
const signalDays = 7

// signals tops the read model up to o.Signals signals: the run found
// some; the rest are briefing.signal_detected events shaped like the
// algorithms' (acquisition_opportunity and competitive_filing, created
// over the last 7 days, each on its algorithm's day stream), appended
// through the server's event store o.SignalBatch at a time by 4
// appenders, and projected by the server's briefing.v1.
func (b *bench) signals(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	have, err := b.countSignals(ctx)
	if err != nil {
		return nil, err
	}
	need := o.Signals - have
	if need <= 0 {
		o.Logf("the run found %d signals: no synthetic ones needed", have)
		return nil, nil
	}
	o.Logf("the run found %d signals; appending %d signal_detected events over %d days ...", have, need, signalDays)
	now := time.Now().UTC()
	r := rand.New(rand.NewPCG(o.Seed, 0x5167))
	byStream := map[string][]kernel.Event{}
	for k := range need {
		created := now.Add(-time.Duration(float64(signalDays*24*time.Hour) * (float64(k) + r.Float64()) / float64(need))).Truncate(time.Microsecond)
		day := briefing.Day(created).Add(-24 * time.Hour) // a daily run finds the day before
		ev := syntheticSignal(r, k, day, created)
		id := briefing.RunStream(ev.Algo, day)
		byStream[id] = append(byStream[id], ev)
	}
	type chunk struct {
		stream string
		evs    []kernel.Event
	}
	var chunks []chunk
	for id, evs := range byStream {
		for i := 0; i < len(evs); i += o.SignalBatch {
			chunks = append(chunks, chunk{id, evs[i:min(len(evs), i+o.SignalBatch)]})
		}
	}
	sort.Slice(chunks, func(i, j int) bool { return chunks[i].stream < chunks[j].stream })
	work := make(chan chunk)
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	start := time.Now()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				if _, err := b.srv.Store.Append(ctx, eventstore.Stream{Type: briefing.StreamRun, ID: c.stream}, eventstore.AnyVersion,
					c.evs...); err != nil {
					errs <- fmt.Errorf("briefingbench: append signals to %s: %w", c.stream, err)
					return
				}
			}
		}()
	}
feed:
	for _, c := range chunks {
		select {
		case work <- c:
		case err := <-errs:
			close(work)
			wg.Wait()
			return nil, err
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		return nil, err
	default:
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	appended := time.Since(start)
	err = waitFor(ctx, 10*time.Minute, "the read model's signals", func() (bool, string, error) {
		n, err := b.countSignals(ctx)
		return n >= o.Signals, fmt.Sprintf("%d of %d signals", n, o.Signals), err
	})
	if err != nil {
		return nil, err
	}
	projected := time.Since(start)
	o.Logf("  appended in %s, in the read model after %s (%.0f/s)", appended.Round(time.Millisecond), projected.Round(time.Millisecond),
		float64(need)/projected.Seconds())
	return []storebench.Figure{{Name: fmt.Sprintf("setup: %d synthetic signal_detected appended (%d a time) until the read model holds %d",
		need, o.SignalBatch, o.Signals), Unit: storebench.UnitRate, Ours: float64(need) / projected.Seconds(), Samples: need}}, nil
}

// countSignals counts the read model's signals.
func (b *bench) countSignals(ctx context.Context) (int, error) {
	var n int
	err := b.srv.DB.QueryRowContext(ctx, `SELECT count(*) FROM `+projbriefing.Schema+`.signals`).Scan(&n)
	return n, err
}

// syntheticSignal is the k-th synthetic signal, of day, created at
// created: 45% acquisition opportunities, the rest competitive filings,
// with the payloads, rules and evidence the algorithms write.
func syntheticSignal(r *rand.Rand, k int, day, created time.Time) *briefing.SignalDetected {
	name := fmt.Sprintf("Synthetic %s %d", company(k%companies), k)
	subject := strings.ToLower(name) // the identity of a name (RULES.md: lower-cased, spaces collapsed)
	runID := fmt.Sprintf("bench-run-%s", day.Format(time.DateOnly))
	if r.IntN(100) < 45 {
		points := 50 + 5*r.IntN(13)
		rules := []map[string]any{{"rule": "merger_filing", "points": 50, "observations": 1 + r.IntN(3)}}
		fired := "merger_filing +50"
		if points > 50 {
			rules = append(rules, map[string]any{"rule": "deal_talks", "points": points - 50, "observations": 1 + r.IntN(5)})
			fired += fmt.Sprintf(", deal_talks +%d", points-50)
		}
		score := float64(min(points, 100)) / 100
		var ev []briefing.Evidence
		for e := range 1 + r.IntN(5) {
			ev = append(ev, briefing.Evidence{Kind: briefing.KindMention, Source: "reuters", SourceID: fmt.Sprintf("s-%d-%d", k, e)})
		}
		return &briefing.SignalDetected{SignalID: briefing.SignalID(briefing.AlgoAcquisition, subject, day), Type: briefing.SignalAcquisition,
			Algo: briefing.AlgoAcquisition, Subject: subject, Day: day, Score: score,
			Rule:     fmt.Sprintf("%s: %d points >= 50 (%s)", briefing.SignalAcquisition, points, fired),
			Payload:  map[string]any{"company": name, "score": score, "points": points, "rules": rules, "evidence_total": len(ev)},
			Evidence: ev, RunID: runID, At: created}
	}
	filing := fmt.Sprintf("%010d-%02d-%06d", 2_000_000+k%companies, day.Year()%100, k%1_000_000)
	subject += ":" + filing
	forms := []struct {
		form, what string
		weight     float64
	}{{"8-K", "current report of a material event", 0.6}, {"10-Q", "quarterly report", 0.4}, {"S-1", "going public", 1},
		{"SC 13D", "a holder above 5% intending to influence", 0.8}, {"10-K", "annual report", 0.5}}
	f := forms[r.IntN(len(forms))]
	filed := day.Add(time.Duration(12*3600+r.IntN(10*3600)) * time.Second)
	score := f.weight + 0.05
	return &briefing.SignalDetected{SignalID: briefing.SignalID(briefing.AlgoCompetitive, subject, day), Type: briefing.SignalCompetitive,
		Algo: briefing.AlgoCompetitive, Subject: subject, Day: day, Score: score,
		Rule: fmt.Sprintf("%s: form %s filed %s, %s (weight %.2f + 0.05 x 1 movements: product)", briefing.SignalCompetitive, f.form,
			day.Format(time.DateOnly), f.what, f.weight),
		Payload: map[string]any{"company": name, "form": f.form, "title": "Other Events (Item 8.01): the company unveils a new product",
			"filed_at": filed.Format(time.RFC3339), "url": "https://www.sec.gov/Archives/edgar/data/" + filing + ".txt", "reason": f.what,
			"movements": []string{"product"}, "filing_id": filing, "source": "sec_edgar", "score": score},
		Evidence: []briefing.Evidence{{Kind: briefing.KindFiling, Source: "sec_edgar", SourceID: filing}}, RunID: runID, At: created}
}
