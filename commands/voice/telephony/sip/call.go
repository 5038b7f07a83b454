package sip

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emiago/sipgo/sip"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// pendingRefer is a REFER waiting for its final NOTIFY.
type pendingRefer struct {
	target, reason string
	codes          chan int // sipfrag codes
	final          bool     // a final sipfrag arrived (under session.mu)
}

// dialog is what a call needs of sipgo's client and server dialog
// sessions once the call is set up.
type dialog interface {
	Do(ctx context.Context, req *sip.Request) (*sip.Response, error)
	WriteRequest(req *sip.Request) error
	Bye(ctx context.Context) error
	ReadBye(req *sip.Request, tx sip.ServerTransaction) error
}

// Call states.
type callState int

const (
	stateSetup    callState = iota // ringing (outbound) or not yet answered (inbound)
	stateAnswered                  // confirmed dialog
	stateEnding                    // our BYE is on its way, or the end is queued
	stateEnded                     // Ended reported or queued
)

// event is one item of a call's report queue; end events stop it.
type event struct {
	p   telephony.Progress
	end bool
}

// queue is an unbounded FIFO: pushing never blocks, so Hangup and
// Transfer may be called from inside a Report func.
type queue struct {
	mu    sync.Mutex
	items []event
	wake  chan struct{}
}

func (q *queue) push(e event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) pop(ctx context.Context) (event, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			e := q.items[0]
			q.items[0] = event{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return e, true
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return event{}, false
		}
	}
}

// session is an established call (ours or the far end's): the report
// goroutine's queue, the dialog and the media, and the in-call commands.
type session struct {
	p      *Provider
	callID string // SIP Call-ID
	report telephony.Report
	record bool
	media  *media
	q      queue
	done   chan struct{}

	// Set once the dialog is confirmed, before state becomes answered.
	dlg          dialog
	remoteTarget sip.Uri
	localSDP     func(direction string) []byte
	from         string // our number, for consultation calls
	strataID     string // X-Strata-Call-ID
	ringTimeout  time.Duration

	sentFirst bool // touched only by the report goroutine
	ackFn     func(*sip.Request, sip.ServerTransaction)

	mu          sync.Mutex
	state       callState
	transferred bool
	referring   *pendingRefer
	xferMu      sync.Mutex
}

func newSession(p *Provider, callID string, report telephony.Report, record bool) *session {
	return &session{
		p: p, callID: callID, report: report, record: record,
		q:    queue{wake: make(chan struct{}, 1)},
		done: make(chan struct{}),
	}
}

// emit calls the Report func; only the call's goroutine calls it.
func (s *session) emit(p telephony.Progress) {
	if !s.sentFirst {
		s.sentFirst = true
		p.ProviderCallID = s.callID
	}
	if s.report != nil {
		s.report(p)
	}
}

// post queues a report for the call's goroutine.
func (s *session) post(p telephony.Progress) { s.q.push(event{p: p}) }

// end queues the Ended report; only the first end counts.
func (s *session) end(p telephony.Progress) {
	p.Kind = telephony.Ended
	s.mu.Lock()
	s.state = stateEnded
	s.q.push(event{p: p, end: true}) // under mu: ordered after a Transferred
	s.mu.Unlock()
}

// loop reports queued progress until the end. On provider Close it sends
// a BYE (best effort) and ends with Reason "provider_closed".
func (s *session) loop() {
	for {
		ev, ok := s.q.pop(s.p.ctx)
		if !ok {
			s.mu.Lock()
			live := s.state == stateAnswered
			s.state = stateEnded
			s.mu.Unlock()
			if live {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				_ = s.dlg.Bye(ctx)
				cancel()
			}
			ev = event{p: telephony.Progress{Kind: telephony.Ended, At: s.p.now(), Outcome: telephony.Completed, Reason: "provider_closed"}, end: true}
		}
		if ev.end {
			s.finish(ev.p)
			return
		}
		s.emit(ev.p)
	}
}

