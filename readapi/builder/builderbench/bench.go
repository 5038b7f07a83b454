// Package builderbench measures the builder surface over loopback HTTP,
// each figure next to a baseline taken in the same run on the same server:
//
//   - The template path: generations of varied ideas, one at a time, through
//     POST /api/chat-ws (the offline template generator, a durable job,
//     events relayed from the store): the time to the stream's first event
//     and to its complete event, at p50, p95 and p99. Baselines, sent in
//     alternation with the generations: GET /api/health (a request to the
//     same server that asks the database SELECT 1) for the first event, one
//     event appended to a new stream through the server's store for the
//     complete event (a generation commits a dozen such appends).
//   - The preview: o.Readers concurrent readers of a generated preview's
//     index.html and of its app.js, in rounds alternating with
//     GET /api/health at the same concurrency (the baseline); p95 of each.
//   - Redeploy of a healthy app: a founder signs in through the OAuth flow
//     (/auth/login, the provider's sign-in and consent pages,
//     /auth/callback), generates an app with the session, puts o.Records
//     records in it through the preview's API, then o.Clients clients send
//     GET api/<plural> through the preview in a loop while
//     POST /api/build/redeploy runs o.Redeploys times; a request fails
//     unless it answers 200 with every record. The baseline is the same
//     loop for as long again without a redeploy. Redeploy durations are
//     printed next to the app's first start (the preview's first API
//     request).
//
// The builder is whatever Start returns: `strata bench builder` starts
// `strata serve` itself on a scratch database (cmd/strata), with the
// production wiring: jobs, the blob store, founder sessions and the node
// runtime of the apps. The load generator shares the machine with it.
package builderbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the builder under bench.
	Start    func(ctx context.Context) (*Builder, error)
	Progress io.Writer // a line per step; nil discards them
	Mode     string    // names the preset in the report

	Warmup      int           // generations (with their baseline requests) before the measured ones
	Generations int           // measured generations, one at a time, each a new chat
	Readers     int           // concurrent readers of the preview figures
	Round       time.Duration // one preview round of one side
	Rounds      int           // preview rounds per side, alternating
	Records     int           // records put in the founder's app before the redeploys
	Clients     int           // concurrent clients of the request loop
	Redeploys   int           // POST /api/build/redeploy calls, one after another
	Pause       time.Duration // between two redeploys, and after the last (the loop runs on)
}

// Full is the preset of `strata bench builder`.
func Full() Options {
	return Options{Mode: "full", Warmup: 10, Generations: 200, Readers: 50, Round: 3 * time.Second, Rounds: 3,
		Records: 20, Clients: 8, Redeploys: 5, Pause: 500 * time.Millisecond}
}

// Quick is the preset of `--quick`: a smoke test of well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Warmup: 3, Generations: 20, Readers: 50, Round: time.Second, Rounds: 1,
		Records: 5, Clients: 4, Redeploys: 2, Pause: 200 * time.Millisecond}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Builder is a running builder surface under bench.
type Builder struct {
	URL string // the builder surface's base URL: http://127.0.0.1:port
	// Email and Password are a platform account's, which signs in to the
	// builder through the OAuth flow the builder's /auth/login starts.
	Email, Password string
	// Append appends one event to a new stream through the server's event
	// store (committed): the complete event's baseline.
	Append   func(ctx context.Context) error
	Describe string // what runs, for the report's header
	Close    func() error
}

// Run starts the builder (o.Start) and measures.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "builder", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP"}
	if o.Start == nil || o.Warmup < 0 || o.Generations < 1 || o.Readers < 1 || o.Round <= 0 || o.Rounds < 1 || o.Records < 1 ||
		o.Clients < 1 || o.Redeploys < 1 || o.Pause < 0 {
		return rep, fmt.Errorf("builderbench: options out of range: %+v", o)
	}
	o.Logf("starting the builder ...")
	bl, err := o.Start(ctx)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := bl.Close(); err != nil {
			o.Logf("stopping the builder: %v", err)
		}
	}()
	if bl.URL == "" || bl.Email == "" || bl.Append == nil {
		return rep, errors.New("builderbench: Start returned a builder without a URL, an account or an append")
	}
	rep.Server = "loopback HTTP, " + bl.Describe
	b := &bench{o: o, bl: bl, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * max(o.Readers, o.Clients),
		IdleConnTimeout: 90 * time.Second, DisableCompression: true}, Timeout: 2 * time.Minute}}
	defer b.http.CloseIdleConnections()
	figs, last, err := b.generations(ctx)
	if err != nil {
		return rep, err
	}
	rep.Figures = append(rep.Figures, figs...)
	if figs, err = b.preview(ctx, last); err != nil {
		return rep, err
	}
	rep.Figures = append(rep.Figures, figs...)
	if figs, err = b.redeploys(ctx); err != nil {
		return rep, err
	}
	rep.Figures = append(rep.Figures, figs...)
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

type bench struct {
	o    Options
	bl   *Builder
	http *http.Client
}
