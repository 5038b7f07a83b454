package projections

import (
	"strings"
	"time"

	"github.com/ThreeDotsLabs/watermill"
)

// wake is the Watermill BackoffManager of one live consumer. Watermill calls
// HandleError after every batch, once its transaction has ended, so wake is
// also where the runner learns that a batch committed. When a batch was empty
// it blocks until the store notifies a commit, the fallback poll interval
// passes, or the consumer stops; then it returns 0 so the next batch is read
// at once.
//
// A notification can arrive while a batch is being read, so the wait channel
// is armed before the next read starts. After a notification an empty read can
// still happen (an older transaction, such as another consumer's, holds the
// snapshot horizon back), so a few short re-reads follow before the long wait.
type wake struct {
	sig      *Sub
	poll     time.Duration
	retry    time.Duration
	stop     <-chan struct{}
	armed    <-chan struct{}
	burst    int
	errors   int // consecutive failed reads
	onBatch  func(empty bool)
	onFailed func(err error)
}

const maxBurst = 7 // short re-reads after a notification: 1+2+...+64 ms

func (w *wake) HandleError(logger watermill.LoggerAdapter, noMsg bool, err error) time.Duration {
	defer func() { w.armed = w.sig.Wait() }()
	if err != nil {
		msg := strings.ToLower(err.Error())
		if strings.Contains(msg, "concurrent update") || strings.Contains(msg, "deadlock") ||
			strings.Contains(msg, "could not serialize") {
			return 0 // another consumer of the group, or a rebuild, moved the checkpoint: read again
		}
		if w.onFailed != nil {
			w.onFailed(err)
		}
		d := w.retry << min(w.errors, 6) // the database is unreachable or refusing: back off up to 64x
		w.errors++
		return d
	}
	w.errors = 0
	if w.onBatch != nil {
		w.onBatch(noMsg)
	}
	if !noMsg {
		w.burst = 0
		return 0
	}
	if w.burst > 0 && w.burst <= maxBurst {
		d := time.Duration(1<<(w.burst-1)) * time.Millisecond
		w.burst++
		select {
		case <-w.stop:
		case <-time.After(d):
		}
		return 0
	}
	w.burst = 0
	armed := w.armed
	if armed == nil {
		armed = w.sig.Wait()
	}
	select {
	case <-w.stop:
	case <-armed:
		w.burst = 1
	case <-time.After(w.poll):
	}
	return 0
}
