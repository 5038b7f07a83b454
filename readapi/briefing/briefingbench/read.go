package briefingbench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/eventstore/storebench"
	projbriefing "github.com/strata-platform/strata/projections/briefing"
	readbriefing "github.com/strata-platform/strata/readapi/briefing"
)

// Target of the issue.
const briefingP95Ms = 20

// Briefing defaults (readapi/briefing): what a request without
// since_hours and limit gets.
const (
	defaultSinceHours = 24
	defaultLimit      = 50
)

// readers are the agents whose briefings are read, in turn: two given
// both signal types, one given none (the regime), one given competitive
// filings, one given none (trending companies).
var readers = []string{"ir_agent", "sales_agent", "cfo", "scout", "research"}

// briefingView is what the bench checks of a briefing.
type briefingView struct {
	Agent   string `json:"agent"`
	Signals []struct {
		ID string `json:"id"`
	} `json:"signals"`
	Correlations []struct{} `json:"correlations"`
	MarketRegime *struct {
		Regime string `json:"regime"`
	} `json:"market_regime"`
	Trending []struct{} `json:"trending_companies"`
}

// briefings measures GET .../agent-briefing (default since_hours and
// limit) for the readers in turn: one client, each request after GET
// /health and after the briefing's SQL run directly on the server's pool;
// then o.ReadClients clients, each alternating GET /health and the
// briefing.
func (b *bench) briefings(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	agents, err := briefing.NewAgents(briefing.DefaultIRAlias, briefing.DefaultAcquisitionAgent)
	if err != nil {
		return nil, err
	}
	if err := b.checkBriefings(ctx); err != nil {
		return nil, err
	}
	health := func() error { return b.call(ctx, http.MethodGet, "/health", "", nil, nil) }
	ours := func(i int) error {
		return b.call(ctx, http.MethodGet, base+"/agent-briefing?agent="+readers[i%len(readers)], "", nil, nil)
	}
	direct := func(i int) error {
		a, _ := agents.Lookup(readers[i%len(readers)])
		return directBriefing(ctx, b, a)
	}
	o.Logf("GET .../agent-briefing (%v in turn), 1 client, %d requests, each after GET /health and after its SQL run directly ...",
		readers, o.Briefings)
	var healthLat, directLat, ourLat []time.Duration
	warm := min(50, o.Briefings)
	for i := range warm + o.Briefings {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := timed(health)
		if err != nil {
			return nil, err
		}
		d, err := timed(func() error { return direct(i) })
		if err != nil {
			return nil, err
		}
		q, err := timed(func() error { return ours(i) })
		if err != nil {
			return nil, err
		}
		if i >= warm {
			healthLat, directLat, ourLat = append(healthLat, h), append(directLat, d), append(ourLat, q)
		}
	}
	o.Logf("  p50 %.2f p95 %.2f p99 %.2f ms; GET /health p50 %.2f p95 %.2f ms; SQL directly p50 %.2f p95 %.2f ms",
		quantile(ourLat, .5), quantile(ourLat, .95), quantile(ourLat, .99), quantile(healthLat, .5), quantile(healthLat, .95),
		quantile(directLat, .5), quantile(directLat, .95))
	name := fmt.Sprintf("GET .../agent-briefing %%s, 1 client, %d signals (base: %%s)", o.Signals)
	figs := latencyFigures(name, "GET /health", ourLat, healthLat)
	figs = append(figs, storebench.Figure{Name: fmt.Sprintf(name, "p95", "its SQL run directly"), Unit: storebench.UnitMs,
		Ours: quantile(ourLat, .95), Baseline: quantile(directLat, .95), Samples: len(ourLat)})

	o.Logf("GET .../agent-briefing, %d clients, %d requests, each client alternating with GET /health ...", o.ReadClients, o.Briefings)
	var mu sync.Mutex
	healthLat, ourLat = nil, nil
	var next atomic.Int64
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	for range o.ReadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var hs, qs []time.Duration
			defer func() {
				mu.Lock()
				healthLat, ourLat = append(healthLat, hs...), append(ourLat, qs...)
				mu.Unlock()
			}()
			for i := int(next.Add(1) - 1); i < o.Briefings && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				h, err := timed(health)
				if err == nil {
					var q time.Duration
					if q, err = timed(func() error { return ours(i) }); err == nil {
						hs, qs = append(hs, h), append(qs, q)
						continue
					}
				}
				once.Do(func() { failed = err })
				next.Store(int64(o.Briefings))
				return
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
	o.Logf("  p50 %.2f p95 %.2f p99 %.2f ms; GET /health p50 %.2f p95 %.2f ms", quantile(ourLat, .5), quantile(ourLat, .95),
		quantile(ourLat, .99), quantile(healthLat, .5), quantile(healthLat, .95))
	name = fmt.Sprintf("GET .../agent-briefing %%s, %d clients, %d signals (base: %%s)", o.ReadClients, o.Signals)
	return append(figs, latencyFigures(name, "GET /health", ourLat, healthLat)...), nil
}

