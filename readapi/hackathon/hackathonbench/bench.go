// Package hackathonbench measures the hackathon surface over loopback HTTP
// at the size of issue 23 (5,000 submissions, 100 judges, 3 scores each),
// each figure next to a baseline taken in the same run on the same server:
//
//   - Assignment: GET .../judging/assignments as the organiser (every
//     submission's panel, computed from the fold), before any score, p50
//     and p95; baseline: the pure judging.Assign on the same input, in
//     process (what the HTTP layer, the fold and the JSON add).
//   - The score command: POST .../judging/scores with a judge's API key
//     (fold, decide against the rubric, append, wait for the hackathon.v1
//     projector, which recomputes the judge's statistics and the z-scores
//     of every submission the judge scored), one client, p50, p95 and p99
//     of the last scores of the run; baseline, sent in alternation by the
//     same client with the same key: GET /api/v1/hackathons/{id} (the
//     same surface, authentication, rate limit and fold catch-up).
//   - The leaderboard from the read model: GET .../judging/leaderboard
//     (default page, method zscore) overall and per track, p50 and p95,
//     in alternation with the same GET /api/v1/hackathons/{id}.
//
// Setup goes through the real HTTP surface where the route is what is
// measured or where credentials matter: the organiser creates the
// hackathon, its 4 tracks and its rubric and makes it LIVE, invites the
// judges (the tokens are read from the dev mailbox) and every judge joins
// over HTTP with their own API key; every score is sent over HTTP by the
// judge the assignment chose. The builders are synthetic user ids (the
// hackathon context stores only ids; registering 5,000 platform accounts
// would cost 5,000 argon2id hashes): their joins, teams and submissions go
// through the commands service (Service.Do), each decided by the domain
// (Join, CreateTeam, CreateSubmission) on the fold as the earlier ones of
// the batch left it, o.Batch builders per append. The setup figures say
// which path each step took.
//
// `strata bench hackathon` starts `strata serve --surfaces hackathon,api`
// itself on a scratch database (cmd/strata), with the production wiring.
// The load generator shares the machine with it.
package hackathonbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	cmdhackathon "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/storebench"
)

// Options size a run. Start from Full or Quick and set Start.
type Options struct {
	// Start starts the hackathon surface under bench.
	Start    func(ctx context.Context) (*Server, error)
	Progress io.Writer // a line per step; nil discards them
	Mode     string    // names the preset in the report

	Submissions int // builders, each with a team and one submission
	Judges      int // judges, each a platform account with an API key
	K           int // judges per submission (scores per submission)
	Batch       int // builders decided and appended per Service.Do
	Clients     int // concurrent clients of the unmeasured scores
	Measured    int // last score commands, measured one at a time
	Leaderboard int // leaderboard requests per variant (and as many baseline requests)
	Assignments int // measured GET .../judging/assignments (and as many judging.Assign runs)
}

// Full is the preset of `strata bench hackathon`: the sizes of the issue.
func Full() Options {
	return Options{Mode: "full", Submissions: 5000, Judges: 100, K: 3, Batch: 50, Clients: 8, Measured: 2000,
		Leaderboard: 300, Assignments: 20}
}

// Quick is the preset of `--quick`: a smoke test of well under a minute.
func Quick() Options {
	return Options{Mode: "quick", Submissions: 500, Judges: 20, K: 3, Batch: 50, Clients: 8, Measured: 300,
		Leaderboard: 100, Assignments: 5}
}

// Logf prints a progress line to o.Progress, if set.
func (o Options) Logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// User is a platform account the bench acts as.
type User struct {
	ID, Email string
	Key       string // an API key of the account
}

// Server is a running hackathon surface under bench.
type Server struct {
	URL string // the hackathon surface's base URL: http://127.0.0.1:port
	// Register creates a platform account with an API key.
	Register func(ctx context.Context, email, name string) (User, error)
	// Service and Store are the server's own hackathon commands service and
	// event store: the builders' setup goes through them.
	Service *cmdhackathon.Service
	Store   *eventstore.Store
	// MailDir is the dev mailbox the judge invitations are written to.
	MailDir  string
	Describe string // what runs, for the report's header
	Close    func() error
}

// Run starts the server (o.Start), sets the hackathon up and measures; the
// figures come in the order they are taken: setup, assignment, the score
// command, the leaderboard.
func Run(ctx context.Context, o Options) (storebench.Report, error) {
	begin := time.Now()
	rep := storebench.Report{Bench: "hackathon", Mode: o.Mode, CPUs: runtime.GOMAXPROCS(0), Server: "loopback HTTP"}
	if o.Start == nil || o.Submissions < 4 || o.Judges < o.K || o.K < 1 || o.Batch < 1 || o.Clients < 1 ||
		o.Measured < 1 || o.Measured >= o.Submissions*o.K || o.Leaderboard < 1 || o.Assignments < 1 {
		return rep, fmt.Errorf("hackathonbench: options out of range: %+v", o)
	}
	o.Logf("starting the hackathon surface ...")
	srv, err := o.Start(ctx)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err := srv.Close(); err != nil {
			o.Logf("stopping the server: %v", err)
		}
	}()
	if srv.URL == "" || srv.Register == nil || srv.Service == nil || srv.Store == nil || srv.MailDir == "" {
		return rep, errors.New("hackathonbench: Start returned a server without a URL, a registration, a service, a store or a mailbox")
	}
	rep.Server = fmt.Sprintf("loopback HTTP, %s; %d submissions, %d judges, %d scores each", srv.Describe, o.Submissions, o.Judges, o.K)
	b := &bench{o: o, srv: srv, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.Clients,
		IdleConnTimeout: 90 * time.Second, DisableCompression: true}, Timeout: 2 * time.Minute}}
	defer b.http.CloseIdleConnections()
	for _, step := range []func(context.Context) ([]storebench.Figure, error){
		b.accounts, b.setup, b.builders, b.assignments, b.scores, b.leaderboard, b.rankedAgain,
	} {
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
	o    Options
	srv  *Server
	http *http.Client

	organiser User
	judges    []User
	hid       string   // the hackathon's id
	tracks    []string // its tracks' ids
	subs      []string // submission ids, in creation order
	panels    map[string][]string
}
