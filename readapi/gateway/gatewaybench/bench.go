// Package gatewaybench measures the inference gateway against its
// development upstream called directly, both in one run on one machine:
// each figure is the gateway's next to the same requests sent straight to
// the upstream (the baseline), measured in alternation so that both sides
// see the same machine.
//
//   - Added latency at concurrency 1: a reply's latency, and a stream's time
//     to its first token (TTFT), over pairs of requests (one direct, one
//     through the gateway, their order alternating); the figure is the
//     gateway's p99 less the direct p99 (see Run for why that statistic).
//   - Throughput at 64 concurrent clients, direct and through the gateway
//     in alternating rounds; any failed request fails the run.
//   - Streams never buffered: the gaps between the deltas of streams of
//     64 deltas the upstream paces 20 ms apart ([[tokens:64]]
//     [[slow:20ms]]), through the gateway against direct; the figure is the
//     gateway's p99 gap less the direct p99 gap.
//   - Resident memory: the gateway process's peak RSS under the
//     gateway's 64-client load next to its RSS once started, before any
//     load.
//   - A reference: the same requests through a pass-through proxy (a Go
//     reverse proxy that only forwards, in a process of its own as the
//     gateway is) against direct, openai to openai: a reply's added p99
//     and the throughput at 64 clients, what one HTTP hop that does
//     nothing costs on the machine, the floor under the gateway's figures.
//   - A reference: a one-row INSERT committed in the gateway's database at
//     concurrency 1: what a reply would wait for if its debit were
//     committed on the request path (it is journaled locally instead, and
//     spooled into PostgreSQL off the path).
//
// Both client formats (messages, openai) are measured through an
// openai-format upstream, and the latency and throughput figures again
// through a messages-format upstream. The gateway is whatever Start
// returns: `strata bench gateway` starts `strata serve` itself on a scratch
// database (cmd/strata), with real API keys, catalog and credit ledger, in
// a process of its own, as it is deployed. The development upstream and
// the load generator share this process; all of them share the machine's
// CPUs.
package gatewaybench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the gateway under bench with upstream (the development
	// upstream's base URL, up to /v1) configured as upstream "dev"
	// (openai format) and again as another in messages format, and with
	// accounts accounts that may each send every request of the run.
	Start func(ctx context.Context, upstream string, accounts int) (*Gateway, error)
	// StartUpstream, when set, starts the development upstream elsewhere
	// (a process of its own) and returns its base URL (http://host:port)
	// and how to stop it; nil: it is served in this process.
	StartUpstream func(ctx context.Context) (url string, stop func() error, err error)
	// StartProxy, when set, starts the pass-through proxy to upstream (the
	// development upstream's base URL) elsewhere (a process of its own, as
	// the gateway runs) and returns its base URL and how to stop it; nil:
	// it is served in this process (devupstream.PassThrough).
	StartProxy func(ctx context.Context, upstream string) (url string, stop func() error, err error)
	Progress   io.Writer // a line per step; nil discards them
	Mode       string    // names the preset in the report

	Accounts int           // accounts (one API key each) the requests rotate over
	Tokens   int           // tokens of each reply of the latency and throughput figures
	Warmup   int           // requests per path and kind before the latency figures
	Pairs    int           // request pairs (direct, gateway) of each concurrency-1 figure
	Clients  int           // concurrent clients of the throughput figures
	Round    time.Duration // one throughput round of one side
	Rounds   int           // rounds per side, alternating
	Streams  int           // paced streams per side and client format
	InFlight int           // paced streams in flight at once (half of them through the gateway)
	Deltas   int           // deltas of a paced stream
	Pace     time.Duration // the upstream's pause between a paced stream's deltas
}

// Full is the preset of `strata bench gateway`.
func Full() Options {
	return Options{Mode: "full", Accounts: 128, Tokens: 32, Warmup: 300, Pairs: 3000, Clients: 64, Round: 4 * time.Second, Rounds: 2,
		Streams: 32, InFlight: 8, Deltas: 64, Pace: 20 * time.Millisecond}
}

// Quick is the preset of `--quick`: a smoke test of well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Accounts: 64, Tokens: 32, Warmup: 50, Pairs: 300, Clients: 64, Round: time.Second, Rounds: 1,
		Streams: 8, InFlight: 8, Deltas: 64, Pace: 20 * time.Millisecond}
}

// startUpstream starts the development upstream: StartUpstream's, or one
// served in this process on a free loopback port.
func (o Options) startUpstream(ctx context.Context) (string, func() error, error) {
	if o.StartUpstream != nil {
		return o.StartUpstream(ctx)
	}
	up, err := devupstream.Listen("127.0.0.1:0", &devupstream.Handler{Forget: true})
	if err != nil {
		return "", nil, err
	}
	return up.URL, up.Close, nil
}

