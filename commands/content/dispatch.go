package content

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	domconn "github.com/strata-platform/strata/domain/connections"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// DispatchArgs is the job that plans a due post's publish targets.
type DispatchArgs struct {
	PostID string `json:"post_id"`
}

// Kind implements jobs.Args.
func (DispatchArgs) Kind() string { return "content.dispatch_post" }

// PublishArgs is the job of one attempt at one publish target.
type PublishArgs struct {
	PostID   string `json:"post_id"`
	TargetID string `json:"target_id"`
	Attempt  int    `json:"attempt"`
}

// Kind implements jobs.Args.
func (PublishArgs) Kind() string { return "content.publish_target" }

// sweepArgs is the dispatcher's every-minute check.
type sweepArgs struct{}

// Kind implements jobs.Args.
func (sweepArgs) Kind() string { return "content.dispatch" }

// RegisterJobs declares the content workflow's job kinds and the
// every-minute dispatcher.
func (s *Service) RegisterJobs(js *jobs.Service) error {
	if err := jobs.Handle(js, s.dispatchJob, jobs.KindOptions{MaxAttempts: 10, Timeout: time.Minute}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.publishJob, jobs.KindOptions{MaxAttempts: 10, Timeout: s.cfg.PublishTimeout + time.Minute}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.sweepJob, jobs.KindOptions{MaxAttempts: 3, Timeout: time.Minute}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.captionJob, jobs.KindOptions{MaxAttempts: 3, Timeout: 10 * time.Minute}); err != nil {
		return err
	}
	if err := s.registerMediaJobs(js); err != nil {
		return err
	}
	if err := s.registerAnalyticsJobs(js); err != nil {
		return err
	}
	return js.Schedule(jobs.Periodic{Name: "content.dispatch", Cron: "* * * * *", Zone: "UTC",
		Args: func(time.Time) jobs.Args { return sweepArgs{} }})
}

