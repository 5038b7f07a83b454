package twilio

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Ranks of call statuses; a status at or before the last one reported is
// ignored.
const (
	rankNone = iota - 1
	rankDialing
	rankRinging
	rankAnswered
	rankEnded
)

func rankOf(status string) (int, bool) {
	switch status {
	case "queued", "initiated":
		return rankDialing, true
	case "ringing":
		return rankRinging, true
	case "in-progress":
		return rankAnswered, true
	case "completed", "busy", "failed", "no-answer", "canceled":
		return rankEnded, true
	}
	return 0, false
}

// call is one call placed through Dial. Its reports are computed under mu
// and delivered in order by its own goroutine (run).
type call struct {
	p      *Provider
	token  string
	from   string
	report telephony.Report
	record bool
	kick   chan struct{}

	mu          sync.Mutex
	sid         string
	rank        int
	answered    bool
	hungUp      bool
	ended       bool                // Ended queued (or the Dial failed)
	pendingEnd  *telephony.Progress // Ended waiting for the recording
	endTimer    *time.Timer
	recording   *telephony.Recording
	recFetching bool
	recDone     bool // fetched, failed or absent: no more waiting
	queue       []telephony.Progress
}

// run delivers the queued reports one at a time until Ended.
func (c *call) run() {
	for range c.kick {
		c.mu.Lock()
		q := c.queue
		c.queue = nil
		c.mu.Unlock()
		for _, pr := range q {
			c.report(pr)
			if pr.Kind == telephony.Ended {
				return
			}
		}
	}
}

// enqueue queues a report; mu is held.
func (c *call) enqueue(pr telephony.Progress) {
	pr.ProviderCallID = c.sid
	c.queue = append(c.queue, pr)
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// abort forgets a call whose creation failed; nothing is reported.
func (c *call) abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.p.forget(c)
	c.ended = true
	close(c.kick)
}

// accepted records the sid of the created call and reports Dialing, unless
// a callback was quicker.
func (c *call) accepted(sid string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	c.setSid(sid)
	if c.rank < rankDialing {
		c.rank = rankDialing
		c.enqueue(telephony.Progress{Kind: telephony.Dialing, At: at, Reason: "provider_accepted"})
	}
}

// setSid learns the call's sid; mu is held.
func (c *call) setSid(sid string) {
	if c.sid != "" || sid == "" {
		return
	}
	c.sid = sid
	c.p.mu.Lock()
	c.p.bySid[sid] = c
	c.p.mu.Unlock()
}

// statusUpdate is a call status callback.
type statusUpdate struct {
	CallSid  string
	Status   string
	SIPCode  int
	Duration time.Duration
	At       time.Time
}

// status applies a call status callback.
func (c *call) status(u statusUpdate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended || c.pendingEnd != nil {
		return
	}
	r, ok := rankOf(u.Status)
	if !ok {
		c.p.log.Warn("twilio: unknown call status", "sid", u.CallSid, "status", u.Status)
		return
	}
	if r <= c.rank {
		return // a retry, or a callback overtaken by a later one
	}
	c.setSid(u.CallSid)
	if c.rank < rankDialing {
		c.enqueue(telephony.Progress{Kind: telephony.Dialing, At: u.At, Reason: "provider_accepted"})
	}
	c.rank = r
	switch u.Status {
	case "queued", "initiated":
	case "ringing":
		c.enqueue(telephony.Progress{Kind: telephony.Ringing, At: u.At, SIPCode: u.SIPCode})
	case "in-progress":
		c.answered = true
		c.enqueue(telephony.Progress{Kind: telephony.Answered, At: u.At, SIPCode: u.SIPCode})
	default:
		if u.Status == "completed" && !c.answered {
			// Only an answered call completes: the answered callback was
			// lost. Its time is the end less the call's duration.
			c.answered = true
			c.enqueue(telephony.Progress{Kind: telephony.Answered, At: u.At.Add(-u.Duration), Reason: "inferred_from_completed"})
		}
		c.end(telephony.Progress{Kind: telephony.Ended, At: u.At, SIPCode: u.SIPCode,
			Outcome: outcomeOf(u.Status), Reason: c.reason(u.Status, u.SIPCode)})
	}
}

func outcomeOf(status string) telephony.Outcome {
	switch status {
	case "completed":
		return telephony.Completed
	case "busy":
		return telephony.Busy
	case "no-answer":
		return telephony.NoAnswer
	case "canceled":
		return telephony.Canceled
	}
	return telephony.Failed
}