// startProxy starts the pass-through proxy to upstream: StartProxy's, or
// one served in this process on a free loopback port.
func (o Options) startProxy(ctx context.Context, upstream string) (string, func() error, error) {
	if o.StartProxy != nil {
		return o.StartProxy(ctx, upstream)
	}
	h, err := devupstream.PassThrough(upstream)
	if err != nil {
		return "", nil, err
	}
	px, err := devupstream.Listen("127.0.0.1:0", h)
	if err != nil {
		return "", nil, err
	}
	return px.URL, px.Close, nil
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Gateway is a running gateway under bench.
type Gateway struct {
	URL  string   // base URL: http://127.0.0.1:port
	Keys []string // API keys (sk_...), one account each, on a plan that admits every request of the run
	// Models are the catalog models the run asks for, by the format of
	// the upstream that serves them ("openai", "messages"); UpstreamModel
	// is their name at the upstream (what the direct requests name).
	Models        map[string]string
	UpstreamModel string
	Describe      string // what runs, for the report's header
	// PID is the gateway's process when it runs in a process of its own
	// (its resident memory is that process's); 0: this process.
	PID int
	// Commit, when set, commits a one-row INSERT in the gateway's database
	// (waiting for its WAL flush): a reference figure, what a reply would
	// wait for if its debit were committed on the request path.
	Commit func(ctx context.Context) error
	// Settle, when set, waits until the gateway has caught up with the
	// last step (its debits in the ledger, its projections current), so
	// that no step measures the previous one's aftermath.
	Settle func(ctx context.Context) error
	Close  func() error
}

// The wire formats.
const (
	formatOpenAI   = "openai"
	formatMessages = "messages"
)

// Run starts the development upstream on a loopback port and the gateway
// (o.Start), and measures.
//
// Added latency is p99(gateway) - p99(direct) of the same number of
// requests sent in alternation at concurrency 1: how far the gateway moves
// the latency its clients see at the 99th percentile. The p99 of the
// per-request differences would not measure that: a difference carries
// the jitter of both requests, so two paths of equal latency would show a
// positive "added p99" of about 2.3 times the jitter's standard deviation
// times the square root of 2. Alternating the two sides request by request
// gives both the same machine (the same other load, the same collector
// cycles), which is what pairing is for; the median of the per-request
// differences, the gateway's typical cost per request, is printed on the
// progress lines.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "gateway", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP"}
	if o.Start == nil || o.Accounts < 1 || o.Tokens < 1 || o.Warmup < 0 || o.Pairs < 1 || o.Clients < 1 || o.Round <= 0 || o.Rounds < 1 ||
		o.Streams < 1 || o.InFlight < 2 || o.Deltas < 2 || o.Pace <= 0 {
		return rep, fmt.Errorf("gatewaybench: options out of range: %+v", o)
	}
	upstreamURL, closeUpstream, err := o.startUpstream(ctx)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := closeUpstream(); err != nil {
			o.Logf("stopping the development upstream: %v", err)
		}
	}()
	o.Logf("development upstream on %s; starting the gateway with %d accounts ...", upstreamURL, o.Accounts)
	gw, err := o.Start(ctx, upstreamURL+"/v1", o.Accounts)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := gw.Close(); err != nil {
			o.Logf("stopping the gateway: %v", err)
		}
	}()
	if len(gw.Keys) == 0 || gw.Models[formatOpenAI] == "" || gw.Models[formatMessages] == "" || gw.UpstreamModel == "" {
		return rep, errors.New("gatewaybench: Start returned a gateway without keys or models")
	}
	rep.Server = "loopback HTTP, " + gw.Describe
	proxyURL, closeProxy, err := o.startProxy(ctx, upstreamURL)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := closeProxy(); err != nil {
			o.Logf("stopping the pass-through proxy: %v", err)
		}
	}()
	b := &bench{o: o, gw: gw, upstream: upstreamURL + "/v1", proxy: proxyURL,
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * o.Clients, IdleConnTimeout: 90 * time.Second,
			DisableCompression: true}, Timeout: time.Minute}}
	defer b.http.CloseIdleConnections()
	idle, rssOK := rss(gw.PID)
	// The pass-through proxy is measured last, so that its load precedes
	// no figure of the gateway's.
	steps := []func(context.Context) ([]storebench.Figure, error){b.latency(formatOpenAI), b.commits, b.throughput(formatOpenAI), b.gaps,
		b.latency(formatMessages), b.throughput(formatMessages), b.hop}
	for _, step := range steps {
		if gw.Settle != nil {
			if err := gw.Settle(ctx); err != nil {
				return rep, err
			}
		}
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	if rssOK {
		o.Logf("resident memory: %.1f MB once started, %.1f MB at most under the gateway's %d-client load (%.1f MB under the direct load)",
			mb(idle), mb(b.peakRSS), o.Clients, mb(b.peakDirect))
		rep.Figures = append(rep.Figures, storebench.Figure{Name: fmt.Sprintf("resident memory, peak under load, %d clients", o.Clients),
			Unit: "MB", Ours: mb(b.peakRSS), Baseline: mb(idle), Samples: b.rssSamples})
	}
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
