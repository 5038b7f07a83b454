package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Status is a company's serving instance as the Deployer sees it.
type Status struct {
	Version string    `json:"version"`
	Addr    string    `json:"addr"`    // where the proxy sends its traffic
	Since   time.Time `json:"since"`   // when it took the traffic
	Running bool      `json:"running"` // false once its process has exited by itself
}

// company returns the company's entry, creating it, or ErrClosed.
func (d *Deployer) company(id string) (*company, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, ErrClosed
	}
	c := d.companies[id]
	if c == nil {
		c = &company{lock: make(chan struct{}, 1)}
		d.companies[id] = c
	}
	return c, nil
}

// current returns the company's serving backend, or nil. It creates nothing.
func (d *Deployer) current(id string) *backend {
	d.mu.Lock()
	c := d.companies[id]
	d.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.cur.Load()
}

// Current returns the version serving the company's traffic, if any. It
// changes only when a redeploy switches (after its probes passed) and when
// the company's app is stopped.
func (d *Deployer) Current(companyID string) (version string, ok bool) {
	if b := d.current(companyID); b != nil {
		return b.version, true
	}
	return "", false
}

// Status returns the company's serving instance, if any. Running turns false
// when its process has exited on its own: the proxy then answers 502 until
// a redeploy.
func (d *Deployer) Status(companyID string) (Status, bool) {
	b := d.current(companyID)
	if b == nil {
		return Status{}, false
	}
	s := Status{Version: b.version, Addr: b.inst.Addr(), Since: b.since, Running: true}
	select {
	case <-b.inst.Exited():
		s.Running = false
	default:
	}
	return s, true
}

// LogTail returns the last n lines of output of the company's serving
// instance, if any.
func (d *Deployer) LogTail(companyID string, n int) (string, bool) {
	if b := d.current(companyID); b != nil {
		return b.inst.LogTail(n), true
	}
	return "", false
}

// Stop takes the company's app out of service: the proxy answers 503 from
// then on, and the instance is drained and stopped. It waits for a redeploy
// of the company in progress to finish first (as long as ctx allows). It is
// not an error if nothing is running.
func (d *Deployer) Stop(ctx context.Context, companyID string) error {
	c, err := d.company(companyID)
	if err != nil {
		return err
	}
	select {
	case c.lock <- struct{}{}:
		defer func() { <-c.lock }()
	case <-ctx.Done():
		return fmt.Errorf("stop %s: %w", companyID, ctx.Err())
	}
	if b := c.cur.Swap(nil); b != nil {
		d.retire(ctx, b, d.drainTimeout)
	}
	return nil
}

// Close stops every instance: redeploys in progress are cancelled (their new
// instances stopped, their Results saying so), serving instances are drained
// (for at most the drain timeout, or until ctx ends) and stopped, and the
// call waits for redeploys in progress to finish, as long as ctx allows.
// Afterwards Redeploy answers ErrClosed and the proxy 503. Calling Close
// again is harmless.
func (d *Deployer) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	companies := make([]*company, 0, len(d.companies))
	for _, c := range d.companies {
		companies = append(companies, c)
	}
	d.mu.Unlock()
	d.cancel()
	var wg sync.WaitGroup
	for _, c := range companies {
		if b := c.cur.Swap(nil); b != nil {
			wg.Go(func() { d.retire(ctx, b, d.drainTimeout) })
		}
	}
	wg.Wait()
	defer d.probes.CloseIdleConnections()
	for _, c := range companies {
		select {
		case c.lock <- struct{}{}:
			<-c.lock
		case <-ctx.Done():
			return fmt.Errorf("close: a redeploy is still stopping its instance: %w", ctx.Err())
		}
	}
	return nil
}
