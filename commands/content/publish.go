package content

import (
	"context"
	stdsql "database/sql"
	"errors"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// outcome is what one attempt ended with.
type outcome struct {
	published *platforms.Published
	class     string // a failure's class
	reason    string
	retryable bool // transient: another attempt may be scheduled
}

// publishJob runs one attempt at one target: it records the attempt as
// started, sends it, and records the outcome. A started attempt that has
// no outcome when the job runs (again) was sent by a process that stopped
// before recording what happened: it is failed as unconfirmed, never sent
// again.
func (s *Service) publishJob(ctx context.Context, job *jobs.Job[PublishArgs]) error {
	a := job.Args
	var post content.Post
	start := false
	err := s.retryConflicts(ctx, func() error {
		start = false
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			p, version, err := s.loadPost(ctx, tx, "", a.PostID, false)
			if kernel.KindOf(err) == kernel.KindNotFound {
				return jobs.CompleteTx(ctx, tx, job)
			}
			if err != nil {
				return err
			}
			t := p.Target(a.TargetID)
			now := s.cfg.Clock.Now()
			var ev kernel.Event
			switch {
			case t == nil || !t.Open() || a.Attempt != t.Attempt+1 && !(t.State == content.StateSending && t.Attempt == a.Attempt):
				// settled, or a stale job of an earlier attempt
			case t.State == content.StateSending:
				ev = &content.TargetFailed{PostID: a.PostID, TargetID: a.TargetID, Attempt: t.Attempt, Class: content.ClassUnconfirmed,
					Reason: content.ReasonUnconfirmed, At: now}
			case p.Deleted:
				ev = &content.TargetFailed{PostID: a.PostID, TargetID: a.TargetID, Attempt: t.Attempt, Class: content.ClassPrecondition,
					Reason: "deleted", At: now}
			default:
				start = true
				_, err = s.cfg.Store.AppendTx(ctx, tx, postStream(a.PostID), version,
					&content.TargetStarted{PostID: a.PostID, TargetID: a.TargetID, Attempt: a.Attempt, At: now})
				post = p
				return err
			}
			if ev != nil {
				if _, err := s.cfg.Store.AppendTx(ctx, tx, postStream(a.PostID), version, ev); err != nil {
					return err
				}
			}
			return jobs.CompleteTx(ctx, tx, job)
		})
	})
	if err != nil || !start {
		return err
	}
	t := post.Target(a.TargetID)
	out := s.attempt(ctx, &post, t)
	// The outcome is recorded even when the job's context has ended (a
	// timeout, a shutdown): what the platform answered must not be lost.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return s.record(rctx, job, &post, t, out)
}

// attempt sends the post to the target's account.
func (s *Service) attempt(ctx context.Context, p *content.Post, t *content.Target) outcome {
	plat, ok := s.cfg.Platforms[t.Platform]
	if !ok {
		return outcome{class: content.ClassPrecondition, reason: "platform not configured"}
	}
	tokens, acct, err := s.cfg.Connections.Token(ctx, p.Owner, t.Platform)
	if err != nil {
		if isNotConnected(err) {
			return outcome{class: content.ClassUnauthorized, reason: content.ReasonReconnect}
		}
		s.cfg.Logger.Warn("content: tokens unavailable", "platform", t.Platform, "err", err)
		return outcome{class: content.ClassTransient, reason: "the account's tokens could not be obtained", retryable: true}
	}
	media, cleanup, err := s.fetchMedia(ctx, p.Media)
	defer cleanup()
	if err != nil {
		var ce *connections.CallError
		if errors.As(err, &ce) && ce.Class == connections.Transient {
			return outcome{class: content.ClassTransient, reason: content.ReasonMediaFetch + ": " + ce.Reason, retryable: true}
		}
		return outcome{class: content.ClassPrecondition, reason: content.ReasonMediaFetch + ": " + err.Error()}
	}
	pctx, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
	defer cancel()
	res, err := plat.Publish(pctx, tokens, acct, platforms.Post{Key: t.ID, Title: p.Title, Text: p.Script, Media: media})
	if err == nil {
		return outcome{published: &res}
	}
	var ce *connections.CallError
	if !errors.As(err, &ce) {
		// not the platform's answer: an error of ours before or while sending
		if pctx.Err() != nil {
			return outcome{class: content.ClassUnconfirmed, reason: content.ReasonUnconfirmed}
		}
		s.cfg.Logger.Warn("content: publish failed", "platform", t.Platform, "target", t.ID, "err", err)
		return outcome{class: content.ClassUnconfirmed, reason: content.ReasonUnconfirmed}
	}
	switch ce.Class {
	case connections.Transient:
		return outcome{class: content.ClassTransient, reason: ce.Reason, retryable: true}
	case connections.Refused:
		return outcome{class: content.ClassRefused, reason: ce.Reason}
	case connections.Unauthorized:
		s.cfg.Connections.Report(ctx, p.Owner, t.Platform, err)
		return outcome{class: content.ClassUnauthorized, reason: content.ReasonReconnect}
	}
	return outcome{class: content.ClassUnconfirmed, reason: content.ReasonUnconfirmed}
}