// latencyFigures are p50, p95 (with the target) and p99 of ours next to
// base; name has two %s: the quantile and the baseline's name.
func latencyFigures(name, baseName string, ours, base []time.Duration) []storebench.Figure {
	var figs []storebench.Figure
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .5}, {"p95", .95}, {"p99", .99}} {
		f := storebench.Figure{Name: fmt.Sprintf(name, q.name, baseName), Unit: storebench.UnitMs, Ours: quantile(ours, q.q),
			Baseline: quantile(base, q.q), Samples: len(ours)}
		if q.name == "p95" {
			f.Target = storebench.Target{Max: briefingP95Ms}
		}
		figs = append(figs, f)
	}
	return figs
}

// checkBriefings reads each reader's briefing once and checks it holds
// what the data makes it hold: a full page of signals for the agents
// given signals, the regime for cfo, trending companies for research.
func (b *bench) checkBriefings(ctx context.Context) error {
	for _, a := range readers {
		var v briefingView
		if err := b.call(ctx, http.MethodGet, base+"/agent-briefing?agent="+a, "", nil, &v); err != nil {
			return err
		}
		b.o.Logf("  %s's briefing: %d signals, %d correlations, regime %v, %d trending", a, len(v.Signals), len(v.Correlations),
			v.MarketRegime != nil, len(v.Trending))
		switch {
		case (a == "ir_agent" || a == "sales_agent" || a == "scout") && len(v.Signals) != defaultLimit:
			return fmt.Errorf("briefingbench: %s's briefing shows %d signals, want %d", a, len(v.Signals), defaultLimit)
		case a == "cfo" && v.MarketRegime == nil:
			return fmt.Errorf("briefingbench: cfo's briefing has no market regime")
		case a == "research" && len(v.Trending) == 0:
			return fmt.Errorf("briefingbench: research's briefing has no trending companies")
		}
	}
	return nil
}

// directBriefing runs the briefing's queries (readapi/briefing's read:
// the agent's unconsumed signals of the last 24 hours, its algorithms'
// latest correlations, the latest regime and trending companies, as the
// agent reads them) on the server's pool and fetches the rows as text.
func directBriefing(ctx context.Context, b *bench, a briefing.Agent) error {
	db := b.srv.DB
	since := time.Now().UTC().Add(-defaultSinceHours * time.Hour)
	fetch := func(query string, args ...any) error {
		rows, err := db.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("briefingbench: the briefing's SQL: %w", err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		dest := make([]any, len(cols))
		for i := range dest {
			dest[i] = new(string)
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	const s = projbriefing.Schema
	if len(a.Signals) > 0 {
		if err := fetch(readbriefing.SignalsQuery, a.Signals, since, a.Name, defaultLimit); err != nil {
			return err
		}
	}
	if err := fetch(`WITH latest AS (
			SELECT algo, max(day) AS day FROM `+s+`.correlations WHERE algo = ANY($1) GROUP BY algo)
		SELECT c.algo, c.entity_a, c.entity_b, c.type, c.score::text, c.metadata::text, c.day::text
		FROM `+s+`.correlations c JOIN latest l ON l.algo = c.algo AND l.day = c.day
		WHERE c.day + 1 > $2::date
		ORDER BY c.score DESC, c.algo, c.entity_a, c.entity_b, c.type LIMIT $3`, a.Algorithms, since, defaultLimit); err != nil {
		return err
	}
	if a.Uses(briefing.AlgoSentiment) {
		if err := fetch(`SELECT regime::text FROM ` + s + `.regimes ORDER BY day DESC LIMIT 1`); err != nil {
			return err
		}
	}
	if a.Uses(briefing.AlgoContent) {
		if err := fetch(`SELECT items::text, day::text FROM ` + s + `.trending ORDER BY day DESC LIMIT 1`); err != nil {
			return err
		}
	}
	return nil
}
