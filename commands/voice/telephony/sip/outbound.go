package sip

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

var (
	errRingTimeout = errors.New("ring timeout")
	errHangup      = errors.New("hung up while ringing")
)

// outCall is a call we placed.
type outCall struct {
	*session
	req        telephony.CallRequest
	cdlg       *sipgo.DialogClientSession
	ringCancel context.CancelCauseFunc
	ringCtx    context.Context
	hangupReq  bool // under session.mu
}

var _ telephony.Call = (*outCall)(nil)

// invite builds the INVITE for sip:<to>@<Trunk> from sip:<from>@<Domain>
// with an SDP offer on m's port.
func (p *Provider) invite(callID, from, to, strataID string, m *media) (*sip.Request, func(string) []byte) {
	sessID := int64(rand.Uint32())
	version := sessID
	ip := p.addr.IP
	sdp := func(direction string) []byte {
		version++
		return buildSDP(ip, m.port(), sessID, version, []int{ptPCMU, ptPCMA}, ptDTMFDef, direction)
	}
	req := sip.NewRequest(sip.INVITE, p.uri(to))
	req.AppendHeader(p.fromHeader(from))
	req.AppendHeader(&sip.ToHeader{Address: p.uri(to)})
	cid := sip.CallIDHeader(callID)
	req.AppendHeader(&cid)
	if strataID != "" {
		req.AppendHeader(sip.NewHeader("X-Strata-Call-ID", strataID))
	}
	ct := sip.ContentTypeHeader("application/sdp")
	req.AppendHeader(&ct)
	req.SetBody(sdp("sendrecv"))
	return req, sdp
}

// Dial sends the INVITE and returns; a goroutine of the call reports its
// progress (see the package doc for the mapping).
func (p *Provider) Dial(ctx context.Context, req telephony.CallRequest, report telephony.Report) (telephony.Call, error) {
	if p.ctx.Err() != nil {
		return nil, errors.New("sip: provider closed")
	}
	callID := newCallID()
	c := &outCall{session: newSession(p, callID, report, req.Record), req: req}
	c.from, c.strataID = req.From, req.CallID
	c.ringTimeout = req.RingTimeout
	if c.ringTimeout <= 0 {
		c.ringTimeout = p.cfg.RingTimeout
	}
	m, err := p.newMedia(c.digit)
	if err != nil {
		return nil, err
	}
	c.media = m
	inv, sdp := p.invite(callID, req.From, req.To, req.CallID, m)
	c.localSDP = sdp
	c.ringCtx, c.ringCancel = context.WithCancelCause(p.ctx)

	p.register(callID, c.session)
	p.calls.Add(1)
	dlg, err := p.dua.WriteInvite(ctx, inv)
	if err != nil {
		p.calls.Done()
		p.unregister(callID, c.session)
		c.ringCancel(nil)
		m.close()
		return nil, fmt.Errorf("sip: INVITE %s: %w", req.To, err)
	}
	c.cdlg = dlg
	go c.run()
	return c, nil
}

func (c *outCall) digit(d string, at time.Time) {
	c.post(telephony.Progress{Kind: telephony.Digit, At: at, Digit: d, Reason: "rfc2833"})
}

