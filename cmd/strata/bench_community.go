package main

import (
	"context"
	"os"

	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/community/communitybench"
)

// benchCommunity runs `strata bench community [--quick]` in the scratch
// database: it seeds one tenant with 100,000 events and 1,000,000 RSVPs
// (--quick: 2,000 and 20,000) and measures browsing, listing and the RSVP
// command over HTTP (readapi/community/communitybench).
func (c *command) benchCommunity(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	opts := communitybench.Full()
	if quick {
		opts = communitybench.Quick()
	}
	dir, err := os.MkdirTemp("", "strata-bench-mail-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", opts.Mode)
	opts.DB, opts.MailDir, opts.Progress = scratch.DB, dir, c.stderr
	rep, err := communitybench.Run(ctx, opts)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}
