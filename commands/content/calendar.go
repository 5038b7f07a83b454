package content

import (
	"context"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// ItemInput is a calendar item to schedule.
type ItemInput struct {
	TwinID      string
	Title       string
	Platform    string
	ScheduledAt time.Time
	Script      string
	Media       []content.Media
	// AllowDuplicate schedules even when an item of the same twin and
	// platform has the same text or falls in the same hour.
	AllowDuplicate bool
}

// Duplicate-detection claim scopes.
const (
	scopeText = "content.post.text"
	scopeHour = "content.post.hour"
)

// MaxTitle bounds a calendar item's title.
const MaxTitle = 200

// Detailed is an error with extra members for its error body (every
// field-level error, the duplicate's id); the HTTP layer adds them.
type Detailed struct {
	Err     *kernel.Error
	Members map[string]any
}

func (d *Detailed) Error() string { return d.Err.Error() }

// Unwrap returns the kernel error (its kind gives the status).
func (d *Detailed) Unwrap() error { return d.Err }

// invalid returns the field-level errors as one 400 listing them all.
func invalid(errs []content.FieldError) error {
	first := errs[0]
	return &Detailed{Err: kernel.Invalid(first.Field, first.Rule, first.Message), Members: map[string]any{"errors": errs}}
}

// Schedule checks an item against its platform's limits and records it;
// a job dispatches it at scheduled_at.
func (s *Service) Schedule(ctx context.Context, a Actor, in ItemInput) (content.PostScheduled, error) {
	var errs []content.FieldError
	if !content.ValidPlatform(in.Platform) {
		return content.PostScheduled{}, kernel.Invalid("platform", "enum", "platform must be one of "+strings.Join(content.Platforms, ", "))
	}
	title := strings.TrimSpace(in.Title)
	if title == "" || len([]rune(title)) > MaxTitle {
		errs = append(errs, content.FieldError{Field: "title", Rule: "length:1-200", Message: "title must be 1-200 characters"})
	}
	now := s.cfg.Clock.Now()
	if in.ScheduledAt.Before(now.Add(-time.Minute)) {
		errs = append(errs, content.FieldError{Field: "scheduled_at", Rule: "future", Message: "scheduled_at must not be in the past"})
	} else if in.ScheduledAt.After(now.AddDate(2, 0, 0)) {
		errs = append(errs, content.FieldError{Field: "scheduled_at", Rule: "within:2y", Message: "scheduled_at must be within two years"})
	}
	perr, warnings := content.CheckPost(in.Platform, title, in.Script, in.Media)
	if errs = append(errs, perr...); len(errs) > 0 {
		return content.PostScheduled{}, invalid(errs)
	}
	if in.TwinID != "" {
		if _, err := s.CheckTwin(ctx, a.Owner, "twin_id", in.TwinID); err != nil {
			return content.PostScheduled{}, err
		}
	}
	ev := &content.PostScheduled{PostID: uuid.NewString(), Owner: a.Owner, Origin: content.OriginCalendar, TwinID: in.TwinID,
		Title: title, Platforms: []string{in.Platform}, Script: in.Script, Media: orEmpty(in.Media),
		ScheduledAt: in.ScheduledAt.UTC(), Warnings: warnings, LimitsVersion: content.LimitsVersion, By: a.User, At: now}
	var ap eventstore.Appended
	err := s.inTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, postStream(ev.PostID), eventstore.NoStream, ev); err != nil {
			return err
		}
		if err := s.claimUnique(ctx, tx, ev, in.AllowDuplicate); err != nil {
			return err
		}
		return s.enqueueDispatch(ctx, tx, ev.PostID, ev.ScheduledAt)
	})
	if err != nil {
		return content.PostScheduled{}, err
	}
	return *ev, s.wait(ctx, ap)
}

func orEmpty(m []content.Media) []content.Media {
	if m == nil {
		return []content.Media{}
	}
	return m
}

// dupKeys are an item's duplicate-detection keys: same owner, twin and
// platform, with the same text or in the same hour.
func dupKeys(ev *content.PostScheduled) (text, hour string) {
	base := ev.Owner + "|" + ev.TwinID + "|" + ev.Platforms[0] + "|"
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(strings.ToLower(ev.Script)), " ")))
	return base + hex.EncodeToString(sum[:]), base + ev.ScheduledAt.UTC().Truncate(time.Hour).Format(time.RFC3339)
}

// claimUnique claims the item's duplicate keys; one already held by a live
// item is 409 naming it. An item scheduled with allow_duplicate claims the
// keys that are free and passes the held ones, so that a later item is
// still checked against it. An item without text has no text key.
func (s *Service) claimUnique(ctx context.Context, tx *stdsql.Tx, ev *content.PostScheduled, allow bool) error {
	text, hour := dupKeys(ev)
	stream := content.PostStream(ev.PostID)
	checks := []struct{ scope, value, field, what string }{
		{scopeHour, hour, "scheduled_at", "is scheduled in the same clock hour"},
	}
	if strings.TrimSpace(ev.Script) != "" {
		checks = append([]struct{ scope, value, field, what string }{{scopeText, text, "script", "has the same text"}}, checks...)
	}
	for _, c := range checks {
		holder, err := eventstore.ClaimOwner(ctx, tx, c.scope, c.value)
		if err != nil {
			return err
		}
		if holder != "" && holder != stream && allow {
			continue
		}
		if holder != "" && holder != stream {
			id := strings.TrimPrefix(holder, "content-post:")
			return &Detailed{Err: &kernel.Error{Kind: kernel.KindConflict, Field: c.field, Rule: "not_duplicate",
				Message: "calendar item " + id + " of the same twin and platform " + c.what + "; send allow_duplicate: true to schedule it anyway"},
				Members: map[string]any{"duplicate_of": id}}
		}
		if err := eventstore.Claim(ctx, tx, c.scope, c.value, stream, c.field); err != nil {
			return err
		}
	}
	return nil
}

// enqueueDispatch adds the job that dispatches a post at at.
func (s *Service) enqueueDispatch(ctx context.Context, tx *stdsql.Tx, postID string, at time.Time) error {
	if s.cfg.Jobs == nil {
		return nil
	}
	_, err := s.cfg.Jobs.Enqueue(ctx, tx, DispatchArgs{PostID: postID}, &jobs.Opts{At: at, Unique: &jobs.Unique{ByArgs: true}})
	return err
}

// DeleteItem deletes a calendar item (404 afterwards). An item being
// published right now is 409: its outcome is not known yet.
func (s *Service) DeleteItem(ctx context.Context, a Actor, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return kernel.NotFound("no calendar item with id " + quoteID(id))
	}
	var ap eventstore.Appended
	err := s.inTx(ctx, func(tx *stdsql.Tx) error {
		p, version, err := s.loadPost(ctx, tx, a.Owner, id, true)
		if err != nil {
			return err
		}
		if p.Origin != content.OriginCalendar {
			return kernel.NotFound("no calendar item with id " + quoteID(id))
		}
		for _, t := range p.Targets {
			if t.State == content.StateSending {
				return kernel.Conflict("calendar item "+id+" is being published to "+t.Platform+" right now; delete it once the attempt ends", nil)
			}
		}
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, postStream(id), version, &content.PostDeleted{PostID: id, By: a.User, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
		text, hour := dupKeys(&p.PostScheduled)
		stream := content.PostStream(id)
		if err := eventstore.Release(ctx, tx, scopeText, text, stream); err != nil {
			return err
		}
		return eventstore.Release(ctx, tx, scopeHour, hour, stream)
	})
	if err != nil {
		return err
	}
	return s.wait(ctx, ap)
}
