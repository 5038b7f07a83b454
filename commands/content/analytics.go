package content

import "github.com/strata-platform/strata/commands/jobs"

func (s *Service) registerAnalyticsJobs(js *jobs.Service) error { return nil }
