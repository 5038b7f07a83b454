package projections

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/strata-platform/strata/eventstore"
)

// Config tunes the live consumers. Zero values take the defaults.
type Config struct {
	BatchSize    int           // events per consumer transaction (eventstore.DefaultBatchSize)
	PollInterval time.Duration // fallback poll when no notification comes (500ms)
	RetryMin     time.Duration // first retry delay after a failing event (100ms)
	RetryMax     time.Duration // longest retry delay (30s)
	ApplyTimeout time.Duration // longest single Apply (1m)
	// Observe, when set, is called with every event a live projector
	// consumes, before it is applied; for instrumentation and tests. It must
	// be fast and must not block.
	Observe func(projector string, e eventstore.Envelope)
}

func (c Config) withDefaults() Config {
	if c.BatchSize <= 0 {
		c.BatchSize = eventstore.DefaultBatchSize
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 500 * time.Millisecond
	}
	if c.RetryMin <= 0 {
		c.RetryMin = 100 * time.Millisecond
	}
	if c.RetryMax <= 0 {
		c.RetryMax = 30 * time.Second
	}
	if c.ApplyTimeout <= 0 {
		c.ApplyTimeout = time.Minute
	}
	return c
}

// TransientRetryMax is the longest wait between retries after a failure
// that says nothing about the event (see transient): the database going
// away and coming back.
const TransientRetryMax = time.Second

// Runner runs projectors live. Each projector consumes the store through its
// own Watermill SQL subscriber (its own consumer group); a batch's read-model
// writes and its checkpoint commit in one transaction.
type Runner struct {
	db          *stdsql.DB
	reg         *eventstore.Registry
	wake        *Signal
	progress    *Signal
	checkpoints *checkpoints
	logger      *slog.Logger
	cfg         Config
	projectors  []Projector

	guard *ParkedGuard

	mu      sync.Mutex
	states  map[string]*State
	isolate map[string]bool // a batch of this Partitioned projector failed: apply the next one event by event
}

// NewRunner returns a runner for projectors. wake is fired by the LISTEN
// connection (see Listen) whenever events commit.
func NewRunner(db *stdsql.DB, reg *eventstore.Registry, wake *Signal, logger *slog.Logger, cfg Config, projectors ...Projector) (*Runner, error) {
	seen := map[string]bool{}
	for _, p := range projectors {
		if seen[p.Name()] {
			return nil, fmt.Errorf("projector %q registered twice", p.Name())
		}
		seen[p.Name()] = true
	}
	r := &Runner{db: db, reg: reg, wake: wake, progress: NewSignal(), checkpoints: &checkpoints{db: db}, logger: logger,
		cfg: cfg.withDefaults(), projectors: projectors, states: map[string]*State{}, isolate: map[string]bool{},
		guard: NewParkedGuard(db)}
	for _, p := range projectors {
		r.states[p.Name()] = &State{Name: p.Name(), State: StateStarting}
	}
	return r, nil
}

// Guard returns the runner's view of parked streams; the event store checks
// it before every append (eventstore.Store.SetGuard).
func (r *Runner) Guard() *ParkedGuard { return r.guard }

// Projectors returns the runner's projectors.
func (r *Runner) Projectors() []Projector { return r.projectors }

// Run consumes until ctx ends, then lets every projector commit the events it
// has applied and returns. It returns early only if ctx is already done.
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.refreshGuard(ctx)
	}()
	for _, p := range r.projectors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.runProjector(ctx, p)
		}()
	}
	wg.Wait()
}

func (r *Runner) runProjector(ctx context.Context, p Projector) {
	delay := r.cfg.RetryMin
	for ctx.Err() == nil {
		err := r.consume(ctx, p)
		if ctx.Err() != nil {
			break
		}
		if err == nil {
			continue
		}
		if r.contain(ctx, p, err) {
			delay = r.cfg.RetryMin
			continue
		}
		if !r.failing(p.Name()) {
			delay = r.cfg.RetryMin // a new failure after a recovery starts the backoff again
		}
		r.failed(ctx, p.Name(), err)
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		// A transient failure (the database restarting) is retried at least
		// every TransientRetryMax, so projectors resume within a second or so
		// of the database's return; a failing event backs off to RetryMax.
		limit := r.cfg.RetryMax
		if transient(err) {
			limit = min(limit, TransientRetryMax)
		}
		if delay *= 2; delay > limit {
			delay = limit
		}
	}
	r.setState(context.WithoutCancel(ctx), p.Name(), StateStopped)
}

