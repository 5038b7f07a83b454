package communitybench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"

	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	projcommunity "github.com/strata-platform/strata/projections/community"
)

// tenant is the seeded organization and what the measurements need of it.
type tenant struct {
	org      string
	keys     []string // API keys of the registered members
	members  []string // their user ids, in the order of keys
	upcoming []string // ids of scheduled events that start after the run
	events   int      // events on the store after seeding
	rsvps    int      // RSVPs recorded
}

// seed registers the members, decides and appends every event with its
// RSVPs (one append per event, the writers in parallel), and waits for the
// read model to catch up.
func (s *server) seed(ctx context.Context) (*tenant, []storebench.Figure, error) {
	o := s.o
	t, err := s.register(ctx)
	if err != nil {
		return nil, nil, err
	}
	o.Logf("seeding %d events with about %d RSVPs from %d people ...", o.Events, o.RSVPs, o.People)
	people := make([]string, o.People)
	for i := range people {
		people[i] = fmt.Sprintf("person-%d", i)
	}
	copy(people, t.members) // the members hold RSVPs too, so my-events has rows
	begin := time.Now()
	var (
		mu   sync.Mutex
		last eventstore.Key
		errs []error
		wg   sync.WaitGroup
	)
	for w := range o.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			for i := w; i < o.Events && ctx.Err() == nil; i += o.Writers {
				id, upcoming, evs, err := s.history(rng, t, i, people)
				var app eventstore.Appended
				if err == nil {
					app, err = s.store.Append(ctx, eventstore.Stream{Type: community.StreamEvent, ID: id}, eventstore.NoStream, evs...)
				}
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					t.events += len(evs)
					t.rsvps += len(evs) - 1
					if last.Less(app.Last) {
						last = app.Last
					}
					if upcoming {
						t.upcoming = append(t.upcoming, id)
					}
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("seed: %w", errs[0])
	}
	appended := time.Since(begin)
	o.Logf("  %d events (%d RSVPs) decided and appended in %.1f s; waiting for the read model ...", t.events, t.rsvps, appended.Seconds())
	wctx, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	if err := s.runner.WaitFor(wctx, last, projcommunity.Name); err != nil {
		return nil, nil, fmt.Errorf("seed: wait for the read model: %w", err)
	}
	caught := time.Since(begin)
	o.Logf("  read model caught up %.1f s after the seeding started", caught.Seconds())
	// The measurements are of the steady state autovacuum and the
	// checkpointer reach after a load (statistics gathered, visibility maps
	// set, the load's dirty pages written), not of the maintenance a
	// million-row load sets off.
	for _, q := range []string{`VACUUM ANALYZE es.events, es.streams, ` + projcommunity.Schema + `.events, ` +
		projcommunity.Schema + `.rsvps, ` + projcommunity.Schema + `.event_days`, `CHECKPOINT`} {
		if _, err := s.o.DB.ExecContext(ctx, q); err != nil {
			return nil, nil, fmt.Errorf("seed: %s: %w", q, err)
		}
	}
	if err := s.check(ctx, t); err != nil {
		return nil, nil, err
	}
	return t, []storebench.Figure{
		{Name: fmt.Sprintf("seed: decide + append %d events with %d RSVPs", o.Events, t.rsvps), Unit: "s", Ours: appended.Seconds(), Samples: t.events},
		{Name: "seed: read model caught up (from seeding start)", Unit: "s", Ours: caught.Seconds(), Samples: t.events},
	}, nil
}