// finish stops the media, attaches the recording and reports Ended.
func (s *session) finish(p telephony.Progress) {
	if s.media != nil {
		s.media.close()
		if s.record && p.Outcome == telephony.Completed {
			p.Recording = s.media.recordingWAV()
		}
	}
	s.p.unregister(s.callID, s)
	s.emit(p)
	close(s.done)
}

func (s *session) hangupAnswered(ctx context.Context) error {
	s.mu.Lock()
	if s.state != stateAnswered {
		st := s.state
		s.mu.Unlock()
		if st >= stateEnding {
			return telephony.ErrCallOver
		}
		return errors.New("sip: call not answered")
	}
	s.state = stateEnding
	reason := "local_hangup"
	if s.transferred {
		reason = "transferred"
	}
	s.mu.Unlock()
	err := s.dlg.Bye(ctx)
	s.end(telephony.Progress{At: s.p.now(), Outcome: telephony.Completed, Reason: reason})
	if err != nil {
		return fmt.Errorf("sip: BYE: %w", err)
	}
	return nil
}

// dialogHandler, for established calls.

func (s *session) onBye(req *sip.Request, tx sip.ServerTransaction) {
	at := s.p.now()
	s.mu.Lock()
	st := s.state
	if st == stateEnded || s.dlg == nil {
		s.mu.Unlock()
		respond(tx, req, 481, "Call/Transaction Does Not Exist")
		return
	}
	reason := "remote_hangup"
	if s.transferred {
		reason = "transferred"
	}
	s.mu.Unlock()
	if err := s.dlg.ReadBye(req, tx); err != nil {
		respond(tx, req, 481, "Call/Transaction Does Not Exist")
		return
	}
	if st == stateEnding {
		return // our own BYE crossed theirs; Hangup reports the end
	}
	s.end(telephony.Progress{At: at, Outcome: telephony.Completed, Reason: reason})
}

func (s *session) onNotify(req *sip.Request, tx sip.ServerTransaction) {
	at := s.p.now()
	code := sipfragCode(req.Body())
	s.mu.Lock()
	ref := s.referring
	if ref != nil && code >= 200 && !ref.final {
		ref.final = true
		if code < 300 {
			// Mark and report before our 200 lets the far end go on to
			// its BYE: that BYE then ends the call as "transferred".
			s.transferred = true
			s.q.push(event{p: telephony.Progress{Kind: telephony.Transferred, At: at, SIPCode: code, Reason: ref.reason, Target: ref.target}})
		}
	}
	s.mu.Unlock()
	respond(tx, req, 200, "OK")
	if ref != nil && code > 0 {
		select {
		case ref.codes <- code:
		default:
		}
	}
}

func (s *session) onReInvite(req *sip.Request, tx sip.ServerTransaction) {
	// The far end refreshes or changes the session: accept with our
	// current description (we keep sending where we sent).
	if s.localSDP == nil {
		respond(tx, req, 491, "Request Pending")
		return
	}
	res := sip.NewSDPResponseFromRequest(req, s.localSDP("sendrecv"))
	res.AppendHeader(sip.HeaderClone(&s.p.dua.ContactHDR))
	_ = tx.Respond(res)
}

func (s *session) onAck(req *sip.Request, tx sip.ServerTransaction) {
	if s.ackFn != nil {
		s.ackFn(req, tx)
	}
}

// answeredDialog returns the dialog when the call is answered.
func (s *session) answeredDialog() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.state >= stateEnding:
		return telephony.ErrCallOver
	case s.state != stateAnswered:
		return errors.New("sip: call not answered")
	}
	return nil
}

// reinvite changes the direction of our media (hold: sendonly, resume:
// sendrecv) and ACKs the 2xx.
func (s *session) reinvite(ctx context.Context, direction string) (int, time.Time, error) {
	req := sip.NewRequest(sip.INVITE, s.remoteTarget)
	ct := sip.ContentTypeHeader("application/sdp")
	req.AppendHeader(&ct)
	req.SetBody(s.localSDP(direction))
	res, err := s.dlg.Do(ctx, req)
	if err != nil {
		return 0, time.Time{}, err
	}
	at := s.p.now()
	if !res.IsSuccess() {
		return res.StatusCode, at, fmt.Errorf("re-INVITE (%s): SIP %d", direction, res.StatusCode)
	}
	ack := sip.NewRequest(sip.ACK, s.remoteTarget)
	if err := s.dlg.WriteRequest(ack); err != nil {
		return res.StatusCode, at, err
	}
	return res.StatusCode, at, nil
}