// consume runs one subscription until ctx ends (nil) or an event fails (its
// error). On failure the subscription's context is cancelled, which makes
// database/sql roll back the whole batch: nothing of it is kept.
func (r *Runner) consume(ctx context.Context, p Projector) error {
	subCtx, cancelSub := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelSub()
	stop := make(chan struct{})
	var pending eventstore.Key
	var pmu sync.Mutex
	wakeSub := r.wake.Subscribe(payloadTypes(p))
	defer wakeSub.Close()
	w := &wake{sig: wakeSub, poll: r.cfg.PollInterval, retry: r.cfg.RetryMin, stop: stop,
		onBatch: func(empty bool) {
			pmu.Lock()
			key := pending
			pmu.Unlock()
			r.committed(context.WithoutCancel(ctx), p.Name(), key)
		},
		onFailed: func(err error) {
			if subCtx.Err() == nil {
				r.logger.Warn("projector read failed", "projector", p.Name(), "err", err)
			}
		}}
	h := newHandler(p, r.reg, r.cfg.ApplyTimeout)
	h.observe = r.cfg.Observe
	r.mu.Lock()
	h.single, r.isolate[p.Name()] = r.isolate[p.Name()], false
	r.mu.Unlock()
	deadline := 10 * r.cfg.ApplyTimeout
	sub, err := wsql.NewSubscriber(r.db, wsql.SubscriberConfig{
		ConsumerGroup:  p.Name(),
		AckDeadline:    &deadline,
		PollInterval:   r.cfg.PollInterval,
		BackoffManager: w,
		SchemaAdapter:  eventstore.SchemaAdapter{BatchSize: r.cfg.BatchSize, Handles: payloadTypes(p), Only: deliveredTypes(p, h), Batch: h.batch},
		OffsetsAdapter: eventstore.OffsetsAdapter{},
	}, watermill.NopLogger{})
	if err != nil {
		return fmt.Errorf("subscriber: %w", err)
	}
	msgs, err := sub.Subscribe(subCtx, eventstore.Topic)
	if err != nil {
		_ = sub.Close()
		return fmt.Errorf("subscribe: %w", err)
	}
	r.setState(ctx, p.Name(), StateRunning)
	var failure error
	for failure == nil && ctx.Err() == nil {
		var msg *message.Message
		var ok bool
		select {
		case <-ctx.Done():
		case msg, ok = <-msgs:
		}
		if msg == nil || !ok {
			break
		}
		key, err := h.handle(msg)
		if err != nil {
			failure = err
			cancelSub()
			break
		}
		pmu.Lock()
		pending = key
		pmu.Unlock()
		msg.Ack()
	}
	if failure == nil {
		// Stopping mid-batch: apply what is buffered before the acked part commits.
		if failure = h.flush(subCtx); failure != nil {
			cancelSub()
		}
	}
	close(stop)
	_ = sub.Close()
	return failure
}

// handler applies one consumed message inside the subscriber's transaction.
// For a BatchProjector it buffers the batch's handled events and applies them
// in one ApplyBatch call when the batch's last message arrives (or when the
// consumer stops mid-batch), still before the batch commits.
type handler struct {
	p       Projector
	reg     *eventstore.Registry
	schema  string
	handles map[string]bool
	timeout time.Duration
	lastTx  *stdsql.Tx
	batcher BatchProjector
	batch   *eventstore.Batch
	buffer  []eventstore.Envelope
	observe func(string, eventstore.Envelope)
	// partitioned: events of a parked stream are held (not applied) and the
	// stream's first failing event parks it; parked is read per batch.
	partitioned bool
	parked      map[string]eventstore.Key
	// single applies the first batch event by event (Apply, not ApplyBatch),
	// to find which event of a failed batch fails.
	single bool
}

