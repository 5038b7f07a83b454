package main

import (
	"context"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/captable/captablebench"
)

// benchCaptable runs `strata bench captable [--quick]` in the scratch
// database: it seeds one large company (10,000 stakeholders, 50,000 grants,
// ~100,000 events; --quick: 500 and 2,000) and measures the cap table read
// over HTTP, the as-of replay and the exit waterfall (readapi/captable/
// captablebench).
func (c *command) benchCaptable(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := captablebench.Full()
	if quick {
		opts = captablebench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.DB, opts.Progress = scratch.DB, c.stderr
	rep, err := captablebench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}
