package builder

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// NightlyConfig is what the nightly loop needs.
type NightlyConfig struct {
	Store   *eventstore.Store
	Chats   *Chats
	Systems *Systems
	// Jobs runs the loop: NewNightly declares the dispatcher (periodic) and
	// the per-company run (unique per company and night). nil: no
	// schedule (strata builder nightly runs it on demand).
	Jobs  *jobs.Service
	Clock kernel.Clock
	IDs   kernel.IDs
	// SecretNames lists the names (never the values) of a company's app
	// secrets; nil: read from the company's builder.secrets events.
	SecretNames func(ctx context.Context, companyID string) ([]string, error)
	// DispatchCron is the dispatcher's schedule in UTC; "": every 15
	// minutes ("*/15 * * * *"). Windows last at least an hour, so every
	// window sees several dispatches.
	DispatchCron string
	Logger       *slog.Logger
}

// Nightly is the nightly loop: founders enroll companies; each night,
// within its window, one run per company reads (no side effects), then
// writes safe outputs only (proposals capped by the budget, a report
// event). Offline, as today, it runs the checks only and says so.
type Nightly struct {
	cfg NightlyConfig
}

// Job kinds and the periodic dispatcher's name.
const (
	NightlyDispatchName = "builder.nightly.dispatch"
)

// NightlyDispatchArgs is the dispatcher's job: enqueue the runs of the
// companies whose window is open.
type NightlyDispatchArgs struct{}

// Kind implements jobs.Args.
func (NightlyDispatchArgs) Kind() string { return NightlyDispatchName }

// NightlyRunArgs is one company's run of one night; unique by both.
type NightlyRunArgs struct {
	CompanyID string `json:"company_id"`
	Night     string `json:"night"`
}

// Kind implements jobs.Args.
func (NightlyRunArgs) Kind() string { return "builder.nightly.run" }