// sweepJob is the scheduler's minute check: any due post with a platform
// not yet planned gets its dispatch job (unique: one already waiting or
// done is not doubled).
func (s *Service) sweepJob(ctx context.Context, job *jobs.Job[sweepArgs]) error {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT p.id FROM rm_content_v1.posts p
		WHERE p.status = 'scheduled' AND p.deleted_at IS NULL AND p.scheduled_at <= $1
		  AND EXISTS (SELECT 1 FROM unnest(p.platforms) pl
			WHERE NOT EXISTS (SELECT 1 FROM rm_content_v1.targets t WHERE t.post_id = p.id AND t.platform = pl))
		LIMIT 5000`, s.cfg.Clock.Now())
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := s.cfg.Jobs.Enqueue(ctx, nil, DispatchArgs{PostID: id}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
			return err
		}
	}
	return nil
}

// dispatchJob plans the post's targets: for each platform without one,
// the owner's connected account there (or an immediate failure saying why
// there is none), and each planned target's first publish attempt.
func (s *Service) dispatchJob(ctx context.Context, job *jobs.Job[DispatchArgs]) error {
	return s.retryConflicts(ctx, func() error {
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			p, version, err := s.loadPost(ctx, tx, "", job.Args.PostID, false)
			if kernel.KindOf(err) == kernel.KindNotFound {
				return jobs.CompleteTx(ctx, tx, job)
			}
			if err != nil {
				return err
			}
			if !p.Deleted {
				evs, publish, err := s.plan(ctx, &p, "", false)
				if err != nil {
					return err
				}
				if len(evs) > 0 {
					if _, err := s.cfg.Store.AppendTx(ctx, tx, postStream(p.PostID), version, evs...); err != nil {
						return err
					}
				}
				if err := s.enqueuePublish(ctx, tx, publish); err != nil {
					return err
				}
			}
			return jobs.CompleteTx(ctx, tx, job)
		})
	})
}

// plan returns the events that plan targets for p's platforms that have
// none (retry: whose latest target failed) and the publish jobs to enqueue.
func (s *Service) plan(ctx context.Context, p *content.Post, by string, retry bool) ([]kernel.Event, []PublishArgs, error) {
	now := s.cfg.Clock.Now()
	var evs []kernel.Event
	var publish []PublishArgs
	for _, pl := range p.Platforms {
		latest := p.Latest(pl)
		if (!retry && latest != nil) || (retry && (latest == nil || latest.State != content.StateFailed)) {
			continue
		}
		tid := s.cfg.IDs.NewID()
		acct, err := s.cfg.Connections.Account(ctx, p.Owner, pl)
		if err != nil {
			return nil, nil, err
		}
		planned := &content.TargetPlanned{PostID: p.PostID, TargetID: tid, Platform: pl, AccountID: acct.ID, Handle: acct.Handle,
			Due: now, Retry: retry, By: by, At: now}
		evs = append(evs, planned)
		fail := func(class, reason string) {
			evs = append(evs, &content.TargetFailed{PostID: p.PostID, TargetID: tid, Class: class, Reason: reason, At: now})
		}
		l := content.LimitsTable[pl]
		switch {
		case acct.Status == domconn.StatusNeedsReconnect:
			fail(content.ClassUnauthorized, content.ReasonReconnect)
		case acct.Status != domconn.StatusConnected:
			fail(content.ClassPrecondition, content.ReasonNotConnected)
		case len(p.Media) < l.MediaMin:
			fail(content.ClassPrecondition, content.ReasonMediaMissing)
		default:
			publish = append(publish, PublishArgs{PostID: p.PostID, TargetID: tid, Attempt: 1})
		}
	}
	return evs, publish, nil
}

func (s *Service) enqueuePublish(ctx context.Context, tx *stdsql.Tx, args []PublishArgs) error {
	for _, a := range args {
		if _, err := s.cfg.Jobs.Enqueue(ctx, tx, a, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
			return fmt.Errorf("enqueue publish %s: %w", a.TargetID, err)
		}
	}
	return nil
}

// retryConflicts runs fn again (up to 10 times) while it fails with a
// version conflict: another target of the same post recorded its outcome
// between our load and our append.
func (s *Service) retryConflicts(ctx context.Context, fn func() error) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = fn(); !versionConflict(err) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(time.Duration(i+1) * 5 * time.Millisecond)
	}
	return err
}

// accountFailed fails, at once, every pending or retrying target of the
// owner's account at platform (its tokens were refused).
func (s *Service) accountFailed(ctx context.Context, owner, platform, accountID, except string) error {
	rows, err := s.cfg.Store.DB().QueryContext(ctx, `SELECT post_id, id FROM rm_content_v1.targets
		WHERE owner = $1 AND platform = $2 AND account_id = $3 AND state IN ('pending', 'retrying') AND id <> $4`, owner, platform, accountID, except)
	if err != nil {
		return err
	}
	type pt struct{ post, target string }
	var list []pt
	for rows.Next() {
		var x pt
		if err := rows.Scan(&x.post, &x.target); err != nil {
			rows.Close()
			return err
		}
		list = append(list, x)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, x := range list {
		err := s.retryConflicts(ctx, func() error {
			return s.inTx(ctx, func(tx *stdsql.Tx) error {
				p, version, err := s.loadPost(ctx, tx, "", x.post, false)
				if err != nil {
					return err
				}
				t := p.Target(x.target)
				if t == nil || (t.State != content.StatePending && t.State != content.StateRetrying) {
					return nil
				}
				_, err = s.cfg.Store.AppendTx(ctx, tx, postStream(x.post), version, &content.TargetFailed{PostID: x.post, TargetID: x.target,
					Attempt: t.Attempt, Class: content.ClassUnauthorized, Reason: content.ReasonReconnect, At: s.cfg.Clock.Now()})
				return err
			})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// versionConflict tells a stream version clash (a conflict naming no field).
func versionConflict(err error) bool {
	var ke *kernel.Error
	return errors.As(err, &ke) && ke.Kind == kernel.KindConflict && ke.Field == ""
}

// isNotConnected tells a connections.NotConnected error.
func isNotConnected(err error) bool {
	var ke *kernel.Error
	return errors.As(err, &ke) && ke.Kind == kernel.KindConflict && ke.Field == "provider"
}
