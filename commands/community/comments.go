package community

import (
	"context"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Policy returns tenant's moderation policy (the zero policy when none was
// set).
func (s *Service) Policy(ctx context.Context, tenant string) (community.Moderation, error) {
	if tenant == "" {
		return community.Moderation{}, community.NoTenant()
	}
	m, _, err := load[community.Moderation](ctx, s, community.ModerationStream(tenant))
	if err != nil {
		return community.Moderation{}, err
	}
	return *m, nil
}

// SetPolicy replaces tenant's moderation policy. The caller checks that
// actor administers the tenant.
func (s *Service) SetPolicy(ctx context.Context, tenant, actor string, p community.Policy) error {
	ev, err := community.SetPolicy(tenant, actor, p, s.clock.Now())
	if err != nil {
		return err
	}
	stream := eventstore.Stream{Type: community.StreamModeration, ID: community.ModerationStream(tenant)}
	_, err = s.store.Append(ctx, stream, eventstore.AnyVersion, ev)
	return err
}

// PostComment records user's comment on a content item, under the
// moderation policy of the tenant the user acts in, and returns it once
// listings show it.
func (s *Service) PostComment(ctx context.Context, tenant, user, contentType string, contentID int64, text string) (community.Comment, error) {
	if tenant == "" {
		return community.Comment{}, community.NoTenant()
	}
	m, err := s.Policy(ctx, tenant)
	if err != nil {
		return community.Comment{}, err
	}
	id := newID()
	ev, err := community.PostComment(id, tenant, user, contentType, contentID, text, m.Policy, s.clock.Now())
	if err != nil {
		return community.Comment{}, err
	}
	app, err := s.store.Append(ctx, eventstore.Stream{Type: community.StreamComment, ID: id}, eventstore.NoStream, ev)
	if err != nil {
		return community.Comment{}, err
	}
	var c community.Comment
	c.Apply(ev)
	return c, s.settle(ctx, app)
}

// EditComment replaces the text of a comment by its author, under the
// moderation policy of the comment's tenant.
func (s *Service) EditComment(ctx context.Context, actor, id, text string) (community.Comment, error) {
	var out community.Comment
	app, err := s.onComment(ctx, id, func(c *community.Comment) ([]kernel.Event, error) {
		m, err := s.Policy(ctx, c.TenantID)
		if err != nil {
			return nil, err
		}
		evs, err := c.Edit(actor, text, m.Policy, s.clock.Now())
		out = *c
		for _, ev := range evs {
			out.Apply(ev)
		}
		return evs, err
	})
	if err != nil {
		return community.Comment{}, err
	}
	return out, s.settle(ctx, app)
}

// DeleteComment removes a comment by its author or by an administrator;
// isAdmin says whether actor administers the comment's tenant.
func (s *Service) DeleteComment(ctx context.Context, actor, id string, isAdmin func(tenant string) bool) error {
	app, err := s.onComment(ctx, id, func(c *community.Comment) ([]kernel.Event, error) {
		return c.Delete(actor, isAdmin(c.TenantID), s.clock.Now())
	})
	if err != nil {
		return err
	}
	return s.settle(ctx, app)
}

// onComment runs a decision on an existing, undeleted comment.
func (s *Service) onComment(ctx context.Context, id string, decide func(c *community.Comment) ([]kernel.Event, error)) (eventstore.Appended, error) {
	stream := eventstore.Stream{Type: community.StreamComment, ID: id}
	return onStream(ctx, s, stream, func(c *community.Comment, _ int64) ([]kernel.Event, error) {
		if !c.Exists() || c.Deleted {
			return nil, kernel.NotFound("comment " + id + " not found")
		}
		return decide(c)
	})
}
