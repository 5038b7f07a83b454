package content

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/eventstore"
)

// SyncDays is how many days (today included) each analytics sync reads
// from a platform. Platforms revise recent days as late figures arrive,
// so every sync reads the whole month again and records only the days
// whose numbers changed.
const SyncDays = 30

// SyncArgs is the job that syncs one account's daily analytics.
type SyncArgs struct {
	Owner    string `json:"owner"`
	Platform string `json:"platform"`
	// Run is the sweep's intended instant: one sync per account per run.
	Run time.Time `json:"run"`
}

// Kind implements jobs.Args.
func (SyncArgs) Kind() string { return "content.analytics_sync" }

// analyticsSweepArgs is the six-hourly sweep that enqueues the syncs.
type analyticsSweepArgs struct{}

// Kind implements jobs.Args.
func (analyticsSweepArgs) Kind() string { return "content.analytics_sweep" }

// registerAnalyticsJobs declares the sync, the sweep (every 6 hours,
// UTC) and the export job.
func (s *Service) registerAnalyticsJobs(js *jobs.Service) error {
	if err := jobs.Handle(js, s.syncJob, jobs.KindOptions{MaxAttempts: 6, Timeout: 3 * time.Minute}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.analyticsSweepJob, jobs.KindOptions{MaxAttempts: 3, Timeout: time.Minute}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.exportJob, jobs.KindOptions{MaxAttempts: 5, Timeout: 2 * time.Minute}); err != nil {
		return err
	}
	return js.Schedule(jobs.Periodic{Name: "content.analytics.sync", Cron: "0 */6 * * *", Zone: "UTC",
		Args: func(time.Time) jobs.Args { return analyticsSweepArgs{} }})
}

// analyticsSweepJob is the six-hourly run: EnqueueSyncs for its instant.
func (s *Service) analyticsSweepJob(ctx context.Context, job *jobs.Job[analyticsSweepArgs]) error {
	_, err := s.EnqueueSyncs(ctx, job.Due)
	return err
}

// EnqueueSyncs enqueues one sync job per stored connection at one of the
// configured platforms for the run intended at run, and returns how many
// it added. platform.connection_tokens holds a row for every live
// connection (connected or waiting to be reconnected; the row is deleted
// at disconnection); the sync of one that needs reconnecting finds no
// usable tokens and settles. Each sync is unique by (owner, platform,
// run), so a retried or repeated run doubles nothing.
func (s *Service) EnqueueSyncs(ctx context.Context, run time.Time) (int, error) {
	var names []string
	for n := range s.cfg.Platforms {
		names = append(names, n)
	}
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT owner, provider FROM platform.connection_tokens
		WHERE provider = ANY($1) ORDER BY owner, provider`, names)
	if err != nil {
		return 0, err
	}
	var list []SyncArgs
	for rows.Next() {
		a := SyncArgs{Run: run.UTC()}
		if err := rows.Scan(&a.Owner, &a.Platform); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, a)
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	added := 0
	for _, a := range list {
		e, err := s.cfg.Jobs.Enqueue(ctx, nil, a, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
		if err != nil {
			return added, fmt.Errorf("enqueue analytics sync %s %s: %w", a.Owner, a.Platform, err)
		}
		if !e.Duplicate {
			added++
		}
	}
	return added, nil
}

// syncJob syncs one account. An account that is not connected (any
// more), whose tokens the platform refused (it is marked needs-reconnect)
// or whose request the platform refused is settled: the job completes
// and the next run tries again. Transient failures fail the attempt, so
// River retries it with backoff.
func (s *Service) syncJob(ctx context.Context, job *jobs.Job[SyncArgs]) error {
	a := job.Args
	if _, ok := s.cfg.Platforms[a.Platform]; !ok {
		return nil // the platform is no longer configured here
	}
	_, _, err := s.sync(ctx, a.Owner, a.Platform, func(ctx context.Context, tx *stdsql.Tx) error {
		return jobs.CompleteTx(ctx, tx, job)
	})
	if err != nil && settledSync(err) {
		s.cfg.Logger.Info("content: analytics sync settled", "platform", a.Platform, "err", err)
		return nil
	}
	return err
}

// settledSync tells a sync failure that retrying cannot fix.
func settledSync(err error) bool {
	if isNotConnected(err) {
		return true
	}
	c := connections.ClassOf(err)
	return c == connections.Unauthorized || c == connections.Refused
}

// SyncNow syncs owner's analytics at platform at once (what the six-hourly
// job does for each account) and returns how many days changed. Not
// connected: the connections' NotConnected error (409); tokens refused:
// the account is marked needs-reconnect and the platform's error returned.
func (s *Service) SyncNow(ctx context.Context, owner, platform string) (int, error) {
	if _, ok := s.cfg.Platforms[platform]; !ok {
		return 0, fmt.Errorf("content: platform %q is not configured", platform)
	}
	n, ap, err := s.sync(ctx, owner, platform, nil)
	if err != nil || n == 0 {
		return 0, err
	}
	return n, s.wait(ctx, ap)
}

// AnalyticsWindow returns the UTC dates (inclusive) of the last days days,
// today (by the service's clock) included.
func (s *Service) AnalyticsWindow(days int) (from, to time.Time) {
	y, m, d := s.cfg.Clock.Now().UTC().Date()
	to = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return to.AddDate(0, 0, -(days - 1)), to
}

// dayRow is a day as the read model holds it.
type dayRow struct {
	account string
	n       content.DayNumbers
}

// sync reads the account's last SyncDays days from the platform, compares
// them with what the read model holds and appends one AnalyticsSynced
// with the days that changed (complete, when given, runs in the same
// transaction), returning how many days it recorded and the append. The
// read model may lag the stream: a day already recorded
// but not yet projected is then recorded again with the same numbers,
// which changes nothing. A number a platform gave once and leaves out
// later is kept (silence is not a revision); a number never given stays
// null, never 0.
func (s *Service) sync(ctx context.Context, owner, platform string, complete func(context.Context, *stdsql.Tx) error) (int, eventstore.Appended, error) {
	plat := s.cfg.Platforms[platform]
	acct, err := s.cfg.Connections.Account(ctx, owner, platform)
	if err != nil {
		return 0, eventstore.Appended{}, err
	}
	tokens, ident, err := s.cfg.Connections.Token(ctx, owner, platform)
	if err != nil {
		s.cfg.Connections.Report(ctx, owner, platform, err)
		return 0, eventstore.Appended{}, err
	}
	from, to := s.AnalyticsWindow(SyncDays)
	got, err := plat.Insights(ctx, tokens, ident, from, to)
	if err != nil {
		s.cfg.Connections.Report(ctx, owner, platform, err)
		return 0, eventstore.Appended{}, err
	}
	streamID := content.AnalyticsStream(owner, platform)
	stream := eventstore.Stream{Type: content.StreamAnalytics, ID: streamID}
	changed := 0
	var ap eventstore.Appended
	err = s.retryConflicts(ctx, func() error {
		version, err := s.cfg.Store.Version(ctx, streamID)
		if err != nil {
			return err
		}
		held, err := s.heldDays(ctx, owner, platform, from, to)
		if err != nil {
			return err
		}
		days := changedDays(got, held, acct.ID, from, to)
		changed = len(days)
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			if len(days) > 0 {
				ap, err = s.cfg.Store.AppendTx(ctx, tx, stream, version, &content.AnalyticsSynced{Owner: owner, Platform: platform,
					AccountID: acct.ID, Days: days, At: s.cfg.Clock.Now()})
				if err != nil {
					return err
				}
			}
			if complete != nil {
				return complete(ctx, tx)
			}
			return nil
		})
	})
	if err != nil {
		return 0, eventstore.Appended{}, err
	}
	return changed, ap, nil
}

// heldDays reads the read model's days of owner's account at platform.
func (s *Service) heldDays(ctx context.Context, owner, platform string, from, to time.Time) (map[string]dayRow, error) {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT to_char(day, 'YYYY-MM-DD'), account_id, views, likes, comments, shares, followers_gained
		FROM rm_content_v1.analytics WHERE owner = $1 AND platform = $2 AND day BETWEEN $3::date AND $4::date`,
		owner, platform, from.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]dayRow{}
	for rows.Next() {
		var r dayRow
		if err := rows.Scan(&r.n.Date, &r.account, &r.n.Views, &r.n.Likes, &r.n.Comments, &r.n.Shares, &r.n.FollowersGained); err != nil {
			return nil, err
		}
		out[r.n.Date] = r
	}
	return out, rows.Err()
}

