// Package voicebench measures the voice service of issue 24 on loopback:
// SIPp (Debian's sip-tester) on one side, `strata serve` with its SIP
// adapter on the other, each figure next to a baseline measured in the
// same run on the same machine:
//
//   - Outbound: the service places calls through POST /api/v1/calls/outbound
//     (o.CPS a second for o.Duration, each with a status_callback_url on a
//     loopback receiver of the bench) to a SIPp UAS that answers, talks
//     200 ms and hangs up (BYE). Afterwards: every call reached its
//     terminal event (no lost call event), every status callback was
//     delivered once and in sequence order, and the latency from the SIP
//     final response to its event: es.events.recorded_at (the row's
//     clock_timestamp() at insert) minus the event payload's at (when the
//     SIP adapter saw the message), for call_answered (the 200 to the
//     INVITE) and call_ended (the far end's BYE). The route's own latency
//     is reported too.
//   - Inbound: a SIPp UAC calls the service's SIP listener at o.CPS a
//     second for o.Duration, at a number of the tenant routed to an IVR
//     whose key 1 hangs up: the caller hears the prompt, presses 1 (RFC
//     2833) a second after the answer and the service BYEs it. Every call
//     must be recorded with its end; the latency is that of call_ended
//     (at: when the 200 to our BYE arrived).
//   - SMS: POST /api/v1/sms/send at o.SMSRate a second for o.Duration, a
//     SIPp UAS answering each MESSAGE 200: p50, p95 and p99 of the
//     request.
//
// Baselines, each at the rate of what it is compared with and for as
// long: for the event latency, one INSERT of a JSON payload into a scratch
// table by database/sql (pgx), its at a Go timestamp taken just before,
// timed the same way (the row's clock_timestamp() minus at); for the
// routes, a minimal net/http handler on a loopback listener built like the
// surface's (readapi.NewServer) that decodes the same JSON body and does
// one INSERT per request.
//
// Load is open loop: requests and calls start on a fixed schedule whether
// or not the earlier ones have answered, as traffic does; the achieved
// rates are printed with the progress. Each phase and each baseline runs
// unmeasured for o.Warmup first (connections opened, caches filled), and
// a phase starts once the voice.v1 projector has caught up with the
// previous one's events. During each phase the bench samples how far the
// voice.v1 projector runs behind the event store (the routes wait for it:
// read your writes), and it splits each route's time by the events' at
// and recorded_at: the progress lines say where the time goes.
package voicebench

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// Targets of the issue.
const (
	eventP99Ms = 20 // SIP final response to its event, p99
	smsP95Ms   = 20 // POST /sms/send, p95
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the voice service with its SIP trunk at trunk (a
	// host:port where the bench runs its SIPp UAS).
	Start    func(ctx context.Context, trunk string) (*Server, error)
	Progress io.Writer // a line per step; nil discards them
	Mode     string    // names the preset in the report

	CPS      int           // calls a second, outbound and inbound
	SMSRate  int           // POST /sms/send a second
	Duration time.Duration // of each phase
	// Warmup is how long calls are placed, and the baselines run, before
	// each is measured (connections opened, caches filled); 0: none.
	Warmup time.Duration
	// Drain bounds the wait after a phase for the calls' ends and the
	// status callbacks to be recorded.
	Drain time.Duration
}

// Full is the preset of `strata bench voice`: the load.
func Full() Options {
	return Options{Mode: "full", CPS: 50, SMSRate: 200, Duration: 20 * time.Second, Warmup: 2 * time.Second, Drain: 3 * time.Minute}
}

// Quick is the preset of `--quick`: the same rates for 5 s.
func Quick() Options {
	return Options{Mode: "quick", CPS: 50, SMSRate: 200, Duration: 5 * time.Second, Warmup: time.Second, Drain: 2 * time.Minute}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Server is a running voice service under bench.
type Server struct {
	URL     string // the voice surface's base URL: http://127.0.0.1:port
	SIPAddr string // the service's SIP listener (UDP host:port)
	// Token is a bearer credential of a user acting in the tenant.
	Token string
	// Import adds phone (E.164) to the number inventory, as an operator's
	// import does; the tenant then buys it over HTTP.
	Import func(ctx context.Context, phone string) error
	// DB is the service's database: the bench reads es.events and keeps
	// its baseline tables there.
	DB       *stdsql.DB
	Describe string // what runs, for the report's header
	Close    func() error
}

// The tenant's numbers and the numbers it calls and texts.
const (
	lineOut = "+14155550100" // outbound calls and SMS are made from it
	lineIVR = "+14155550101" // inbound calls reach it: an IVR, key 1 hangs up
	callee  = "+14155550123"
	caller  = "+15550003333"
	smsBody = "hello from strata" // what uas_message.xml expects
)

// Run starts the service (o.Start) with its trunk at a port of the
// bench, sets a tenant up and runs the three phases, each after its
// baselines.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "voice", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback SIP and HTTP"}
	if o.Start == nil || o.CPS < 1 || o.SMSRate < 1 || o.Duration < time.Second || o.Warmup < 0 || o.Drain < time.Second {
		return rep, fmt.Errorf("voicebench: options out of range: %+v", o)
	}
	if !sippInstalled() {
		return rep, errors.New("voicebench: sipp is not on PATH: apt-get install sip-tester (Debian's SIPp)")
	}
	b := &bench{o: o, procs: map[*sipp]bool{}}
	defer b.killAll()
	trunkPort, err := freeUDPPort()
	if err != nil {
		return rep, err
	}
	b.trunk = "127.0.0.1:" + strconv.Itoa(trunkPort)
	// The service pings its trunk (SIP OPTIONS) as it starts: a SIPp UAS
	// answers that one, so the breaker starts closed.
	o.Logf("starting the voice service, its SIP trunk at %s (a SIPp UAS) ...", b.trunk)
	opts, err := b.start(sippRun{Scenario: "uas_options.xml", Port: trunkPort, Calls: 1, Timeout: 30 * time.Second})
	if err != nil {
		return rep, err
	}
	srv, err := o.Start(ctx, b.trunk)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := srv.Close(); err != nil {
			o.Logf("stopping the server: %v", err)
		}
	}()
	if srv.URL == "" || srv.SIPAddr == "" || srv.Token == "" || srv.Import == nil || srv.DB == nil {
		return rep, errors.New("voicebench: Start returned a server without a URL, a SIP address, a token, an import or a database")
	}
	b.srv = srv
	if st, err := opts.wait(20 * time.Second); err != nil || st.Successful != 1 {
		return rep, fmt.Errorf("voicebench: the service's first OPTIONS to its trunk: %+v: %v", st, err)
	}
	rep.Server = fmt.Sprintf("loopback SIP (SIPp %s) and HTTP, %s; %d calls/s and %d SMS/s for %s",
		sippVersion(), srv.Describe, o.CPS, o.SMSRate, o.Duration)
	b.http = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512, MaxIdleConns: 1024,
		IdleConnTimeout: 90 * time.Second, DisableCompression: true}, Timeout: time.Minute}
	defer b.http.CloseIdleConnections()
	if err := b.setup(ctx); err != nil {
		return rep, err
	}
	rcv, err := newReceiver()
	if err != nil {
		return rep, err
	}
	defer rcv.close()
	b.rcv = rcv
	base, err := newBaseline(ctx, srv.DB, o.Logf)
	if err != nil {
		return rep, err
	}
	defer base.close()
	b.base = base
	for _, step := range []func(context.Context) ([]storebench.Figure, error){b.outbound, b.inbound, b.sms} {
		figs, err := step(ctx)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(begin)
	return rep, nil
}

// bench is one run's state.
type bench struct {
	o     Options
	srv   *Server
	http  *http.Client
	trunk string // 127.0.0.1:port of the SIPp UAS the service calls
	rcv   *receiver
	base  *baseline
	procs map[*sipp]bool
}

// start starts a SIPp process that Run kills at the latest when it ends.
func (b *bench) start(r sippRun) (*sipp, error) {
	p, err := startSipp(r)
	if err != nil {
		return nil, err
	}
	b.procs[p] = true
	return p, nil
}

func (b *bench) killAll() {
	for p := range b.procs {
		p.kill()
	}
}

// freeUDPPort is a UDP port of 127.0.0.1 free a moment ago.
func freeUDPPort() (int, error) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port, nil
}
