package community

import (
	"context"

	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
)

// MayAct checks, before a request's body is read, that actor may act on
// the event id of tenant, so a caller without the right learns nothing from
// a validation error: another tenant's (or an unknown) event is not found;
// with creatorOnly, a member who did not create it is forbidden. It folds
// the event caught up from the store and appends nothing; the command
// decides again on its own fold.
func (s *Service) MayAct(ctx context.Context, tenant, actor, id string, creatorOnly bool) error {
	_, err := s.onEvent(ctx, tenant, id, func(ev *community.Event) ([]kernel.Event, error) {
		if creatorOnly && ev.CreatorID != actor {
			return nil, kernel.Forbidden("only the event's creator may change it")
		}
		return nil, nil
	})
	return err
}

// MayEditComment checks, before a request's body is read, that actor wrote
// the comment id: an unknown or deleted comment is not found, another
// user's is forbidden. It appends nothing.
func (s *Service) MayEditComment(ctx context.Context, actor, id string) error {
	_, err := s.onComment(ctx, id, func(c *community.Comment) ([]kernel.Event, error) {
		if c.UserID != actor {
			return nil, kernel.Forbidden("only the comment's author may edit it")
		}
		return nil, nil
	})
	return err
}
