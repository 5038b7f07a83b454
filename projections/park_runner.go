package projections

import (
	"context"
	"errors"
	"time"
)

// contain handles a failure of a Partitioned projector that is about one
// event: a failed batch is applied again event by event to find the event;
// a failing event parks its stream. It returns true when the projector
// should subscribe again at once (the failure is contained), false when the
// failure stops the projector as before (a global projector, or a transient
// error such as the database going away).
func (r *Runner) contain(ctx context.Context, p Projector, err error) bool {
	if _, ok := p.(Partitioned); !ok || transient(err) {
		return false
	}
	var ae *ApplyError
	if !errors.As(err, &ae) {
		return false
	}
	if ae.Batch {
		r.mu.Lock()
		r.isolate[p.Name()] = true
		r.mu.Unlock()
		r.logger.Warn("projector batch failed; applying it event by event to find the event", "projector", p.Name(),
			"position", ae.Position, "err", err)
		return true
	}
	if ae.Event == nil {
		return false
	}
	if perr := park(context.WithoutCancel(ctx), r.db, p.Name(), *ae.Event, ae.Err); perr != nil {
		r.logger.Error("could not park the stream of a failing event", "projector", p.Name(), "stream", ae.Event.StreamID, "err", perr)
		return false
	}
	r.guard.mark(p.Name(), ae.Event.StreamID, true)
	r.logger.Error("projector parked a stream: its events wait until an operator retries or skips this one; other streams go on",
		"projector", p.Name(), "stream", ae.Event.StreamID, "position", ae.Position, "event_type", ae.Type, "err", ae.Err)
	return true
}

// refreshGuard reloads the parked streams every second until ctx ends, so
// parks, retries and skips made by other processes reach this one's guard.
func (r *Runner) refreshGuard(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if err := r.guard.Refresh(ctx); err != nil && ctx.Err() == nil {
			r.logger.Warn("could not read parked streams", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