// run is the call's goroutine: it reports the setup inline (WaitAnswer
// calls OnResponse on this goroutine), then the queued progress.
func (c *outCall) run() {
	defer c.p.calls.Done()
	p := c.p
	timer := time.AfterFunc(c.ringTimeout, func() { c.ringCancel(errRingTimeout) })
	var dialing, ringing bool
	var answerAt time.Time
	err := c.cdlg.WaitAnswer(c.ringCtx, sipgo.AnswerOptions{OnResponse: func(res *sip.Response) error {
		at := p.now()
		code := res.StatusCode
		if !dialing {
			dialing = true
			c.emit(telephony.Progress{Kind: telephony.Dialing, At: at, SIPCode: code, Reason: provisionalReason(code)})
		}
		if (code == 180 || code == 183) && !ringing {
			ringing = true
			c.emit(telephony.Progress{Kind: telephony.Ringing, At: at, SIPCode: code, Reason: provisionalReason(code)})
		}
		if res.IsSuccess() {
			answerAt = at
		}
		return nil
	}})
	timer.Stop()
	if err != nil {
		c.setupFailed(err)
		return
	}

	// 200: ACK, then Answered.
	res := c.cdlg.InviteResponse
	if err := c.cdlg.Ack(p.ctx); err != nil {
		p.log.Warn("sip: ACK", "call", c.callID, "err", err)
	}
	if info, err := parseSDP(res.Body()); err == nil {
		c.media.setRemote(info)
	}
	if c.record {
		c.media.recording.Store(true)
	}
	c.mu.Lock()
	if cont := res.Contact(); cont != nil {
		c.remoteTarget = cont.Address
	} else {
		c.remoteTarget = c.cdlg.InviteRequest.Recipient
	}
	c.dlg = c.cdlg
	hangup := c.hangupReq
	if c.state == stateSetup {
		c.state = stateAnswered
	}
	c.mu.Unlock()
	c.emit(telephony.Progress{Kind: telephony.Answered, At: answerAt, SIPCode: res.StatusCode, Reason: "answered"})
	if hangup {
		// Hangup came as the 200 arrived: too late for CANCEL.
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		_ = c.hangupAnswered(ctx)
		cancel()
	}
	c.loop()
}

// setupFailed reports the end of a call that was never answered.
func (c *outCall) setupFailed(err error) {
	p := c.p
	end := telephony.Progress{Kind: telephony.Ended, At: p.now()}
	var de *sipgo.ErrDialogResponse
	cause := context.Cause(c.ringCtx)
	last := c.cdlg.InviteResponse
	lastCode := 0
	if last != nil {
		lastCode = last.StatusCode
	}
	switch {
	case errors.As(err, &de):
		end.SIPCode = de.Res.StatusCode
		end.Outcome, end.Reason = finalOutcome(end.SIPCode)
	case errors.Is(cause, errRingTimeout) || errors.Is(cause, errHangup):
		end.Outcome, end.Reason = telephony.NoAnswer, "ring_timeout"
		if errors.Is(cause, errHangup) {
			end.Outcome, end.Reason = telephony.Canceled, "caller_cancel"
		}
		if lastCode >= 200 {
			end.SIPCode = lastCode
		}
		if lastCode >= 200 && lastCode < 300 {
			// The 200 crossed our CANCEL: confirm and end the dialog.
			ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
			if c.cdlg.Ack(ctx) == nil {
				_ = c.cdlg.Bye(ctx)
			}
			cancel()
		}
	case p.ctx.Err() != nil:
		end.Outcome, end.Reason = telephony.Failed, "provider_closed"
	case errors.Is(err, sip.ErrTransactionTimeout):
		end.Outcome, end.Reason = telephony.Failed, "timeout"
	default:
		end.Outcome, end.Reason = telephony.Failed, "transport_error"
		p.log.Warn("sip: INVITE failed", "call", c.callID, "err", err)
	}
	c.mu.Lock()
	c.state = stateEnded
	c.mu.Unlock()
	c.ringCancel(nil)
	c.finish(end)
}

