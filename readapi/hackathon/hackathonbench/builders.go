package hackathonbench

import (
	"context"
	"fmt"
	"time"

	cmdhackathon "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// shadow is the bench's own fold of the hackathon's stream, on which a
// batch of builders is decided one command after another (each decision
// seeing the events of the ones before it) before the batch is appended
// at once through the service.
type shadow struct {
	store *eventstore.Store
	id    string
	h     hackathon.Hackathon
	dirty bool // holds decided events that may not have been appended
}

// sync catches the shadow up with the stream and checks it stands at
// version (the service's fold, under the service's lock).
func (s *shadow) sync(ctx context.Context, version int64) error {
	if s.dirty {
		s.h, s.dirty = hackathon.Hackathon{}, false
	}
	envs, err := s.store.Load(ctx, s.id, eventstore.LoadOptions{AfterVersion: s.h.Version})
	if err != nil {
		return err
	}
	for _, env := range envs {
		s.h.Apply(env.Event)
		s.h.Version = env.StreamVersion
	}
	if s.h.Version != version {
		return fmt.Errorf("hackathonbench: the stream is at version %d, the service's fold at %d", s.h.Version, version)
	}
	return nil
}

// decide runs one decision on the shadow and folds its events into it.
func (s *shadow) decide(evs []kernel.Event, decide func(h *hackathon.Hackathon) ([]kernel.Event, error)) ([]kernel.Event, error) {
	s.dirty = true
	out, err := decide(&s.h)
	if err != nil {
		return nil, err
	}
	for _, e := range out {
		s.h.Apply(e)
	}
	return append(evs, out...), nil
}

// builders gives the hackathon o.Submissions builders (synthetic user
// ids), each joining as builder, creating a team and submitting a project
// on a track (round robin), through the commands service: o.Batch builders
// per Service.Do, which appends them at the fold's version and waits for
// the read model.
func (b *bench) builders(ctx context.Context) ([]storebench.Figure, error) {
	o := b.o
	o.Logf("%d builders (synthetic ids) join, create a team and submit, through Service.Do, %d per append ...", o.Submissions, o.Batch)
	svc := b.srv.Service
	sh := &shadow{store: b.srv.Store, id: b.hid}
	start := time.Now()
	last := start
	for from := 0; from < o.Submissions; from += o.Batch {
		to := min(o.Submissions, from+o.Batch)
		var subs []string
		app, err := svc.Do(ctx, b.hid, b.organiser.ID, false, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			if err := sh.sync(ctx, h.Version); err != nil {
				return nil, err
			}
			subs = subs[:0]
			now := svc.Now()
			var evs []kernel.Event
			var err error
			for i := from; i < to; i++ {
				user, team, sub := cmdhackathon.NewID(), cmdhackathon.NewID(), cmdhackathon.NewID()
				evs, err = sh.decide(evs, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
					return h.Join(hackathon.Joiner{UserID: user}, hackathon.RoleBuilder, now)
				})
				if err == nil {
					evs, err = sh.decide(evs, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
						return h.CreateTeam(user, team, fmt.Sprintf("Team %05d", i), "", now)
					})
				}
				if err == nil {
					evs, err = sh.decide(evs, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
						return h.CreateSubmission(user, sub, hackathon.Submission{TeamID: team, ProjectName: fmt.Sprintf("Project %05d", i),
							Description: "A strata bench project", TrackID: b.tracks[i%len(b.tracks)]}, now)
					})
				}
				if err != nil {
					return nil, fmt.Errorf("builder %d: %w", i, err)
				}
				subs = append(subs, sub)
			}
			return evs, nil
		})
		if err != nil {
			return nil, err
		}
		sh.h.Version, sh.dirty = app.ToVersion, false
		b.subs = append(b.subs, subs...)
		if time.Since(last) > 10*time.Second {
			last = time.Now()
			o.Logf("  %d builders ...", to)
		}
	}
	elapsed := time.Since(start)
	rate := float64(o.Submissions) / elapsed.Seconds()
	o.Logf("  %d builders, teams and submissions in %s (%.0f builders/s, 4 events each)", o.Submissions, elapsed.Round(time.Millisecond), rate)
	return []storebench.Figure{{Name: fmt.Sprintf("setup: %d builders join + team + submission (Service.Do, synthetic ids, %d per append)",
		o.Submissions, o.Batch), Unit: "bld/s", Ours: rate, Samples: o.Submissions}}, nil
}