// register signs up the members in one organization, each with an API key.
func (s *server) register(ctx context.Context) (*tenant, error) {
	o := s.o
	o.Logf("registering %d members with API keys ...", o.Members)
	t := &tenant{}
	var owner identity.User
	for i := range o.Members {
		email := fmt.Sprintf("member%d@bench.example", i)
		sess, err := s.id.Svc.Register(ctx, idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: fmt.Sprintf("Member %d", i)})
		if err != nil {
			return nil, fmt.Errorf("register %s: %w", email, err)
		}
		if i == 0 {
			owner, t.org = sess.User, sess.User.OrganizationID
		} else if _, err := s.id.Svc.AddMember(ctx, owner.ID, t.org, email, identity.OrgMember); err != nil {
			return nil, err
		}
		k, err := s.id.Svc.IssueKey(ctx, idcmd.IssueKey{UserID: sess.User.ID, Name: "bench", OrganizationID: t.org,
			ProjectID: owner.ProjectID})
		if err != nil {
			return nil, err
		}
		t.keys, t.members = append(t.keys, k.Secret), append(t.members, sess.User.ID)
	}
	return t, nil
}

// Shape of the seeded events: start times from a year ago to a year ahead
// (about half upcoming), a third with a capacity, RSVPs 60% going, 25%
// interested, 15% not going, some changed once.
const (
	spread      = 365 * 24 * time.Hour
	capacityOne = 3 // one event in capacityOne has a capacity
)

// history decides event i: its creation and its RSVPs, as the domain
// would have decided them at the time (before the event started).
func (s *server) history(rng *rand.Rand, t *tenant, i int, people []string) (string, bool, []kernel.Event, error) {
	o := s.o
	now := time.Now()
	start := now.Add(time.Duration(rng.Int64N(int64(2*spread))) - spread).Truncate(time.Minute)
	decided := start.Add(-30 * 24 * time.Hour) // when the event was created: a month before, and before now
	if decided.After(now) {
		decided = now.Add(-time.Hour)
	}
	end := start.Add(2 * time.Hour)
	avg := o.RSVPs / o.Events
	n := rng.IntN(2*avg + 1)
	d := community.Details{Title: fmt.Sprintf("Bench event %d", i), Description: "A seeded event.", StartTime: start,
		EndTime: &end, Location: "Online", EventType: community.EventTypes[i%len(community.EventTypes)],
		GroupID: fmt.Sprintf("group-%d", i%50)}
	if i%capacityOne == 0 {
		c := max(1, avg)
		d.Capacity = &c
	}
	id := uuid.Must(uuid.NewV7()).String()
	created, err := community.Create(id, t.org, t.members[i%len(t.members)], d, decided)
	if err != nil {
		return "", false, nil, err
	}
	ev := &community.Event{}
	ev.Apply(created)
	out := []kernel.Event{created}
	for j := range n {
		user := people[rng.IntN(len(people))]
		status := community.Going
		switch r := rng.IntN(100); {
		case r >= 85:
			status = community.NotGoing
		case r >= 60:
			status = community.Interested
		}
		at := decided.Add(time.Duration(j+1) * time.Minute)
		_, evs, err := ev.Respond(user, status, nil, uuid.Must(uuid.NewV7()).String(), at)
		if kernel.KindOf(err) == kernel.KindInvalid {
			continue // at capacity: refused, as it would have been
		}
		if err != nil {
			return "", false, nil, err
		}
		for _, e := range evs {
			ev.Apply(e)
		}
		out = append(out, evs...)
	}
	return id, start.After(now.Add(2 * time.Hour)), out, nil
}

// check compares the read model's counts with the store's for a sample of
// events: a bench that read wrong counts would measure nothing.
func (s *server) check(ctx context.Context, t *tenant) error {
	for i := 0; i < len(t.upcoming); i += max(1, len(t.upcoming)/20) {
		want, err := s.svc.Replay(ctx, t.org, t.upcoming[i])
		if err != nil {
			return err
		}
		got, err := projcommunity.Event(ctx, s.o.DB, t.org, t.upcoming[i])
		if err != nil {
			return err
		}
		if got.Going != want.Count(community.Going) || got.Interested != want.Count(community.Interested) || got.NotGoing != want.Count(community.NotGoing) {
			return fmt.Errorf("seed: event %s: read model counts %d/%d/%d, replay %d/%d/%d", t.upcoming[i], got.Going,
				got.Interested, got.NotGoing, want.Count(community.Going), want.Count(community.Interested), want.Count(community.NotGoing))
		}
	}
	return nil
}
