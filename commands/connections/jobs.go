package connections

import (
	"context"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
)

// RefreshAhead is how far ahead of expiry the periodic refresh renews
// tokens; it runs every RefreshEvery, so no token that can be refreshed
// expires between two runs.
const (
	RefreshEvery = 10 * time.Minute
	RefreshAhead = 15 * time.Minute
)

// refreshArgs is the periodic refresh's job.
type refreshArgs struct{}

// Kind implements jobs.Args.
func (refreshArgs) Kind() string { return "connections.refresh" }

// RegisterJobs declares the periodic refresh: every ten minutes, tokens
// that expire within the next RefreshAhead (plus Config.RefreshBefore) are
// refreshed before anyone needs them.
func (s *Service) RegisterJobs(js *jobs.Service) error {
	if err := jobs.Handle(js, func(ctx context.Context, _ *jobs.Job[refreshArgs]) error {
		n, refused, err := s.RefreshDue(ctx, RefreshAhead)
		if n > 0 || refused > 0 {
			s.cfg.Logger.Info("connections: tokens refreshed", "refreshed", n, "refused", refused)
		}
		return err
	}, jobs.KindOptions{MaxAttempts: 3, Timeout: 5 * time.Minute}); err != nil {
		return err
	}
	return js.Schedule(jobs.Periodic{Name: "connections.refresh", Cron: "*/10 * * * *", Zone: "UTC",
		Args: func(time.Time) jobs.Args { return refreshArgs{} }})
}
