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

// inCall is a call that arrived at our listener.
type inCall struct {
	*session
	sdlg  *sipgo.DialogServerSession
	offer sdpInfo
	final chan struct{} // closed once a final response went out (or the caller gave up)
}

var _ telephony.Call = (*inCall)(nil)

func (p *Provider) onInvite(req *sip.Request, tx sip.ServerTransaction) {
	if to := req.To(); to != nil && to.Params.Has("tag") {
		// A re-INVITE inside one of our dialogs.
		if h := p.lookup(req); h != nil {
			h.onReInvite(req, tx)
			return
		}
		respond(tx, req, 481, "Call/Transaction Does Not Exist")
		return
	}
	p.mu.Lock()
	handle := p.handle
	p.mu.Unlock()
	if handle == nil || p.ctx.Err() != nil {
		respond(tx, req, 480, "Temporarily Unavailable")
		return
	}
	offer, err := parseSDP(req.Body())
	if err != nil || offer.audioPT() < 0 {
		respond(tx, req, 488, "Not Acceptable Here")
		return
	}
	sdlg, err := p.dua.ReadInvite(req, tx)
	if err != nil {
		respond(tx, req, 400, "Bad Request")
		return
	}
	callID := req.CallID().Value()
	c := &inCall{session: newSession(p, callID, nil, false), sdlg: sdlg, offer: offer, final: make(chan struct{})}
	c.ringTimeout = p.cfg.RingTimeout
	if to := req.To(); to != nil {
		c.from = to.Address.User // our number, for consultation calls
	}
	c.ackFn = func(r *sip.Request, tx sip.ServerTransaction) { _ = sdlg.ReadAck(r, tx) }
	m, err := p.newMedia(c.digit)
	if err != nil {
		respond(tx, req, 503, "Service Unavailable")
		return
	}
	c.media = m
	p.register(callID, c.session)
	_ = sdlg.Respond(100, "Trying", nil)

	in := telephony.Inbound{
		ProviderCallID: callID,
		Call:           c,
		Answer:         c.answer,
		Reject:         c.reject,
		Play:           c.play,
	}
	if f := req.From(); f != nil {
		in.From = f.Address.User
	}
	if to := req.To(); to != nil {
		in.To = to.Address.User
	}
	go handle(sdlg.Context(), in)

	// The INVITE transaction lives as long as this handler: wait for the
	// answer, a rejection, the caller's CANCEL or the ring timeout.
	timer := time.NewTimer(p.cfg.RingTimeout)
	defer timer.Stop()
	select {
	case <-c.final:
		return
	case <-sdlg.Context().Done():
	case <-timer.C:
	case <-p.ctx.Done():
	}
	_ = c.reject(context.Background(), 480, "Temporarily Unavailable")
}

func (c *inCall) digit(d string, at time.Time) {
	c.post(telephony.Progress{Kind: telephony.Digit, At: at, Digit: d, Reason: "rfc2833"})
}

// answer sends 200 with our SDP answer (the first G.711 codec of the
// offer, telephone-event when offered) and starts the call's goroutine.
func (c *inCall) answer(ctx context.Context, record bool, report telephony.Report) error {
	p := c.p
	c.mu.Lock()
	if c.state != stateSetup {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	select {
	case <-c.final:
		c.mu.Unlock()
		return telephony.ErrCallOver
	default:
	}
	sessID := int64(rand.Uint32())
	version := sessID
	pt, dtmf := c.offer.audioPT(), c.offer.DTMFPT
	port := c.media.port()
	c.localSDP = func(direction string) []byte {
		version++
		return buildSDP(p.addr.IP, port, sessID, version, []int{pt}, dtmf, direction)
	}
	c.report, c.record = report, record
	c.media.setRemote(c.offer)
	if record {
		c.media.recording.Store(true)
	}
	c.dlg = c.sdlg
	if cont := c.sdlg.InviteRequest.Contact(); cont != nil {
		c.remoteTarget = cont.Address
	}
	c.state = stateAnswered
	body := c.localSDP("sendrecv")
	c.mu.Unlock()

	err := c.sdlg.RespondSDP(body)
	close(c.final)
	p.calls.Add(1)
	go func() {
		defer p.calls.Done()
		c.loop()
	}()
	if err != nil {
		c.end(telephony.Progress{At: p.now(), Outcome: telephony.Failed, Reason: "answer_failed"})
		return fmt.Errorf("sip: answer: %w", err)
	}
	return nil
}

// reject answers the INVITE with code; no reports follow.
func (c *inCall) reject(ctx context.Context, code int, reason string) error {
	c.mu.Lock()
	if c.state != stateSetup {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	c.state = stateEnded
	c.mu.Unlock()
	if code < 300 || code > 699 {
		code = 603
	}
	if reason == "" {
		reason = "Rejected"
	}
	err := c.sdlg.Respond(code, reason, nil)
	close(c.final)
	c.p.unregister(c.callID, c.session)
	c.media.close()
	if err != nil && !errors.Is(err, sip.ErrTransactionCanceled) {
		return fmt.Errorf("sip: reject: %w", err)
	}
	return nil
}

func (c *inCall) play(ctx context.Context, pcm []int16) error {
	if err := c.answeredDialog(); err != nil {
		return err
	}
	return c.media.play(ctx, pcm)
}

// Hangup BYEs an answered call; before the answer it rejects the call
// with 480 (no reports: Answer was never called).
func (c *inCall) Hangup(ctx context.Context) error {
	c.mu.Lock()
	st := c.state
	c.mu.Unlock()
	if st == stateSetup {
		return c.reject(ctx, 480, "Temporarily Unavailable")
	}
	return c.hangupAnswered(ctx)
}
