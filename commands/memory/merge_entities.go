package memory

import (
	"context"

	"github.com/strata-platform/strata/domain/memory"
)

// MergeEntities merges the entity in.Entity names into the one in.Into
// names in user's store (memory.Decision.MergeEntities): one decision and
// one append, with the supersessions the survivor's settled timelines
// cause. The read model reflects it when MergeEntities returns.
func (s *Service) MergeEntities(ctx context.Context, user string, in memory.MergeInput) (memory.EntityMerge, error) {
	if err := in.Check(); err != nil {
		return memory.EntityMerge{}, err
	}
	v, err := s.run(ctx, user, func(d *memory.Decision) (any, error) {
		return d.MergeEntities(in)
	})
	if err != nil {
		return memory.EntityMerge{}, err
	}
	return v.(memory.EntityMerge), nil
}
