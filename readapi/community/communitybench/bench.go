// Package communitybench measures community events against baselines taken
// in the same run on the same machine. It seeds one tenant with (by
// default) 100,000 events and 1,000,000 RSVPs decided by the domain itself,
// lets the read model catch up, and measures over loopback HTTP with API
// keys:
//
//   - browse (by start time and by attendee count), the upcoming list and
//     my-events, against GET /community-events/{id} (one row, same
//     authentication) on the same server;
//   - the RSVP command (POST /{event_id}/rsvp: fold, decide, append, wait
//     for the read model) against a bare append of one event to a new
//     stream through the same store;
//   - RSVP commands paced at the target rate for a while: the rate reached
//     and the latency under that load.
//
// `strata bench community` runs it in a scratch database.
package communitybench

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/projections"
	projcommunity "github.com/strata-platform/strata/projections/community"
	readcommunity "github.com/strata-platform/strata/readapi/community"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// Options size a run. Start from Full or Quick and set DB and MailDir.
type Options struct {
	DB       *stdsql.DB // a migrated database reserved for the bench (see storebench.NewScratch)
	MailDir  string     // where the identity context's dev mailbox writes
	Progress io.Writer  // a line per step; nil discards them
	Mode     string     // names the preset in the report

	Events  int // events of the seeded tenant
	RSVPs   int // RSVPs over those events (about; capacity refusals are skipped)
	People  int // distinct users the seeded RSVPs come from
	Members int // registered members with API keys who make the HTTP calls
	Writers int // concurrent appenders while seeding

	Clients  int // concurrent keep-alive HTTP clients of the latency figures
	Requests int // requests per side (ours and the baseline) and round
	Rounds   int // alternating baseline/ours rounds

	Rate     int           // RSVP commands per second of the sustained figure
	Duration time.Duration // how long the sustained figure lasts
}

// Full is the preset of `strata bench community`: the sizes of the issue's
// targets.
func Full() Options {
	return Options{Mode: "full", Events: 100_000, RSVPs: 1_000_000, People: 20_000, Members: 50, Writers: 4,
		Clients: 8, Requests: 2000, Rounds: 2, Rate: 500, Duration: 20 * time.Second}
}

// Quick is the preset of `--quick`: a smoke test, well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Events: 2000, RSVPs: 20_000, People: 1000, Members: 8, Writers: 2,
		Clients: 8, Requests: 300, Rounds: 1, Rate: 200, Duration: 3 * time.Second}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// server is the platform API (identity) with the community routes, the
// community projector running live and read-your-writes as in production.
type server struct {
	o      Options
	id     *identitybench.Server
	svc    *cmd.Service
	runner *projections.Runner
	store  *eventstore.Store
	stop   context.CancelFunc
	done   chan struct{}
}

func start(ctx context.Context, o Options) (*server, error) {
	var defs []eventstore.EventDef
	for _, c := range community.Events() {
		defs = append(defs, eventstore.EventDef{Name: c().EventType(), Version: 1, New: c})
	}
	s := &server{o: o, done: make(chan struct{})}
	wake := projections.NewSignal()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	id, err := identitybench.Start(ctx, identitybench.Options{DB: o.DB, MailDir: o.MailDir}, defs, func(is *identitybench.Server, r *mux.Router) {
		s.store = is.Store
		runner, err := projections.NewRunner(o.DB, is.Store.Registry(), wake, logger, projections.Config{},
			projcommunity.Projector{})
		if err != nil {
			panic(err) // a static projector list: only a programming error fails here
		}
		s.runner = runner
		s.svc = cmd.New(is.Store, kernel.SystemClock{}, logger, cmd.Config{Wait: func(ctx context.Context, k eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			return runner.WaitFor(wctx, k, projcommunity.Name)
		}})
		readcommunity.Routes(r, readcommunity.Config{Service: s.svc, DB: o.DB, Auth: is.Auth, People: nobody{}, BaseURL: is.URL})
	})
	if err != nil {
		return nil, err
	}
	s.id = id
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	go s.store.RunNotifierTypes(bg, wake.FireTypes)
	go func() { defer close(s.done); s.runner.Run(bg) }()
	return s, nil
}

// nobody answers the community's profile questions in the bench (no
// comment is read).
type nobody struct{}

func (nobody) Profile(string) (string, string, bool) { return "", "", false }
func (nobody) Administers(string, string) bool       { return false }

func (s *server) close() {
	s.id.Close()
	s.stop()
	<-s.done
}

// Run seeds the tenant on o.DB, serves the platform API on a loopback port
// and measures; the figures are in the order of the package comment, after
// the seeding figures.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "community", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0),
		Server: fmt.Sprintf("loopback HTTP, %d events, %d RSVPs in one tenant", o.Events, o.RSVPs)}
	if o.Events < 100 || o.RSVPs < o.Events || o.People < 100 || o.Members < 2 || o.Writers < 1 || o.Clients < 1 ||
		o.Requests < 1 || o.Rounds < 1 || o.Rate < 1 || o.Duration <= 0 {
		return rep, fmt.Errorf("communitybench: options out of range: %+v", o)
	}
	var version string
	if err := o.DB.QueryRowContext(ctx, `SHOW server_version`).Scan(&version); err == nil {
		rep.Server = "PostgreSQL " + version + ", " + rep.Server
	}
	s, err := start(ctx, o)
	if err != nil {
		return rep, err
	}
	defer s.close()
	t, figs, err := s.seed(ctx)
	if err != nil {
		return rep, err
	}
	rep.Figures = append(rep.Figures, figs...)
	for _, step := range []func(context.Context, *tenant) ([]storebench.Figure, error){s.lists, s.rsvpLatency, s.sustained} {
		figs, err := step(ctx, t)
		if err != nil {
			return rep, err
		}
		rep.Figures = append(rep.Figures, figs...)
	}
	rep.Elapsed = time.Since(begin)
	return rep, nil
}