// Hangup sends CANCEL while the call rings (the Ended report follows when
// the 487 arrives) and BYE once it is answered.
func (c *outCall) Hangup(ctx context.Context) error {
	c.mu.Lock()
	switch c.state {
	case stateSetup:
		c.hangupReq = true
		c.mu.Unlock()
		c.ringCancel(errHangup)
		return nil
	case stateEnding, stateEnded:
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	c.mu.Unlock()
	return c.hangupAnswered(ctx)
}

func provisionalReason(code int) string {
	switch code {
	case 100:
		return "trying"
	case 180:
		return "ringing"
	case 183:
		return "session_progress"
	case 200:
		return "answered"
	}
	return fmt.Sprintf("sip_%d", code)
}

// finalOutcome maps a final non-2xx response to an outcome and reason.
func finalOutcome(code int) (telephony.Outcome, string) {
	reason := fmt.Sprintf("sip_%d", code)
	switch code {
	case 486, 600, 603:
		return telephony.Busy, reason
	case 408, 480:
		return telephony.NoAnswer, reason
	}
	return telephony.Failed, reason
}

// consultLeg is a warm transfer's call to the target; it reports nothing.
type consultLeg struct {
	p      *Provider
	callID string
	dlg    *sipgo.DialogClientSession
	media  *media
}

// consult calls target and waits for its answer (ring timeout: the
// transferred call's); a refusal or no answer is an ErrTransfer.
func (p *Provider) consult(ctx context.Context, from, target, strataID string, ringTimeout time.Duration) (*consultLeg, error) {
	m, err := p.newMedia(nil)
	if err != nil {
		return nil, err
	}
	leg := &consultLeg{p: p, callID: newCallID(), media: m}
	inv, _ := p.invite(leg.callID, from, target, strataID, m)
	p.register(leg.callID, leg)
	dlg, err := p.dua.WriteInvite(ctx, inv)
	if err != nil {
		leg.close()
		return nil, fmt.Errorf("%w: INVITE %s: %v", telephony.ErrTransfer, target, err)
	}
	leg.dlg = dlg
	wctx, cancel := context.WithTimeout(ctx, ringTimeout)
	defer cancel()
	if err := dlg.WaitAnswer(wctx, sipgo.AnswerOptions{}); err != nil {
		leg.close()
		var de *sipgo.ErrDialogResponse
		if errors.As(err, &de) {
			return nil, fmt.Errorf("%w: %s answered %d", telephony.ErrTransfer, target, de.Res.StatusCode)
		}
		if r := dlg.InviteResponse; r != nil && r.IsSuccess() {
			// Answered as we cancelled.
			_ = dlg.Ack(p.ctx)
			_ = dlg.Bye(p.ctx)
		}
		return nil, fmt.Errorf("%w: %s did not answer: %v", telephony.ErrTransfer, target, err)
	}
	if err := dlg.Ack(ctx); err != nil {
		leg.hangup()
		return nil, fmt.Errorf("%w: ACK %s: %v", telephony.ErrTransfer, target, err)
	}
	return leg, nil
}

// replacesURI is target's URI with a Replaces header naming our dialog
// with it (RFC 3891: to-tag is the target's tag, from-tag ours).
func (l *consultLeg) replacesURI(target sip.Uri) string {
	toTag, _ := l.dlg.InviteResponse.To().Params.Get("tag")
	fromTag, _ := l.dlg.InviteRequest.From().Params.Get("tag")
	rep := l.callID + ";to-tag=" + toTag + ";from-tag=" + fromTag
	return target.String() + "?Replaces=" + escapeHeaderValue(rep)
}

// escapeHeaderValue percent-encodes a URI header value.
func escapeHeaderValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '@' {
			b = append(b, ch)
			continue
		}
		b = append(b, '%', hex[ch>>4], hex[ch&15])
	}
	return string(b)
}

// hangup BYEs the leg (a 481 because the target already hung up is fine).
func (l *consultLeg) hangup() {
	ctx, cancel := context.WithTimeout(l.p.ctx, 5*time.Second)
	_ = l.dlg.Bye(ctx)
	cancel()
	l.close()
}

func (l *consultLeg) close() {
	l.p.unregister(l.callID, l)
	l.media.close()
}

func (l *consultLeg) onBye(req *sip.Request, tx sip.ServerTransaction) {
	if l.dlg == nil || l.dlg.ReadBye(req, tx) != nil {
		respond(tx, req, 481, "Call/Transaction Does Not Exist")
	}
}
func (l *consultLeg) onNotify(req *sip.Request, tx sip.ServerTransaction) {
	respond(tx, req, 200, "OK")
}
func (l *consultLeg) onReInvite(req *sip.Request, tx sip.ServerTransaction) {
	respond(tx, req, 488, "Not Acceptable Here")
}
func (l *consultLeg) onAck(*sip.Request, sip.ServerTransaction) {}
