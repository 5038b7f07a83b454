// Package wire holds the small helpers the four platform adapters share
// beyond the HTTP and OAuth plumbing of package connections: the days of
// an insights range, waiting between polls and reading a media item
// whole.
package wire

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// Days lists the UTC midnights from from through to, inclusive.
func Days(from, to time.Time) []time.Time {
	f := Midnight(from)
	t := Midnight(to)
	var out []time.Time
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

// Midnight is t's UTC date at midnight.
func Midnight(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Int returns a pointer to n.
func Int(n int64) *int64 { return &n }

// Wait sleeps d or until ctx is done (then it returns ctx's error).
func Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Open reads a media item's bytes whole (for platforms whose upload needs
// the size when Media.Size is unknown, or that take it in one request).
func Open(ctx context.Context, open func(context.Context) (io.ReadCloser, error), limit int64) ([]byte, error) {
	if open == nil {
		return nil, connections.Fail(connections.Refused, 0, "the media cannot be read (no Open)")
	}
	rc, err := open(ctx)
	if err != nil {
		return nil, connections.Fail(connections.Transient, 0, "media not read: "+err.Error())
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, connections.Fail(connections.Transient, 0, "media not read: "+err.Error())
	}
	if int64(len(b)) > limit {
		return nil, connections.Fail(connections.Refused, 0, "the media is larger than "+strconv.FormatInt(limit, 10)+" bytes")
	}
	return b, nil
}
