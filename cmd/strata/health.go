package main

import (
	"context"
	stdsql "database/sql"
	"time"

	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/readapi"
)

// healthSource answers the health endpoints: the database must answer a
// query within a second, and no projector of this process may be failing.
type healthSource struct {
	db     *stdsql.DB
	runner *projections.Runner
}

func (h *healthSource) Readiness(ctx context.Context) readapi.Readiness {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var one int
	r := readapi.Readiness{Database: h.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one)}
	r.Stalled = h.runner.Stalled()
	r.Parked = h.runner.Guard().Count()
	return r
}