// record appends the attempt's outcome (and schedules the next attempt of
// a transient failure) with the job's completion. A target whose account's
// tokens were refused takes the account's other pending targets with it.
func (s *Service) record(ctx context.Context, job *jobs.Job[PublishArgs], p0 *content.Post, t0 *content.Target, out outcome) error {
	a := job.Args
	err := s.persist(ctx, func() error {
		return s.inTx(ctx, func(tx *stdsql.Tx) error {
			p, version, err := s.loadPost(ctx, tx, "", a.PostID, false)
			if err != nil {
				return err
			}
			t := p.Target(a.TargetID)
			if t == nil || t.State != content.StateSending || t.Attempt != a.Attempt {
				return jobs.CompleteTx(ctx, tx, job) // someone settled it meanwhile
			}
			now := s.cfg.Clock.Now()
			var ev kernel.Event
			var next *PublishArgs
			switch {
			case out.published != nil:
				ev = &content.TargetPublished{PostID: a.PostID, TargetID: a.TargetID, Attempt: a.Attempt,
					PlatformPostID: out.published.ID, URL: out.published.URL, At: now}
			case out.retryable && a.Attempt <= content.MaxTransientRetries:
				at := now.Add(s.cfg.RetryDelay(a.Attempt))
				ev = &content.TargetRetryScheduled{PostID: a.PostID, TargetID: a.TargetID, Attempt: a.Attempt, Reason: out.reason, Next: at, At: now}
				next = &PublishArgs{PostID: a.PostID, TargetID: a.TargetID, Attempt: a.Attempt + 1}
			default:
				reason := out.reason
				if out.retryable {
					reason = "retries spent; last failure: " + out.reason
				}
				ev = &content.TargetFailed{PostID: a.PostID, TargetID: a.TargetID, Attempt: a.Attempt, Class: out.class, Reason: reason, At: now}
			}
			if _, err := s.cfg.Store.AppendTx(ctx, tx, postStream(a.PostID), version, ev); err != nil {
				return err
			}
			if next != nil {
				opts := &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}
				if at := ev.(*content.TargetRetryScheduled).Next; at.After(now) {
					opts.At = at
				}
				if _, err := s.cfg.Jobs.Enqueue(ctx, tx, *next, opts); err != nil {
					return err
				}
			}
			return jobs.CompleteTx(ctx, tx, job)
		})
	})
	if err != nil {
		return err
	}
	if out.class == content.ClassUnauthorized {
		if ferr := s.accountFailed(ctx, p0.Owner, t0.Platform, t0.AccountID, t0.ID); ferr != nil {
			s.cfg.Logger.Warn("content: pending targets of a refused account not failed yet", "platform", t0.Platform, "err", ferr)
		}
	}
	return nil
}

// persist runs a recording transaction until it commits: a version
// conflict is tried again at once (retryConflicts), any other failure a
// few times with a pause, since after the platform answered an unrecorded
// outcome can only become "unconfirmed".
func (s *Service) persist(ctx context.Context, fn func() error) error {
	var err error
	for i, wait := 0, 100*time.Millisecond; i < 5; i, wait = i+1, wait*3 {
		if err = s.retryConflicts(ctx, fn); err == nil || ctx.Err() != nil {
			return err
		}
		s.cfg.Logger.Warn("content: an outcome was not recorded; trying again", "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
	return err
}

// fetchMedia fetches a post's media through the SSRF-safe client.
func (s *Service) fetchMedia(ctx context.Context, media []content.Media) ([]platforms.Media, func(), error) {
	var out []platforms.Media
	var closers []func()
	cleanup := func() {
		for _, c := range closers {
			c()
		}
	}
	for _, m := range media {
		if s.cfg.Media == nil {
			return nil, cleanup, errors.New("no media fetcher configured")
		}
		fm, release, err := s.cfg.Media.Fetch(ctx, m.URL)
		if err != nil {
			return nil, cleanup, err
		}
		closers = append(closers, release)
		if fm.Kind != "" && fm.Kind != m.Kind {
			return nil, cleanup, errors.New(m.URL + " is " + fm.ContentType + ", not " + m.Kind)
		}
		fm.Kind = m.Kind
		out = append(out, fm)
	}
	return out, cleanup, nil
}
