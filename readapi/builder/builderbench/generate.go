package builderbench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Targets of the issue.
const (
	firstEventMaxMs = 50.0   // the template path's first event
	completeMaxMs   = 1000.0 // the template path's complete event
	previewP95MaxMs = 10.0   // a preview file at o.Readers concurrent readers
)

// ideas are what founders type, across the template's archetypes and
// lengths; the generations go through them in turn, each in a new chat.
var ideas = []string{
	"a marketplace for handmade pottery",
	"book yoga classes at my studio",
	"a CRM for my real estate deals",
	"online store for vintage sneakers",
	"directory of vegan restaurants in Berlin",
	"helpdesk for my SaaS customers",
	"sell cooking courses online",
	"send invoices to my freelance clients",
	"a community for indie game developers",
	"track my running workouts",
	"an online shop for my bakery where customers can book cake tastings, pay a deposit and leave reviews",
	"appointment booking for my dog grooming salon",
	"a directory of coworking spaces with reviews",
	"track the habits of my coaching clients",
	"a marketplace where students rent textbooks from each other",
	"manage the leads and deals of my design agency",
	"support tickets for the users of my mobile app",
	"an online course platform for guitar lessons",
	"a members community for local runners with events",
	"invoices and payments for my plumbing business",
	"a store for my handmade candles",
	"book tables at my restaurant",
	"a job board for remote designers",
	"track the expenses of my small team",
}

// generations runs o.Warmup and then o.Generations generations of ideas
// in turn, one at a time, each next to one GET /api/health and one append
// (the three in a rotating order, so that none always follows another).
// It returns the figures and the last generation (its preview is read
// next).
func (b *bench) generations(ctx context.Context) ([]storebench.Figure, generation, error) {
	o := b.o
	o.Logf("template generations: %d warm-up, then %d measured, one at a time, each next to GET /api/health and one append ...",
		o.Warmup, o.Generations)
	var (
		last                generation
		first, complete     []time.Duration
		health, appends     []time.Duration
		headers, step, plan []time.Duration
		preview, work       []time.Duration
		files               []int
	)
	for i := range o.Warmup + o.Generations {
		measured := i >= o.Warmup
		for k := range 3 {
			switch (i + k) % 3 {
			case 0:
				g, err := b.generate(ctx, b.http, ideas[i%len(ideas)])
				if err != nil {
					return nil, last, err
				}
				last = g
				if measured {
					first, complete = append(first, g.first), append(complete, g.complete)
					headers, step, plan = append(headers, g.headers), append(step, g.at["step"]), append(plan, g.at["plan"])
					preview, files = append(preview, g.at["preview"]), append(files, g.files)
					work = append(work, g.complete-g.at["step"])
				}
			case 1:
				start := time.Now()
				if _, err := get(ctx, b.http, b.bl.URL+"/api/health", 200); err != nil {
					return nil, last, err
				}
				if measured {
					health = append(health, time.Since(start))
				}
			case 2:
				start := time.Now()
				if err := b.bl.Append(ctx); err != nil {
					return nil, last, fmt.Errorf("append: %w", err)
				}
				if measured {
					appends = append(appends, time.Since(start))
				}
			}
		}
	}
	o.Logf("  first event p50 %.2f p95 %.2f p99 %.2f ms (headers p50 %.2f ms); GET /api/health p50 %.2f p95 %.2f p99 %.2f ms",
		quantile(first, .5), quantile(first, .95), quantile(first, .99), quantile(headers, .5),
		quantile(health, .5), quantile(health, .95), quantile(health, .99))
	o.Logf("  complete p50 %.2f p95 %.2f p99 %.2f max %.2f ms; one append p50 %.2f p95 %.2f p99 %.2f ms",
		quantile(complete, .5), quantile(complete, .95), quantile(complete, .99), quantile(complete, 1),
		quantile(appends, .5), quantile(appends, .95), quantile(appends, .99))
	o.Logf("  medians from the request: first step (the job picked up) %.2f ms, plan %.2f ms, preview %.2f ms, complete %.2f ms; at least %d files each",
		quantile(step, .5), quantile(plan, .5), quantile(preview, .5), quantile(complete, .5), slices.Min(files))
	o.Logf("  the job picked up (first step): p95 %.2f p99 %.2f max %.2f ms; from the first step to complete: p50 %.2f p99 %.2f max %.2f ms",
		quantile(step, .95), quantile(step, .99), quantile(step, 1), quantile(work, .5), quantile(work, .99), quantile(work, 1))
	n := len(first)
	figs := []storebench.Figure{}
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .5}, {"p95", .95}, {"p99", .99}} {
		f := storebench.Figure{Name: "template generation, first SSE event " + q.name + " (base: GET /api/health)",
			Unit: storebench.UnitMs, Ours: quantile(first, q.q), Baseline: quantile(health, q.q), Samples: n}
		if q.name == "p95" {
			f.Target = storebench.Target{Max: firstEventMaxMs}
		}
		figs = append(figs, f)
	}
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .5}, {"p95", .95}, {"p99", .99}} {
		f := storebench.Figure{Name: "template generation, complete " + q.name + " (base: one event-store append)",
			Unit: storebench.UnitMs, Ours: quantile(complete, q.q), Baseline: quantile(appends, q.q), Samples: n}
		if q.name == "p95" {
			f.Target = storebench.Target{Max: completeMaxMs}
		}
		figs = append(figs, f)
	}
	return figs, last, nil
}
