package captable

import (
	"bytes"
	"context"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/reports"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Entries loads a company's stream as recorded now, for a report: every
// event with its version, id, type and recording time.
func (s *Service) Entries(ctx context.Context, company string) ([]reports.Entry, error) {
	envs, err := s.store.Load(ctx, company, eventstore.LoadOptions{})
	if err != nil {
		return nil, err
	}
	if len(envs) == 0 {
		return nil, kernel.NotFound("company " + company + " not found")
	}
	out := make([]reports.Entry, len(envs))
	for i, e := range envs {
		out[i] = reports.Entry{Version: e.StreamVersion, EventID: e.EventID, Type: e.Type, RecordedAt: e.RecordedAt, Event: e.Event}
	}
	return out, nil
}

// RecordReport stores a generated report's file and records it: the bytes
// are staged first, then moved into the blob store inside the decision
// that records report_generated (as for documents).
func (s *Service) RecordReport(ctx context.Context, company string, r captable.FinancialReport, content []byte) (eventstore.Appended, error) {
	if s.cfg.Blobs == nil {
		return eventstore.Appended{}, kernel.Unavailable("report storage is not configured", nil)
	}
	staged, err := s.cfg.Blobs.Stage(ctx, company, bytes.NewReader(content), int64(len(content)))
	if err != nil {
		return eventstore.Appended{}, err
	}
	defer staged.Discard() //nolint:errcheck // gone already once committed
	r.SHA256, r.Size = staged.SHA256, staged.Size
	var app eventstore.Appended
	err = s.withBlobLock(ctx, company, func() (err error) {
		app, err = s.Do(ctx, company, func(c *captable.Company) ([]kernel.Event, error) {
			evs, err := c.RecordReport(r)
			if err != nil {
				return nil, err
			}
			return evs, commitBlob(ctx, staged)
		})
		return err
	})
	return app, err
}
