package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Deployer defaults.
const (
	DefaultDrainTimeout = 30 * time.Second // longest wait for requests in flight on a replaced instance
	DefaultTailLines    = 100              // lines of log in a Result
)

// Result is what a redeploy did. Switched is true only after the new
// instance passed the probes and took the traffic; otherwise Reason says why
// not and LogTail holds the end of the new instance's output.
type Result struct {
	Switched bool          `json:"switched"`
	Version  string        `json:"version"`            // the version deployed (or tried)
	Previous string        `json:"previous,omitempty"` // the version serving before; it still serves unless Switched
	Probes   []ProbeResult `json:"probes"`
	Reason   string        `json:"reason,omitempty"`
	LogTail  string        `json:"logTail,omitempty"`
	Duration time.Duration `json:"duration"` // from the call to its return, drain included
}

// Option configures a Deployer.
type Option func(*Deployer)

// WithClock sets the clock of ProbeResult.At and Status.Since (tests pin
// it); the default is kernel.SystemClock. Waits always use the real time.
func WithClock(c kernel.Clock) Option { return func(d *Deployer) { d.clock = c } }

// WithDrainTimeout bounds how long a replaced instance is given to finish
// its requests in flight before it is stopped (default 30 s).
func WithDrainTimeout(t time.Duration) Option { return func(d *Deployer) { d.drainTimeout = t } }

// WithTailLines sets how many log lines a failed Result carries (default 100).
func WithTailLines(n int) Option { return func(d *Deployer) { d.tailLines = n } }

// Deployer keeps each company's serving instance behind a reverse proxy.
//
// Redeploys of one company are serialised: a second Redeploy of a company
// waits (as long as its ctx allows) until the first has returned, then runs
// in turn, so the version asked for last is the one that ends up serving.
// Redeploys of different companies run in parallel. Instances live as long
// as the Deployer, not as long as the ctx of the call that started them.
//
// The switch loses no request: the company's current backend is replaced
// by one atomic pointer swap, each proxied request is counted on the backend
// that admitted it, and a replaced backend admits no new request (the
// Handler then takes the new one), waits until its count is zero (or the
// drain timeout passes), closes its keep-alive connections and only then
// stops its instance. Redeploy returns after that drain.
type Deployer struct {
	rt           Runtime
	probe        Probe
	log          *slog.Logger
	clock        kernel.Clock
	drainTimeout time.Duration
	tailLines    int
	probes       *http.Client

	ctx    context.Context // ended by Close
	cancel context.CancelFunc

	mu        sync.Mutex
	closed    bool
	companies map[string]*company
}

// company is one company's serving instance and its redeploy lock.
type company struct {
	lock chan struct{} // holds a token while a redeploy runs
	cur  atomic.Pointer[backend]
}