// reason names why the call ended; mu is held.
func (c *call) reason(status string, sipCode int) string {
	switch status {
	case "completed":
		if c.hungUp {
			return "local_hangup"
		}
		return "remote_hangup"
	case "canceled":
		if c.hungUp {
			return "local_hangup"
		}
		return "caller_cancel"
	}
	if sipCode >= 300 {
		return fmt.Sprintf("sip_%d", sipCode)
	}
	switch status {
	case "busy":
		return "busy"
	case "no-answer":
		return "ring_timeout"
	}
	return "provider_failed"
}

// end sends Ended now, or holds it for the recording; mu is held.
func (c *call) end(pr telephony.Progress) {
	if c.record && c.answered && c.recording == nil && !c.recDone {
		c.pendingEnd = &pr
		c.endTimer = time.AfterFunc(c.p.cfg.RecordingWait, c.flushEnd)
		return
	}
	c.finish(pr)
}

// finish queues Ended, with the recording when there is one; mu is held.
func (c *call) finish(pr telephony.Progress) {
	if c.ended {
		return
	}
	if c.endTimer != nil {
		c.endTimer.Stop()
	}
	if c.answered {
		pr.Recording = c.recording
	}
	c.ended = true
	c.pendingEnd = nil
	c.enqueue(pr)
	c.p.forget(c)
}

// flushEnd sends a held Ended without the recording that did not come.
func (c *call) flushEnd() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pendingEnd != nil {
		c.p.log.Warn("twilio: no recording in time; ending without it", "sid", c.sid)
		c.finish(*c.pendingEnd)
	}
}

// recordingUpdate applies a recording status callback.
func (c *call) recordingUpdate(callSid, status, recURL string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended || c.recFetching || c.recDone {
		return
	}
	c.setSid(callSid)
	switch {
	case status == "completed" && recURL != "" || status == "" && recURL != "":
		c.recFetching = true
		go c.fetch(recURL)
	case status == "absent" || status == "failed":
		c.recDone = true
		if c.pendingEnd != nil {
			c.finish(*c.pendingEnd)
		}
	}
}

func (c *call) fetch(recURL string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.p.cfg.RecordingWait)
	defer cancel()
	rec, err := c.p.fetchRecording(ctx, recURL)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recFetching, c.recDone = false, true
	if err != nil {
		c.p.log.Warn("twilio: fetching the recording failed", "sid", c.sid, "err", err)
	} else {
		c.recording = rec
	}
	if c.pendingEnd != nil {
		c.finish(*c.pendingEnd)
	}
}

// Hangup ends the call: Status=completed once answered, Status=canceled
// before. The Ended report follows from Twilio's callback.
func (c *call) Hangup(ctx context.Context) error {
	c.mu.Lock()
	if c.ended || c.pendingEnd != nil {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	sid, status := c.sid, "canceled"
	if c.answered {
		status = "completed"
	}
	c.hungUp = true
	c.mu.Unlock()
	// Setting the same final status twice has the effect of once.
	retry := outbound.DefaultRetry()
	retry.Idempotent = true
	err := c.p.api(ctx, http.MethodPost, c.p.accountPath("/Calls/"+url.PathEscape(sid)+".json"),
		url.Values{"Status": {status}}, retry, nil)
	if err != nil {
		c.mu.Lock()
		c.hungUp = false
		c.mu.Unlock()
	}
	return err
}

// Transfer redirects an answered call to target (cold). Warm transfers are
// not supported by the REST adapter.
func (c *call) Transfer(ctx context.Context, target string, warm bool) error {
	if warm {
		return fmt.Errorf("%w: the twilio REST adapter transfers cold only", telephony.ErrTransfer)
	}
	c.mu.Lock()
	if c.ended || c.pendingEnd != nil {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	if !c.answered {
		c.mu.Unlock()
		return fmt.Errorf("%w: the call is not answered", telephony.ErrTransfer)
	}
	sid := c.sid
	c.mu.Unlock()
	twiml := "<Response><Dial callerId=\"" + xmlEscape(c.from) + "\">" + xmlEscape(target) + "</Dial></Response>"
	// Redirecting twice would dial the target twice: no retries.
	err := c.p.api(ctx, http.MethodPost, c.p.accountPath("/Calls/"+url.PathEscape(sid)+".json"),
		url.Values{"Twiml": {twiml}}, outbound.RetryPolicy{}, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", telephony.ErrTransfer, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended && c.pendingEnd == nil {
		c.enqueue(telephony.Progress{Kind: telephony.Transferred, At: c.p.now(), Target: target, Reason: "cold"})
	}
	return nil
}

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// forget drops a call from the lookups.
func (p *Provider) forget(c *call) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byToken[c.token] == c {
		delete(p.byToken, c.token)
	}
	if c.sid != "" && p.bySid[c.sid] == c {
		delete(p.bySid, c.sid)
	}
}
