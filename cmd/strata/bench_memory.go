package main

import (
	"context"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/memory/memorybench"
)

// benchMemory runs `strata bench memory [--quick]` in the scratch database:
// it loads the seeded labelled corpus (50,000 memories over 200 entities;
// --quick: 5,000 over 40) into one user's memory store and measures recall
// quality against a BM25 baseline, recall and context latency, and
// remember under concurrent writers (readapi/memory/memorybench), and
// scores extraction on a labelled set.
func (c *command) benchMemory(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := memorybench.Full()
	if quick {
		opts = memorybench.Quick()
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.DB, opts.Progress = scratch.DB, c.stderr
	rep, err := memorybench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// benchExtraction runs `strata bench memory --extraction`: the extraction
// figures of the memory bench alone (offline and offline+model on the
// labelled set), which need no database.
func (c *command) benchExtraction(ctx context.Context) error {
	rep, err := memorybench.RunExtraction(ctx, c.stderr)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}