// NewDeployer returns a Deployer starting instances with rt and checking
// them with probe (zero fields take the Probe defaults). A nil logger
// discards.
func NewDeployer(rt Runtime, probe Probe, logger *slog.Logger, opts ...Option) *Deployer {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	d := &Deployer{
		rt: rt, probe: probe.withDefaults(), log: logger, clock: kernel.SystemClock{},
		drainTimeout: DefaultDrainTimeout, tailLines: DefaultTailLines,
		probes: newProbeClient(), companies: map[string]*company{},
	}
	for _, o := range opts {
		o(d)
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

// Redeploy starts app beside the company's running instance, requires
// Probe.Healthy consecutive 2xx probes within Probe.Deadline, then switches
// the company's traffic to it atomically, drains the old instance (requests
// in flight finish, up to the drain timeout) and stops it. Otherwise it stops
// the new instance, keeps the old one serving and returns Switched=false
// with Reason and LogTail. It never switches before the probes say healthy,
// nor once ctx has ended.
//
// A failed health check is a Result, not an error. The error is non-nil
// when the redeploy could not be carried out: an invalid app
// (ErrInvalidApp), the runtime failing to start it, ctx ending (while
// waiting for another redeploy of the company or while probing), or the
// Deployer closing (ErrClosed); the Result then says as much as is known.
func (d *Deployer) Redeploy(ctx context.Context, app App) (Result, error) {
	return d.redeploy(ctx, app, d.probe)
}

// RedeployWith is Redeploy with a health check of its own (an app whose
// health path differs, a slower first start); its zero fields take the
// Deployer's Probe.
func (d *Deployer) RedeployWith(ctx context.Context, app App, probe Probe) (Result, error) {
	if probe.Path == "" {
		probe.Path = d.probe.Path
	}
	if probe.Interval <= 0 {
		probe.Interval = d.probe.Interval
	}
	if probe.Timeout <= 0 {
		probe.Timeout = d.probe.Timeout
	}
	if probe.Healthy <= 0 {
		probe.Healthy = d.probe.Healthy
	}
	if probe.Deadline <= 0 {
		probe.Deadline = d.probe.Deadline
	}
	return d.redeploy(ctx, app, probe.withDefaults())
}

// redeploy is Redeploy with probe.
func (d *Deployer) redeploy(ctx context.Context, app App, probe Probe) (Result, error) {
	began := time.Now()
	res := Result{Version: app.Version}
	done := func(reason string, err error) (Result, error) {
		res.Reason, res.Duration = reason, time.Since(began)
		return res, err
	}
	if !validCompanyID(app.CompanyID) {
		return done("invalid company id", fmt.Errorf("%w: company id %q", ErrInvalidApp, app.CompanyID))
	}
	c, err := d.company(app.CompanyID)
	if err != nil {
		return done("the deployer is closed", err)
	}
	select {
	case c.lock <- struct{}{}:
		defer func() { <-c.lock }()
	case <-ctx.Done():
		return done("cancelled while another redeploy of this company ran", fmt.Errorf("redeploy %s: %w", app.CompanyID, ctx.Err()))
	case <-d.ctx.Done():
		return done("the deployer is closed", ErrClosed)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(d.ctx, func() { cancel(ErrClosed) })()
	if old := c.cur.Load(); old != nil {
		res.Previous = old.version
	}
	log := d.log.With("company", app.CompanyID, "version", app.Version, "previous", res.Previous)

	inst, err := d.rt.Start(ctx, app)
	if err != nil {
		log.Warn("redeploy could not start the app", "err", err)
		if errors.Is(context.Cause(ctx), ErrClosed) {
			return done("the deployer is closed", ErrClosed)
		}
		return done("the app could not be started: "+err.Error(), fmt.Errorf("redeploy %s: %w", app.CompanyID, err))
	}
	ok, probes, reason := d.check(ctx, inst, probe)
	res.Probes = probes
	if ok {
		reason = d.swap(ctx, c, inst, app.Version, log)
		ok = reason == ""
	}
	if !ok {
		if err := inst.Stop(context.WithoutCancel(ctx)); err != nil {
			log.Error("stopping the failed instance", "err", err)
		}
		res.LogTail = inst.LogTail(d.tailLines)
		log.Warn("redeploy rolled back", "reason", reason)
		if err := context.Cause(ctx); err != nil {
			if errors.Is(err, ErrClosed) {
				return done(reason, ErrClosed)
			}
			return done(reason, fmt.Errorf("redeploy %s: %w", app.CompanyID, err))
		}
		return done(reason, nil)
	}
	res.Switched = true
	log.Info("redeploy switched traffic", "probes", len(probes))
	return done("", nil)
}

// swap makes inst the company's serving instance unless ctx has ended, the
// instance has exited or the Deployer is closed (it then says why), and
// retires the one it replaces.
func (d *Deployer) swap(ctx context.Context, c *company, inst Instance, version string, log *slog.Logger) string {
	select {
	case <-inst.Exited():
		return "the app exited just after it was found healthy"
	default:
	}
	if err := context.Cause(ctx); err != nil {
		return "cancelled before the switch: " + err.Error()
	}
	nb := newBackend(version, inst, d.clock.Now(), log)
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return "the deployer closed before the switch"
	}
	old := c.cur.Swap(nb)
	d.mu.Unlock()
	if old != nil {
		d.retire(context.WithoutCancel(ctx), old, d.drainTimeout)
	}
	return ""
}

// retire drains b for at most timeout, then stops its instance.
func (d *Deployer) retire(ctx context.Context, b *backend, timeout time.Duration) {
	dctx, cancel := context.WithTimeout(ctx, timeout)
	left := b.drain(dctx)
	cancel()
	if left > 0 {
		d.log.Warn("drain timed out; stopping the old instance with requests in flight", "version", b.version, "inflight", left)
	}
	if err := b.inst.Stop(ctx); err != nil {
		d.log.Error("stopping the old instance", "version", b.version, "err", err)
	}
}