// NewNightly returns the nightly loop and, with Jobs, declares its job
// kinds and the periodic dispatcher (before the jobs service starts).
func NewNightly(cfg NightlyConfig) (*Nightly, error) {
	if cfg.Store == nil || cfg.Chats == nil || cfg.Systems == nil || cfg.Clock == nil || cfg.IDs == nil {
		return nil, errors.New("builder nightly: Store, Chats, Systems, Clock and IDs are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.DispatchCron == "" {
		cfg.DispatchCron = "*/15 * * * *"
	}
	n := &Nightly{cfg: cfg}
	if cfg.Jobs == nil {
		return n, nil
	}
	if err := jobs.Handle(cfg.Jobs, n.runJob, jobs.KindOptions{MaxAttempts: 3}); err != nil {
		return nil, err
	}
	if err := jobs.Handle(cfg.Jobs, n.dispatchJob, jobs.KindOptions{MaxAttempts: 3}); err != nil {
		return nil, err
	}
	err := cfg.Jobs.Schedule(jobs.Periodic{Name: NightlyDispatchName, Cron: cfg.DispatchCron, Zone: "UTC",
		Args: func(time.Time) jobs.Args { return NightlyDispatchArgs{} }})
	if err != nil {
		return nil, err
	}
	return n, nil
}

func nightlyStream(companyID string) eventstore.Stream {
	return eventstore.Stream{Type: builder.StreamNightly, ID: builder.NightlyStream(companyID)}
}

// Load folds the company's nightly stream (the zero Nightly: never
// enrolled).
func (n *Nightly) Load(ctx context.Context, companyID string) (*builder.Nightly, error) {
	evs, err := n.cfg.Store.Load(ctx, builder.NightlyStream(companyID), eventstore.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("load the nightly loop of %s: %w", companyID, err)
	}
	st := &builder.Nightly{}
	for _, e := range evs {
		st.Apply(e.Event, e.StreamVersion)
	}
	return st, nil
}

// Enrollment is a company's enrollment and when its next run is due.
type Enrollment struct {
	builder.NightlyEnrolled
	NextRunAt time.Time
}

// Enroll enrolls the founder's company (Chats.Owned: 400, 404, 403) in the
// nightly loop, or replaces its enrollment (builder.Enroll decides; 400s
// name the field). The event and the dispatcher's row commit together.
func (n *Nightly) Enroll(ctx context.Context, founderID, companyID string, in builder.EnrollInput) (Enrollment, error) {
	if _, err := n.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return Enrollment{}, err
	}
	var out Enrollment
	err := n.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		if err := lockCompany(ctx, tx, "builder.nightly", companyID); err != nil {
			return err
		}
		st, err := n.Load(ctx, companyID)
		if err != nil {
			return err
		}
		ev, err := builder.Enroll(companyID, founderID, in, st.Enrollment != nil, n.cfg.Clock.Now())
		if err != nil {
			return err
		}
		a, err := n.cfg.Store.AppendTx(ctx, tx, nightlyStream(companyID), st.Version, ev)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO platform.builder_nightly_enrollments (company_id, time_zone, window_start,
			window_end, stream_version, enrolled_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (company_id) DO UPDATE
			SET time_zone = $2, window_start = $3, window_end = $4, stream_version = $5, enrolled_at = $6`,
			companyID, ev.TimeZone, ev.Window.Start, ev.Window.End, a.ToVersion, ev.At); err != nil {
			return err
		}
		out = Enrollment{NightlyEnrolled: *ev, NextRunAt: ev.NextRun(ev.At, st.Reported)}
		return nil
	})
	if err != nil {
		if kernel.KindOf(err) != kernel.KindInternal {
			return Enrollment{}, err
		}
		return Enrollment{}, fmt.Errorf("enroll %s: %w", companyID, err)
	}
	return out, nil
}

// NightlyView is a company's nightly loop for its founder: the enrollment
// (nil: not enrolled), the next run, and the latest reports, newest first.
type NightlyView struct {
	Enrollment *Enrollment
	Reports    []builder.NightlyReported
}

// MaxListedReports is how many reports Reports returns.
const MaxListedReports = 30

// Reports is GET /api/build/nightly for the company's founder.
func (n *Nightly) Reports(ctx context.Context, founderID, companyID string) (NightlyView, error) {
	if _, err := n.cfg.Chats.Owned(ctx, founderID, companyID); err != nil {
		return NightlyView{}, err
	}
	st, err := n.Load(ctx, companyID)
	if err != nil {
		return NightlyView{}, err
	}
	v := NightlyView{Reports: []builder.NightlyReported{}}
	if st.Enrollment != nil {
		v.Enrollment = &Enrollment{NightlyEnrolled: *st.Enrollment, NextRunAt: st.Enrollment.NextRun(n.cfg.Clock.Now(), st.Reported)}
	}
	reports := slices.Clone(st.Reports)
	slices.Reverse(reports)
	if len(reports) > MaxListedReports {
		reports = reports[:MaxListedReports]
	}
	v.Reports = append(v.Reports, reports...)
	return v, nil
}

// Enrolled lists the enrolled companies (the dispatcher's table).
func (n *Nightly) Enrolled(ctx context.Context) ([]builder.NightlyEnrolled, error) {
	rows, err := n.cfg.Store.DB().QueryContext(ctx, `SELECT company_id, time_zone, window_start, window_end
		FROM platform.builder_nightly_enrollments ORDER BY company_id`)
	if err != nil {
		return nil, fmt.Errorf("list nightly enrollments: %w", err)
	}
	defer rows.Close()
	var out []builder.NightlyEnrolled
	for rows.Next() {
		var e builder.NightlyEnrolled
		if err := rows.Scan(&e.CompanyID, &e.TimeZone, &e.Window.Start, &e.Window.End); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Dispatch enqueues the run of every enrolled company whose window is
// open at now, unique by (company, night): a window sees several
// dispatches and two processes may dispatch at once, yet each night gets
// one job. It returns how many runs were newly enqueued. A window no
// dispatch saw (nothing ran all through it) is skipped, not caught up.
func (n *Nightly) Dispatch(ctx context.Context, now time.Time) (int, error) {
	if n.cfg.Jobs == nil {
		return 0, errors.New("builder nightly: no jobs service to dispatch to")
	}
	enrolled, err := n.Enrolled(ctx)
	if err != nil {
		return 0, err
	}
	added := 0
	for _, e := range enrolled {
		w, inside := e.WindowAt(now)
		if !inside {
			continue
		}
		in, err := n.cfg.Jobs.Enqueue(ctx, nil, NightlyRunArgs{CompanyID: e.CompanyID, Night: w.Night},
			&jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
		if err != nil {
			return added, fmt.Errorf("dispatch the nightly run of %s: %w", e.CompanyID, err)
		}
		if !in.Duplicate {
			added++
		}
	}
	return added, nil
}

func (n *Nightly) dispatchJob(ctx context.Context, _ *jobs.Job[NightlyDispatchArgs]) error {
	added, err := n.Dispatch(ctx, n.cfg.Clock.Now())
	if added > 0 {
		n.cfg.Logger.Info("builder: nightly runs enqueued", "runs", added)
	}
	return err
}

func (n *Nightly) runJob(ctx context.Context, job *jobs.Job[NightlyRunArgs]) error {
	_, _, err := n.run(ctx, job.Args.CompanyID, builder.NightlyScheduled, job.Args.Night, func(tx *stdsql.Tx) error {
		return jobs.CompleteTx(ctx, tx, job)
	})
	return err
}
