package memorybench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/strata-platform/strata/readapi/identity/identitybench"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

// Speed targets.
const (
	recallP50Ms = 20
	recallP95Ms = 60
)

// latencies runs do for every query of qs with clients concurrent clients
// (query i goes to client i mod clients), each client sequentially, and
// returns the latency of each call.
func latencies(qs []*corpus.Query, clients int, do func(*corpus.Query) error) ([]time.Duration, error) {
	lat := make([]time.Duration, len(qs))
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; i < len(qs); i += clients {
				t0 := time.Now()
				if err := do(qs[i]); err != nil {
					errs[c] = err
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	return lat, errors.Join(errs...)
}

// recallLatency times recall (API.Recall: index catch-up check, entity
// resolution, search) over the evaluation queries, sequentially and with
// o.Clients clients, next to BM25 with the same filters over the same
// queries (in-process, no database).
func (b *bench) recallLatency(ctx context.Context) ([]Figure, error) {
	eval := b.split(corpus.SplitEval)
	ours := func(q *corpus.Query) error {
		_, _, err := b.recall(ctx, q, evalLimit, config{name: recallPlain})
		return err
	}
	base := func(q *corpus.Query) error {
		b.baseline(q)
		return nil
	}
	var figs []Figure
	counts := []int{1}
	if b.o.Clients > 1 {
		counts = append(counts, b.o.Clients)
	}
	for _, clients := range counts {
		label := "sequential"
		if clients > 1 {
			label = fmt.Sprintf("%d clients", clients)
		}
		b.o.Logf("recall latency, %d evaluation queries, %s ...", len(eval), label)
		bl, err := latencies(eval, clients, base)
		if err != nil {
			return nil, err
		}
		ol, err := latencies(eval, clients, ours)
		if err != nil {
			return nil, err
		}
		q := identitybench.Quantile
		b.o.Logf("  recall p50 %.2f p95 %.2f p99 %.2f ms; BM25 p50 %.2f p95 %.2f p99 %.2f ms",
			q(ol, .5), q(ol, .95), q(ol, .99), q(bl, .5), q(bl, .95), q(bl, .99))
		for _, p := range []struct {
			name   string
			q      float64
			target Target
		}{{"p50", .5, AtMost(recallP50Ms)}, {"p95", .95, AtMost(recallP95Ms)}, {"p99", .99, Target{}}} {
			figs = append(figs, Figure{Name: fmt.Sprintf("recall latency %s, %s", p.name, label), Unit: UnitMs,
				Ours: q(ol, p.q), Baseline: q(bl, p.q), HasBaseline: true, Target: p.target, Samples: len(ol)})
		}
	}
	return figs, nil
}

// contextBudgets asks POST /context's API.Context o.ContextQueries
// evaluation queries, each with max_tokens 50, 200 and 2000 (styles in
// turn), and counts answers whose token_count, or the count of their
// context by a tokenizer of our own, exceeds max_tokens.
func (b *bench) contextBudgets(ctx context.Context) ([]Figure, error) {
	qs := b.split(corpus.SplitEval)
	budgets := []int{50, 200, 2000}
	styles := []string{"narrative", "bullet", "structured"}
	b.o.Logf("context: %d queries x max_tokens %v ...", b.o.ContextQueries, budgets)
	tok := &readmemory.Tokens{}
	var lat []time.Duration
	violations := 0
	for i := range b.o.ContextQueries {
		q := qs[i%len(qs)]
		for j, budget := range budgets {
			req := readmemory.ContextRequest{Query: q.Text, Style: styles[(i+j)%len(styles)], TopK: 10, MaxTokens: budget}
			if err := req.Check(); err != nil {
				return nil, err
			}
			t0 := time.Now()
			res, err := b.api.Context(ctx, benchUser, req)
			if err != nil {
				return nil, fmt.Errorf("context %s: %w", q.ID, err)
			}
			lat = append(lat, time.Since(t0))
			if res.TokenCount > budget || tok.Count(res.Context) > budget {
				violations++
			}
		}
	}
	b.o.Logf("  %d calls, %d over max_tokens; p50 %.2f p95 %.2f ms", len(lat), violations,
		identitybench.Quantile(lat, .5), identitybench.Quantile(lat, .95))
	return []Figure{
		{Name: "context: token_count > max_tokens (50, 200, 2000)", Unit: UnitCount, Ours: float64(violations),
			Target: AtMost(0), Samples: len(lat)},
		{Name: "context latency p95 (top_k 10)", Unit: UnitMs, Ours: identitybench.Quantile(lat, .95), Samples: len(lat)},
	}, nil
}
