package captablebench

import (
	"context"
	"fmt"
	"time"

	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	projcaptable "github.com/strata-platform/strata/projections/captable"
)

// company is the seeded company and what the measurements need of it.
type company struct {
	id           string
	events       int       // on its stream
	today        time.Time // the bench's day: the cap table is read as of it
	stakeholders []string
	tokens       []string         // access tokens of accounts that are members
	summary      captable.Summary // the fold's cap table today, to check the reads against
}

// callsPerAccount bounds the calls of one account: the Enterprise plan's
// burst is 1000 calls a minute, so the HTTP figures spread their requests
// over enough member accounts never to be rate limited.
const callsPerAccount = 800

// accounts returns how many member accounts the HTTP figures need.
func (o Options) accounts() int {
	calls := 2*o.Rounds*o.Requests + 2*warmups(o) + 1 // and one checked read of the cap table
	return max(o.Clients, (calls+callsPerAccount-1)/callsPerAccount)
}

// warmups is how many requests of each route precede the measured rounds.
func warmups(o Options) int { return min(o.Requests, 4*o.Clients) }

// seeder decides the company's history on a local fold and appends the
// events in batches at the fold's version.
type seeder struct {
	ctx     context.Context // the seeding's: a seeder lives for one call of seed
	store   *eventstore.Store
	stream  eventstore.Stream
	batch   int
	c       captable.Company
	buf     []kernel.Event
	version int64
	last    eventstore.Key
}

// record folds what a decision returned and appends a full batch.
func (w *seeder) record(evs []kernel.Event, err error) error {
	if err != nil {
		return err
	}
	for _, ev := range evs {
		w.c.Apply(ev)
		w.buf = append(w.buf, ev)
	}
	if len(w.buf) >= w.batch {
		return w.flush()
	}
	return nil
}

// flush appends the buffered events at the stream's version.
func (w *seeder) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	app, err := w.store.Append(w.ctx, w.stream, w.version, w.buf...)
	if err != nil {
		return fmt.Errorf("seed: append at version %d: %w", w.version, err)
	}
	w.version, w.last, w.c.Version = app.ToVersion, app.Last, app.ToVersion
	w.buf = make([]kernel.Event, 0, w.batch)
	return nil
}

// seed registers the member accounts, decides and appends the company's
// history, and waits for the read model to catch up. Its figures are the
// time to decide and append, and the time until the read model caught up.
func (s *server) seed(ctx context.Context) (*company, []storebench.Figure, error) {
	o := s.o
	co := &company{id: s.svc.NewID(), today: captable.DayOf(time.Now()).Time}
	n := o.accounts()
	o.Logf("registering %d member accounts ...", n)
	members := make([]string, n)
	for i := range n {
		email := fmt.Sprintf("reader%d@bench.example", i)
		reg, err := s.svc.Register(ctx, cmd.RegisterInput{Name: fmt.Sprintf("Reader %d", i), Email: email,
			Password: "correct-horse-9", CompanyName: "Reader's own company"})
		if err != nil {
			return nil, nil, fmt.Errorf("register %s: %w", email, err)
		}
		if err := s.svc.SetPlan(ctx, email, captable.PlanEnterprise); err != nil {
			return nil, nil, err
		}
		members[i], co.tokens = reg.AccountID, append(co.tokens, reg.Tokens.AccessToken)
	}
	o.Logf("seeding a company of %d stakeholders and %d grants ...", o.Stakeholders, o.Grants)
	start := time.Now()
	w := &seeder{ctx: ctx, store: s.store, stream: eventstore.Stream{Type: captable.StreamCompany, ID: co.id}, batch: o.Batch}
	if err := s.history(w, co, members); err != nil {
		return nil, nil, err
	}
	appended := time.Since(start)
	co.events, co.summary = int(w.version), w.c.Summary(co.today)
	o.Logf("  %d events decided and appended in %.1f s; waiting for the read model ...", co.events, appended.Seconds())
	wctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	if err := s.runner.WaitFor(wctx, w.last, projcaptable.Name); err != nil {
		return nil, nil, fmt.Errorf("seed: wait for the read model: %w", err)
	}
	caught := time.Since(start)
	o.Logf("  read model caught up %.1f s after the seeding started", caught.Seconds())
	// Autovacuum analyzes freshly loaded tables within a minute or so; the
	// measurements are of that steady state, not of the planner's guesses
	// about tables it has never seen filled.
	if _, err := s.db.ExecContext(ctx, `ANALYZE`); err != nil {
		return nil, nil, fmt.Errorf("seed: analyze: %w", err)
	}
	if err := s.check(ctx, co); err != nil {
		return nil, nil, err
	}
	return co, []storebench.Figure{
		{Name: fmt.Sprintf("seed: decide + append %s events", thousands(co.events)), Unit: "s", Ours: appended.Seconds(), Samples: co.events},
		{Name: "seed: read model caught up (from seeding start)", Unit: "s", Ours: caught.Seconds(), Samples: co.events},
	}, nil
}

// history decides the whole company: creation and memberships, classes,
// stakeholders, the plan's dated steps in date order, then the expiry of
// the awards that lapsed (what the service's sweep records).
func (s *server) history(w *seeder, co *company, members []string) error {
	now := time.Now()
	if err := w.record(captable.NewCompany(co.id, "Bench Company", members[0], now)); err != nil {
		return err
	}
	for _, m := range members[1:] {
		if err := w.record(w.c.AddMember(m, captable.RoleViewer, now)); err != nil {
			return err
		}
	}
	p := newPlan(s.o, s.svc.NewID, co.today)
	for _, create := range p.classes(s.o.Grants) {
		if err := w.record(create(&w.c, now)); err != nil {
			return fmt.Errorf("seed: share class: %w", err)
		}
	}
	for i, in := range p.people {
		if err := w.record(w.c.AddStakeholder(p.ids[i], in, now)); err != nil {
			return fmt.Errorf("seed: stakeholder %d: %w", i, err)
		}
	}
	co.stakeholders = p.ids
	for i, st := range p.steps {
		if err := w.record(st.decide(&w.c, co.today)); err != nil {
			return fmt.Errorf("seed: step %d of %d on %s: %w", i, len(p.steps), st.day.Format(time.DateOnly), err)
		}
		if i%20000 == 19999 {
			s.o.Logf("  %d of %d dated steps decided", i+1, len(p.steps))
		}
	}
	if err := w.record(w.c.ExpireLapsed(co.today), nil); err != nil {
		return err
	}
	return w.flush()
}

// check compares the read model's cap table with the fold's: a bench that
// read a wrong cap table would measure nothing.
func (s *server) check(ctx context.Context, co *company) error {
	got, err := projcaptable.Summary(ctx, s.db, co.id, co.today, 0)
	if err != nil {
		return err
	}
	want := co.summary
	if !got.FullyDiluted.Equal(want.FullyDiluted) || !got.TotalIssued.Equal(want.TotalIssued) ||
		!got.UnallocatedPool.Equal(want.UnallocatedPool) || len(got.Holders) != len(want.Holders) {
		return fmt.Errorf("seed: the read model's cap table (fully diluted %s, issued %s, pool %s, %d holders) "+
			"differs from the fold's (%s, %s, %s, %d holders)", got.FullyDiluted, got.TotalIssued, got.UnallocatedPool,
			len(got.Holders), want.FullyDiluted, want.TotalIssued, want.UnallocatedPool, len(want.Holders))
	}
	return nil
}

// thousands writes n with thousands separators: 100,437.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