// changedDays merges the days received (within [from, to]) into the days
// held and returns those that differ, in date order: a day not held yet
// (even one without any number: the platform was asked and gave none), a
// day held for another account, a day with a number that changed or that
// the platform gave for the first time.
func changedDays(got []platforms.Day, held map[string]dayRow, account string, from, to time.Time) []content.DayNumbers {
	var out []content.DayNumbers
	seen := map[string]bool{}
	for _, d := range got {
		date := d.Date.UTC()
		if date.Before(from) || date.After(to) {
			continue
		}
		key := date.Format(time.DateOnly)
		if seen[key] {
			continue
		}
		seen[key] = true
		next := content.DayNumbers{Date: key, Views: copyNum(d.Views), Likes: copyNum(d.Likes), Comments: copyNum(d.Comments),
			Shares: copyNum(d.Shares), FollowersGained: copyNum(d.FollowersGained)}
		prev, ok := held[key]
		if ok && prev.account == account {
			next.Views = keep(next.Views, prev.n.Views)
			next.Likes = keep(next.Likes, prev.n.Likes)
			next.Comments = keep(next.Comments, prev.n.Comments)
			next.Shares = keep(next.Shares, prev.n.Shares)
			next.FollowersGained = keep(next.FollowersGained, prev.n.FollowersGained)
			if sameNumbers(next, prev.n) {
				continue
			}
		}
		out = append(out, next)
	}
	slices.SortFunc(out, func(a, b content.DayNumbers) int { return strings.Compare(a.Date, b.Date) })
	return out
}

// keep returns the number received, else the one held.
func keep(got, held *int64) *int64 {
	if got != nil {
		return got
	}
	return copyNum(held)
}

func copyNum(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func sameNumbers(a, b content.DayNumbers) bool {
	eq := func(x, y *int64) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	return eq(a.Views, b.Views) && eq(a.Likes, b.Likes) && eq(a.Comments, b.Comments) && eq(a.Shares, b.Shares) &&
		eq(a.FollowersGained, b.FollowersGained)
}