// Transfer hands the far end to target: cold with REFER, warm by holding
// it, calling target and, once target answers, REFER with Replaces.
func (s *session) Transfer(ctx context.Context, target string, warm bool) error {
	if err := s.answeredDialog(); err != nil {
		return err
	}
	if !s.xferMu.TryLock() {
		return errors.New("sip: a transfer is already in progress")
	}
	defer s.xferMu.Unlock()
	if !warm {
		to := s.p.uri(target)
		return s.refer(ctx, target, to.String(), "cold_transfer")
	}

	code, at, err := s.reinvite(ctx, "sendonly")
	if err != nil {
		return fmt.Errorf("%w: hold: %v", telephony.ErrTransfer, err)
	}
	s.post(telephony.Progress{Kind: telephony.Held, At: at, SIPCode: code, Reason: "hold"})

	leg, cerr := s.p.consult(ctx, s.from, target, s.strataID, s.ringTimeout)
	if cerr == nil {
		referTo := leg.replacesURI(s.p.uri(target))
		if err := s.refer(ctx, target, referTo, "warm_transfer"); err == nil {
			leg.hangup() // the target's dialog with us is replaced
			return nil
		} else {
			cerr = err
		}
		leg.hangup()
	}
	if err := s.answeredDialog(); err != nil {
		return fmt.Errorf("%w: %v (and the call ended meanwhile)", telephony.ErrTransfer, cerr)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	code, at, err = s.reinvite(rctx, "sendrecv")
	if err != nil {
		return fmt.Errorf("%w: %v; resume failed: %v", telephony.ErrTransfer, cerr, err)
	}
	s.post(telephony.Progress{Kind: telephony.Resumed, At: at, SIPCode: code, Reason: "resume"})
	if errors.Is(cerr, telephony.ErrTransfer) {
		return cerr
	}
	return fmt.Errorf("%w: %v", telephony.ErrTransfer, cerr)
}

// refer sends REFER (Refer-To: referTo), waits for the 202 and for the
// final NOTIFY sipfrag; a 2xx there reports Transferred. The far end then
// BYEs us (Ended Completed "transferred"); if it does not within
// TransferTimeout we BYE it.
func (s *session) refer(ctx context.Context, target, referTo, reason string) error {
	ctx, cancel := context.WithTimeout(ctx, s.p.cfg.TransferTimeout)
	defer cancel()
	ref := &pendingRefer{target: target, reason: reason, codes: make(chan int, 8)}
	s.mu.Lock()
	s.referring = ref
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.referring = nil
		s.mu.Unlock()
	}()

	req := sip.NewRequest(sip.REFER, s.remoteTarget)
	req.AppendHeader(sip.NewHeader("Refer-To", "<"+referTo+">"))
	by := s.p.dua.ContactHDR.Address
	req.AppendHeader(sip.NewHeader("Referred-By", "<"+by.String()+">"))
	res, err := s.dlg.Do(ctx, req)
	if err != nil {
		return fmt.Errorf("%w: REFER: %v", telephony.ErrTransfer, err)
	}
	if !res.IsSuccess() {
		return fmt.Errorf("%w: REFER: SIP %d", telephony.ErrTransfer, res.StatusCode)
	}
	for {
		select {
		case code := <-ref.codes:
			if code < 200 {
				continue
			}
			if code >= 300 {
				return fmt.Errorf("%w: NOTIFY sipfrag %d", telephony.ErrTransfer, code)
			}
			// onNotify reported Transferred; the far end should BYE us now.
			time.AfterFunc(s.p.cfg.TransferTimeout, func() {
				bctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = s.hangupAnswered(bctx)
			})
			return nil
		case <-s.done:
			return telephony.ErrCallOver
		case <-ctx.Done():
			return fmt.Errorf("%w: no final NOTIFY: %v", telephony.ErrTransfer, ctx.Err())
		}
	}
}
