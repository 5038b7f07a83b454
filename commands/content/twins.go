package content

import (
	"context"
	stdsql "database/sql"
	"fmt"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

func twinStream(id string) eventstore.Stream {
	return eventstore.Stream{Type: content.StreamTwin, ID: content.TwinStream(id)}
}

// loadTwin folds a twin; another owner's, deleted or unknown twin is 404.
func (s *Service) loadTwin(ctx context.Context, q eventstore.Querier, owner, id string) (content.Twin, int64, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return content.Twin{}, 0, kernel.NotFound("no twin with id " + quoteID(id))
	}
	id = u.String() // UUIDs are case-insensitive: streams use the lower-case form
	envs, err := s.cfg.Store.LoadTx(ctx, q, content.TwinStream(id), eventstore.LoadOptions{})
	if err != nil {
		return content.Twin{}, 0, fmt.Errorf("load twin %s: %w", id, err)
	}
	var t content.Twin
	for _, e := range envs {
		t.Apply(e.Event)
	}
	if len(envs) == 0 || t.Owner != owner || t.Deleted {
		return content.Twin{}, 0, kernel.NotFound("no twin with id " + quoteID(id))
	}
	return t, int64(len(envs)), nil
}

// CreateTwin records a new twin; its memory namespace is twin_<id>.
func (s *Service) CreateTwin(ctx context.Context, a Actor, f content.TwinFields) (content.Twin, error) {
	now := s.cfg.Clock.Now()
	t, err := content.Twin{ID: uuid.NewString(), Owner: a.Owner, CreatedAt: now, UpdatedAt: now}.Merge(f, true)
	if err != nil {
		return content.Twin{}, err
	}
	ap, err := s.cfg.Store.Append(ctx, twinStream(t.ID), eventstore.NoStream, &content.TwinCreated{Twin: t, By: a.User, At: now})
	if err != nil {
		return content.Twin{}, err
	}
	return t, s.wait(ctx, ap)
}

// UpdateTwin applies a partial update.
func (s *Service) UpdateTwin(ctx context.Context, a Actor, id string, f content.TwinFields) (content.Twin, error) {
	var out content.Twin
	var ap eventstore.Appended
	err := s.inTx(ctx, func(tx *stdsql.Tx) error {
		t, version, err := s.loadTwin(ctx, tx, a.Owner, id)
		if err != nil {
			return err
		}
		if out, err = t.Merge(f, false); err != nil {
			return err
		}
		out.UpdatedAt = s.cfg.Clock.Now()
		ap, err = s.cfg.Store.AppendTx(ctx, tx, twinStream(id), version, &content.TwinUpdated{Twin: out, By: a.User, At: out.UpdatedAt})
		return err
	})
	if err != nil {
		return content.Twin{}, err
	}
	return out, s.wait(ctx, ap)
}

// DeleteTwin soft-deletes a twin: later reads answer 404.
func (s *Service) DeleteTwin(ctx context.Context, a Actor, id string) error {
	var ap eventstore.Appended
	err := s.inTx(ctx, func(tx *stdsql.Tx) error {
		_, version, err := s.loadTwin(ctx, tx, a.Owner, id)
		if err != nil {
			return err
		}
		ap, err = s.cfg.Store.AppendTx(ctx, tx, twinStream(id), version, &content.TwinDeleted{TwinID: id, By: a.User, At: s.cfg.Clock.Now()})
		return err
	})
	if err != nil {
		return err
	}
	return s.wait(ctx, ap)
}

// CheckTwin returns the owner's live twin (404 naming field otherwise).
func (s *Service) CheckTwin(ctx context.Context, owner, field, id string) (content.Twin, error) {
	t, _, err := s.loadTwin(ctx, s.cfg.Store.DB(), owner, id)
	if kernel.KindOf(err) == kernel.KindNotFound {
		return t, &kernel.Error{Kind: kernel.KindNotFound, Field: field, Rule: "exists", Message: field + " names no twin of yours: " + quoteID(id)}
	}
	return t, err
}

func quoteID(id string) string {
	if len(id) > 64 {
		id = id[:64] + "..."
	}
	return fmt.Sprintf("%q", id)
}
