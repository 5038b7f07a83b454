package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Probe defaults.
const (
	DefaultProbePath     = "/healthz"
	DefaultProbeInterval = 500 * time.Millisecond
	DefaultProbeTimeout  = 2 * time.Second
	DefaultProbeHealthy  = 3
	DefaultProbeDeadline = 30 * time.Second
)

// maxProbes bounds the probes a Result keeps (the last ones).
const maxProbes = 500

// Probe is the health check a new instance passes before it gets traffic:
// GET Path on the instance's address, every Interval, each answer within
// Timeout; Healthy consecutive 2xx answers (redirects are not followed and
// count as failures) are required before Deadline, counted from the start
// of the instance. Zero fields take the defaults (/healthz, 500 ms, 2 s, 3,
// 30 s).
type Probe struct {
	Path     string
	Interval time.Duration
	Timeout  time.Duration
	Healthy  int
	Deadline time.Duration
}

// withDefaults fills the zero fields.
func (p Probe) withDefaults() Probe {
	if p.Path == "" {
		p.Path = DefaultProbePath
	}
	if p.Path[0] != '/' {
		p.Path = "/" + p.Path
	}
	if p.Interval <= 0 {
		p.Interval = DefaultProbeInterval
	}
	if p.Timeout <= 0 {
		p.Timeout = DefaultProbeTimeout
	}
	if p.Healthy <= 0 {
		p.Healthy = DefaultProbeHealthy
	}
	if p.Deadline <= 0 {
		p.Deadline = DefaultProbeDeadline
	}
	return p
}

// ProbeResult is one health probe: when it was sent, the HTTP status (0
// when there was no answer), the error when there was none, and how long it
// took.
type ProbeResult struct {
	At      time.Time     `json:"at"`
	Status  int           `json:"status"`
	Err     string        `json:"err,omitempty"`
	Latency time.Duration `json:"latency"`
}

// ok reports whether the probe counts as healthy.
func (r ProbeResult) ok() bool { return r.Err == "" && r.Status >= 200 && r.Status < 300 }

// describe says what a probe found, for a Reason.
func (r ProbeResult) describe() string {
	if r.Err != "" {
		return r.Err
	}
	return fmt.Sprintf("status %d", r.Status)
}

// lastFinding describes the last answer among probes (a probe cut short by
// the deadline says less than the answer before it), or the last error.
func lastFinding(probes []ProbeResult) string {
	for i := len(probes) - 1; i >= 0; i-- {
		if probes[i].Status != 0 {
			return "the last answer was " + probes[i].describe()
		}
	}
	if len(probes) == 0 {
		return "no probe was sent"
	}
	return "no probe got an answer; the last: " + probes[len(probes)-1].describe()
}

// newProbeClient returns the client health probes use: no proxy, no
// keep-alive (a probe leaves no connection behind), no redirects.
func newProbeClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// check probes inst with p until it is healthy, it exits, the deadline passes or
// ctx ends. It returns the probes and, when the instance is not healthy,
// why.
func (d *Deployer) check(ctx context.Context, inst Instance, p Probe) (bool, []ProbeResult, string) {
	target := "http://" + inst.Addr() + p.Path
	deadlineAt := time.Now().Add(p.Deadline)
	deadline := time.NewTimer(p.Deadline)
	defer deadline.Stop()
	var probes []ProbeResult
	streak, best := 0, 0
	for {
		pctx, cancel := context.WithDeadline(ctx, minTime(time.Now().Add(p.Timeout), deadlineAt))
		r := d.probeOnce(pctx, target)
		cancel()
		if len(probes) == maxProbes {
			probes = append(probes[:0], probes[1:]...)
		}
		probes = append(probes, r)
		if r.ok() {
			streak++
			best = max(best, streak)
			if streak >= p.Healthy {
				return true, probes, ""
			}
		} else {
			streak = 0
		}
		wait := time.NewTimer(p.Interval)
		select {
		case <-ctx.Done():
			wait.Stop()
			return false, probes, "cancelled before the app was healthy: " + context.Cause(ctx).Error()
		case <-inst.Exited():
			wait.Stop()
			return false, probes, fmt.Sprintf("the app exited before it was healthy (%d of %d consecutive 2xx answers from %s)",
				streak, p.Healthy, p.Path)
		case <-deadline.C:
			wait.Stop()
			return false, probes, fmt.Sprintf("not healthy within %s: %d consecutive 2xx answers from %s were required, the most in a row was %d; %s",
				p.Deadline, p.Healthy, p.Path, best, lastFinding(probes))
		case <-wait.C:
		}
	}
}

// probeOnce sends one GET and reads at most 64 KiB of the answer.
func (d *Deployer) probeOnce(ctx context.Context, target string) ProbeResult {
	r := ProbeResult{At: d.clock.Now()}
	began := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	resp, err := d.probes.Do(req)
	if err != nil {
		r.Latency = time.Since(began)
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is the instance's address, known already
		}
		r.Err = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			r.Err = "no answer in time"
		}
		return r
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	r.Latency = time.Since(began)
	r.Status = resp.StatusCode
	return r
}

// minTime returns the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