func newHandler(p Projector, reg *eventstore.Registry, timeout time.Duration) *handler {
	h := &handler{p: p, reg: reg, schema: SchemaName(p.Name()), handles: handlesSet(p), timeout: timeout, batch: &eventstore.Batch{}}
	if bp, ok := p.(BatchProjector); ok {
		h.batcher = bp
	}
	_, h.partitioned = p.(Partitioned)
	return h
}

func (h *handler) handle(msg *message.Message) (eventstore.Key, error) {
	env, last, err := h.batch.Envelope(msg)
	if err != nil {
		return eventstore.Key{}, err
	}
	if h.observe != nil {
		h.observe(h.p.Name(), env)
	}
	tx, ok := wsql.TxFromContext(msg.Context())
	if !ok {
		return env.Key(), errors.New("no transaction in the message context")
	}
	ctx, cancel := context.WithTimeout(msg.Context(), h.timeout)
	defer cancel()
	if tx != h.lastTx {
		if len(h.buffer) > 0 {
			return env.Key(), fmt.Errorf("event %d: a new batch began with %d events of the last one unapplied", env.Position, len(h.buffer))
		}
		if err := configureTx(ctx, tx, h.schema); err != nil {
			return env.Key(), fmt.Errorf("event %d: %w", env.Position, err)
		}
		if h.partitioned {
			if h.parked, err = parkedIn(ctx, tx, h.p.Name()); err != nil {
				return env.Key(), err
			}
		}
		if h.lastTx != nil {
			h.single = false // only the first batch after a batch failure
		}
		h.lastTx = tx
	}
	if h.handles[env.Type] && !held(h.parked, &env) {
		if err := h.resolve(&env); err != nil {
			return env.Key(), &ApplyError{Position: env.Position, Type: env.Type, Event: &env, Err: err}
		}
		if h.batcher != nil && !h.single {
			h.buffer = append(h.buffer, env)
		} else if err := h.p.Apply(ctx, tx, env); err != nil {
			return env.Key(), &ApplyError{Position: env.Position, Type: env.Type, Event: &env, Err: err}
		}
	}
	if h.batcher != nil && last {
		if err := h.flush(msg.Context()); err != nil {
			return env.Key(), err
		}
	}
	return env.Key(), nil
}

// resolve decodes env's payload, except for an EnvelopeOnly projector,
// which is never shipped one.
func (h *handler) resolve(env *eventstore.Envelope) error { return resolvePayload(h.reg, env) }

// resolvePayload decodes a shipped payload; an event shipped without one
// (to an EnvelopeOnly projector) stays undecoded.
func resolvePayload(reg *eventstore.Registry, env *eventstore.Envelope) error {
	if env.Payload == nil {
		return nil
	}
	return reg.Resolve(env)
}

// flush applies the buffered events in the current batch's transaction.
func (h *handler) flush(ctx context.Context) error {
	if len(h.buffer) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	first := h.buffer[0]
	err := h.batcher.ApplyBatch(ctx, h.lastTx, h.buffer)
	h.buffer = h.buffer[:0]
	if err != nil {
		return &ApplyError{Position: first.Position, Type: first.Type, Batch: true, Err: fmt.Errorf("batch starting here: %w", err)}
	}
	return nil
}

// ApplyError is a projector's failure on one event.
type ApplyError struct {
	Position int64
	Type     string
	Event    *eventstore.Envelope // the failing event, when known (nil for a batch)
	Batch    bool                 // a BatchProjector's batch failed somewhere from Position on
	Err      error
}

func (e *ApplyError) Error() string {
	return fmt.Sprintf("event %d (%s): %v", e.Position, e.Type, e.Err)
}

// Unwrap returns the projector's error.
func (e *ApplyError) Unwrap() error { return e.Err }
