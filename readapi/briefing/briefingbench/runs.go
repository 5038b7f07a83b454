package briefingbench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	cmdbriefing "github.com/strata-platform/strata/commands/briefing"
	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore/storebench"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
)

// Target of the issue: the six algorithms for one day.
const runAllMaxSeconds = 30

// runs times POST .../runs {"algo": "all"} for the as-of day, between two
// scans of what the algorithms read (the first warms the cache as the run
// would find it; the second is the baseline).
func (b *bench) runs(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	o.Logf("scanning the algorithms' windows in SQL (warm-up) ...")
	if _, _, err := b.scanAll(ctx); err != nil {
		return nil, err
	}
	day := b.asOf.Format(time.DateOnly)
	o.Logf("POST .../runs {\"algo\": \"all\", \"as_of\": %q} ...", day)
	body, _ := json.Marshal(map[string]string{"algo": "all", "as_of": day}) // strings always marshal
	var out struct {
		Runs []cmdbriefing.RunReport `json:"runs"`
	}
	took, err := timed(func() error { return b.call(ctx, http.MethodPost, base+"/runs", "application/json", body, &out) })
	if err != nil {
		return nil, err
	}
	if len(out.Runs) != len(briefing.Algorithms()) {
		return nil, fmt.Errorf("briefingbench: POST .../runs answered %d runs, want %d", len(out.Runs), len(briefing.Algorithms()))
	}
	o.Logf("  the six algorithms in %s", took.Round(time.Millisecond))
	for _, r := range out.Runs {
		o.Logf("    %-22s took %8s, %7d inputs, %4d signals (%d new), %3d correlations, regime %q, %d trending", r.Algo, r.Took,
			r.Inputs, r.Signals, r.NewSignals, r.Correlations, r.Regime, r.Trending)
		if r.NoInput {
			return nil, fmt.Errorf("briefingbench: %s had no input", r.Algo)
		}
	}
	o.Logf("scanning the algorithms' windows in SQL (baseline) ...")
	total, per, err := b.scanAll(ctx)
	if err != nil {
		return nil, err
	}
	rows := 0
	for _, s := range per {
		rows += s.rows
	}
	o.Logf("  %d rows in %s", rows, total.Round(time.Millisecond))
	figs := []storebench.Figure{{Name: fmt.Sprintf("POST .../runs all six for a day, %d observations (base: SQL scan of the windows, %d rows)",
		o.Observations, rows), Unit: "s", Ours: took.Seconds(), Baseline: total.Seconds(), Target: storebench.Target{Max: runAllMaxSeconds},
		Samples: 1}}
	for _, r := range out.Runs {
		d, err := time.ParseDuration(r.Took)
		if err != nil {
			return nil, fmt.Errorf("briefingbench: %s took %q: %w", r.Algo, r.Took, err)
		}
		s := per[r.Algo]
		figs = append(figs, storebench.Figure{Name: fmt.Sprintf("  %s run, %d inputs (base: scan of its windows)", r.Algo, r.Inputs),
			Unit: storebench.UnitMs, Ours: float64(d) / float64(time.Millisecond), Baseline: float64(s.took) / float64(time.Millisecond),
			Samples: 1})
	}
	return figs, nil
}

// scanned is one algorithm's scan.
type scanned struct {
	rows int
	took time.Duration
}

// scanAll reads, algorithm after algorithm, every observation row each
// reads (the columns the run's loader selects, over the same windows) and
// fetches it into Go values; nothing else is done with them.
func (b *bench) scanAll(ctx context.Context) (time.Duration, map[string]scanned, error) {
	end := b.asOf.Add(24 * time.Hour)
	per := map[string]scanned{}
	var total time.Duration
	for _, algo := range briefing.Algorithms() {
		w, _ := briefing.WindowOf(algo)
		start := time.Now()
		n := 0
		for _, k := range []struct {
			window time.Duration
			kind   string
			cols   string
		}{
			{w.Indicators, briefing.KindIndicator, "series, at, value"},
			{w.Mentions, briefing.KindMention, "source_id, company, source, coalesce(title, ''), coalesce(body, ''), coalesce(url, ''), at"},
			{w.Filings, briefing.KindFiling, "source_id, company, form, coalesce(title, ''), coalesce(body, ''), source, coalesce(url, ''), at"},
			{w.Documents, briefing.KindDocument, "source_id, coalesce(title, ''), coalesce(body, ''), source, coalesce(url, ''), array_to_json(companies)::text, at"},
			{w.Activities, briefing.KindActivity, "developer, repo, coalesce(org, ''), metric, count, at"},
		} {
			if k.window <= 0 {
				continue
			}
			c, err := b.scan(ctx, k.kind, k.cols, end.Add(-k.window), end)
			if err != nil {
				return 0, nil, err
			}
			n += c
		}
		took := time.Since(start)
		per[algo] = scanned{rows: n, took: took}
		total += took
	}
	return total, per, nil
}

// scan fetches one kind's rows of a window: text into strings, times into
// time.Time, numbers into float64.
func (b *bench) scan(ctx context.Context, kind, cols string, from, to time.Time) (int, error) {
	rows, err := b.srv.DB.QueryContext(ctx, `SELECT `+cols+` FROM `+projbriefing.Schema+`.observations
		WHERE kind = $1 AND at >= $2 AND at < $3`, kind, from, to)
	if err != nil {
		return 0, fmt.Errorf("briefingbench: scan %s: %w", kind, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return 0, err
	}
	dest := make([]any, len(types))
	for i, t := range types {
		switch t.DatabaseTypeName() {
		case "TIMESTAMPTZ":
			dest[i] = new(time.Time)
		case "FLOAT8":
			dest[i] = new(float64)
		default:
			dest[i] = new(string)
		}
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return n, fmt.Errorf("briefingbench: scan %s: %w", kind, err)
		}
		n++
	}
	return n, rows.Err()
}
