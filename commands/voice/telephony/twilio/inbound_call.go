package twilio

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
)

// Inbound calls. Twilio's voice protocol is request and response: it posts
// the number's voice webhook (VoiceHandler at Config.VoiceURL) when a call
// arrives and executes the TwiML it gets back. The telephony.Inbound a
// handler drives is synchronous, so the adapter bridges the two:
//
//   - The first webhook of a CallSid creates the Inbound and runs the
//     Receive handler on its own goroutine, then holds the response until
//     the handler has said what to do: Reject answers <Reject
//     reason="busy"/> (SIP 486 and 600) or <Reject reason="rejected"/>;
//     after Answer, the verbs the handler queues (Play: <Play> of a WAV
//     rendered from the PCM, served by AudioHandler at an unguessable URL)
//     go out once it has been quiet for Config.Settle. A handler that
//     neither answers nor rejects within Config.AnswerWait is rejected.
//   - Unless the call is being let go (Hangup: <Hangup/>; Transfer:
//     <Dial>), the verbs are nested in <Gather input="dtmf" numDigits="1"
//     finishOnKey=""> whose action is the voice URL with strata_call=<a
//     random token>, followed by a <Redirect> to the same URL: a key makes
//     Twilio post Digits there, which reaches the handler's Report as a
//     Digit, and silence for Config.GatherTimeout makes Twilio post it
//     without Digits, so verbs the handler queues meanwhile go out within
//     that time. Play returns once its TwiML went out and the audio's
//     length has passed.
//   - The end: the <Hangup/> we returned (Ended at once, local_hangup), or
//     Twilio's status callback for the call (set the numbers' "call status
//     changes" URL to Config.StatusCallbackURL: completed, busy,
//     no-answer, failed, canceled), or no webhook for Config.InboundIdle
//     past what was last sent (Ended, webhooks_stopped). When the handler
//     asks for a recording, the adapter starts one through the REST API
//     (POST .../Calls/{sid}/Recordings.json) once the call is answered, and
//     Ended carries it as for outbound calls.
//
// The state of a call lives in the memory of the process that took its
// first webhook, for as long as the call goes on; its later webhooks and
// audio fetches must reach the same process (one voice process, or a load
// balancer that keeps Twilio's requests for a CallSid on one process). An
// action for a call this process does not hold is 404, and Twilio then
// ends the call with its application-error message.

// maxHold is how long a webhook is held at most: Twilio gives up on a
// voice webhook after 15 s.
const maxHold = 12 * time.Second

var _ telephony.Receiver = (*Provider)(nil)

// Receive implements telephony.Receiver: calls arriving at VoiceHandler go
// to handle, one goroutine per call.
func (p *Provider) Receive(handle func(ctx context.Context, in telephony.Inbound)) {
	p.mu.Lock()
	p.onCall = handle
	p.mu.Unlock()
}

type inState int

const (
	inRinging  inState = iota // neither answered nor rejected yet
	inAnswered                // answered: webhooks carry its verbs
	inOver                    // no more webhooks taken for it
)

// verb is TwiML waiting for a webhook to carry it.
type verb struct {
	xml   string
	final bool          // the call leaves our hands: no <Gather> after it
	audio time.Duration // a Play's length
	after func()        // run once it went out
	sent  chan struct{} // closed when it went out (ok) or was dropped
	ok    bool
}

// inCall is a call that arrived at VoiceHandler.
type inCall struct {
	p      *Provider
	sid    string
	token  string
	to     string // our number
	ctx    context.Context
	cancel context.CancelFunc
	serve  sync.Mutex    // one webhook answers at a time
	wake   chan struct{} // something changed: a verb, the answer, the handler returned

	mu         sync.Mutex
	state      inState
	closing    bool // a final verb is queued
	verbs      []*verb
	lastVerb   time.Time
	answeredAt time.Time
	done       bool  // the handler returned
	rc         *call // reports, from Answer on
	record     bool
	recStarted bool
	idle       *time.Timer
}

var _ telephony.Call = (*inCall)(nil)

// VoiceHandler serves Config.VoiceURL, the numbers' voice webhook and the
// Gather actions; see the comment above for the protocol. A request
// without a valid X-Twilio-Signature is 403, one without a CallSid 400, an
// action (strata_call set) for a call this process does not hold, or with
// another CallSid than the call's, 404. Bodies are limited to 64 KiB.
func (p *Provider) VoiceHandler() http.Handler {
	return http.HandlerFunc(p.serveVoice)
}

func (p *Provider) serveVoice(w http.ResponseWriter, r *http.Request) {
	if !p.webhook(w, r, p.cfg.VoiceURL, "voice webhook") {
		return
	}
	f := r.PostForm
	sid := f.Get("CallSid")
	if sid == "" {
		http.Error(w, "no CallSid", http.StatusBadRequest)
		return
	}
	tok := r.URL.Query().Get("strata_call")
	p.mu.Lock()
	var c *inCall
	if tok != "" {
		if c = p.inTok[tok]; c != nil && c.sid != sid {
			c = nil
		}
	} else {
		c = p.inSid[sid] // the same call posted again
	}
	handle := p.onCall
	p.mu.Unlock()
	switch {
	case tok != "" && c == nil:
		http.Error(w, "unknown call", http.StatusNotFound)
		return
	case c == nil:
		if handle == nil || !strings.HasPrefix(f.Get("Direction"), "inbound") && f.Get("Direction") != "" {
			writeTwiML(w, `<Reject reason="rejected"/>`)
			return
		}
		c = p.newInCall(sid, f.Get("From"), f.Get("To"), handle)
		c.reply(w, r, p.cfg.ReplyWait)
		return
	}
	wait := time.Duration(0)
	if d := f.Get("Digits"); d != "" {
		c.digits(d)
		wait = p.cfg.ReplyWait
	}
	c.reply(w, r, wait)
}

func writeTwiML(w http.ResponseWriter, verbs string) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Response>` + verbs + `</Response>`))
}

func (p *Provider) newInCall(sid, from, to string, handle func(context.Context, telephony.Inbound)) *inCall {
	ctx, cancel := context.WithCancel(context.Background())
	c := &inCall{p: p, sid: sid, token: newToken(), to: to, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1)}
	c.mu.Lock()
	c.idle = time.AfterFunc(p.cfg.InboundIdle+maxHold, c.expire)
	c.mu.Unlock()
	p.mu.Lock()
	p.inTok[c.token], p.inSid[sid] = c, c
	p.mu.Unlock()
	in := telephony.Inbound{ProviderCallID: sid, From: from, To: to, Call: c,
		Answer: c.answer, Reject: c.reject, Play: c.play}
	go func() {
		handle(ctx, in)
		c.mu.Lock()
		c.done = true
		c.mu.Unlock()
		c.poke()
	}()
	return c
}

func (c *inCall) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// reply answers a webhook with the call's next TwiML; wait is how long to
// wait for the handler's first verb once answered.
func (c *inCall) reply(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	c.serve.Lock()
	defer c.serve.Unlock()
	start := time.Now()
	hold := time.NewTimer(maxHold)
	defer hold.Stop()
	forced := false
	for {
		c.mu.Lock()
		body, out, retry := c.next(start, wait, forced)
		c.mu.Unlock()
		if out != nil || body != "" {
			writeTwiML(w, body)
			c.sent(out)
			return
		}
		t := time.NewTimer(retry)
		select {
		case <-c.wake:
		case <-t.C:
		case <-hold.C:
			forced = true
		case <-r.Context().Done():
			t.Stop()
			return // Twilio gave up; what is queued waits for the next webhook
		}
		t.Stop()
	}
}

// next is the TwiML to answer with now and the verbs it carries, or ""
// and how long to wait before looking again; mu is held.
func (c *inCall) next(start time.Time, wait time.Duration, forced bool) (string, []*verb, time.Duration) {
	now := time.Now()
	switch {
	case c.state == inOver:
		return "<Hangup/>", nil, 0
	case c.closing:
	case c.state == inRinging:
		deadline := start.Add(c.p.cfg.AnswerWait)
		if !c.done && !forced && now.Before(deadline) {
			return "", nil, deadline.Sub(now)
		}
		c.p.log.Warn("twilio: inbound call neither answered nor rejected in time", "sid", c.sid)
		c.queue(`<Reject reason="rejected"/>`, true, 0, c.over)
	case len(c.verbs) > 0:
		if quiet := now.Sub(c.lastVerb); !c.done && !forced && quiet < c.p.cfg.Settle {
			return "", nil, c.p.cfg.Settle - quiet
		}
	default:
		from := start
		if c.answeredAt.After(from) {
			from = c.answeredAt
		}
		if deadline := from.Add(wait); !c.done && !forced && now.Before(deadline) {
			return "", nil, deadline.Sub(now)
		}
	}
	out := c.verbs
	c.verbs = nil
	var b strings.Builder
	var audio time.Duration
	if c.closing {
		for _, v := range out {
			b.WriteString(v.xml)
		}
	} else {
		action := xmlEscape(withParam(c.p.cfg.VoiceURL, "strata_call", c.token))
		fmt.Fprintf(&b, `<Gather input="dtmf" numDigits="1" timeout="%d" finishOnKey="" action="%s" method="POST">`,
			int(c.p.cfg.GatherTimeout/time.Second), action)
		for _, v := range out {
			b.WriteString(v.xml)
			audio += v.audio
		}
		b.WriteString(`</Gather><Redirect method="POST">` + action + `</Redirect>`)
		if c.idle != nil {
			c.idle.Reset(c.p.cfg.InboundIdle + audio + c.p.cfg.GatherTimeout)
		}
	}
	if out == nil {
		out = []*verb{} // an answer, even without verbs
	}
	return b.String(), out, 0
}

// sent settles the verbs a response carried: marks them sent, lets the
// call go when one was final, starts the recording after the answer.
func (c *inCall) sent(out []*verb) {
	c.mu.Lock()
	final := false
	for _, v := range out {
		v.ok = true
		close(v.sent)
		final = final || v.final
	}
	var rec *call
	if c.state == inAnswered && c.record && !c.recStarted && !final {
		c.recStarted, rec = true, c.rc
	}
	c.mu.Unlock()
	if final {
		c.detach()
	}
	for _, v := range out {
		if v.after != nil {
			v.after()
		}
	}
	if rec != nil {
		go c.startRecording(rec)
	}
}

// queue adds a verb; mu is held.
func (c *inCall) queue(xml string, final bool, audio time.Duration, after func()) *verb {
	v := &verb{xml: xml, final: final, audio: audio, after: after, sent: make(chan struct{})}
	c.verbs = append(c.verbs, v)
	c.closing = c.closing || final
	c.lastVerb = time.Now()
	c.poke()
	return v
}

// waitSent waits for v to go out: nil, or ErrCallOver when it was dropped.
func (c *inCall) waitSent(ctx context.Context, v *verb) error {
	select {
	case <-v.sent:
	case <-ctx.Done():
		select {
		case <-v.sent:
		default:
			return ctx.Err()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !v.ok {
		return telephony.ErrCallOver
	}
	return nil
}

// detach takes no more webhooks for the call and drops what is queued.
func (c *inCall) detach() {
	c.mu.Lock()
	c.state = inOver
	for _, v := range c.verbs {
		close(v.sent)
	}
	c.verbs = nil
	if c.idle != nil {
		c.idle.Stop()
	}
	c.mu.Unlock()
	c.p.mu.Lock()
	if c.p.inTok[c.token] == c {
		delete(c.p.inTok, c.token)
	}
	if c.p.inSid[c.sid] == c {
		delete(c.p.inSid, c.sid)
	}
	c.p.mu.Unlock()
	c.poke()
}

// over detaches the call and ends the handler's context.
func (c *inCall) over() {
	c.detach()
	c.cancel()
}

// expire ends a call Twilio stopped posting about.
func (c *inCall) expire() {
	c.mu.Lock()
	rc := c.rc
	c.mu.Unlock()
	if rc != nil {
		rc.endNow(telephony.Progress{Kind: telephony.Ended, At: c.p.now(), Outcome: telephony.Completed, Reason: "webhooks_stopped"})
	}
	c.over()
}

// endNow ends a call unless it already is.
func (c *call) endNow(pr telephony.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended && c.pendingEnd == nil {
		c.end(pr)
	}
}

func (c *inCall) answer(ctx context.Context, record bool, report telephony.Report) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != inRinging || c.closing {
		return telephony.ErrCallOver
	}
	p := c.p
	rc := &call{p: p, token: c.token, from: c.to, record: record, rank: rankAnswered, answered: true,
		kick: make(chan struct{}, 1), sid: c.sid}
	rc.report = func(pr telephony.Progress) {
		report(pr)
		if pr.Kind == telephony.Ended {
			c.over()
		}
	}
	if record && p.cfg.StatusCallbackURL == "" {
		p.log.Warn("twilio: no StatusCallbackURL: the inbound call is not recorded", "sid", c.sid)
		record = false
	}
	rc.recDone = !record
	p.mu.Lock()
	p.bySid[c.sid], p.byToken[c.token] = rc, rc
	p.mu.Unlock()
	go rc.run()
	c.rc, c.record = rc, record
	c.state, c.answeredAt = inAnswered, time.Now()
	c.poke()
	return nil
}

func (c *inCall) reject(ctx context.Context, sipCode int, reason string) error {
	c.mu.Lock()
	if c.state != inRinging || c.closing {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	why := "rejected"
	if sipCode == 486 || sipCode == 600 {
		why = "busy"
	}
	v := c.queue(`<Reject reason="`+why+`"/>`, true, 0, c.over)
	c.mu.Unlock()
	return c.waitSent(ctx, v)
}

func (c *inCall) play(ctx context.Context, pcm []int16) error {
	c.mu.Lock()
	ok := c.state == inAnswered && !c.closing
	c.mu.Unlock()
	if !ok {
		return telephony.ErrCallOver
	}
	u, err := c.p.putClip(pcm)
	if err != nil {
		return err
	}
	length := time.Duration(len(pcm)) * time.Second / 8000
	c.mu.Lock()
	if c.state != inAnswered || c.closing {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	v := c.queue("<Play>"+xmlEscape(u)+"</Play>", false, length, nil)
	c.mu.Unlock()
	if err := c.waitSent(ctx, v); err != nil {
		return err
	}
	// Twilio fetches and plays it now: return about when it has been heard.
	t := time.NewTimer(length)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return telephony.ErrCallOver
	}
}

// digits reports the keys of a Gather action.
func (c *inCall) digits(ds string) {
	c.mu.Lock()
	rc := c.rc
	c.mu.Unlock()
	if rc == nil {
		return
	}
	at := c.p.now()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.ended || rc.pendingEnd != nil {
		return
	}
	for _, d := range strings.ToUpper(ds) {
		if strings.ContainsRune("0123456789*#ABCD", d) {
			rc.enqueue(telephony.Progress{Kind: telephony.Digit, At: at, Digit: string(d), Reason: "gather"})
		}
	}
}

// Hangup returns <Hangup/> to Twilio's next webhook for the call (at the
// latest Config.GatherTimeout later); Ended (local_hangup) is reported when
// it went out. Before the answer it rejects the call.
func (c *inCall) Hangup(ctx context.Context) error {
	c.mu.Lock()
	if c.state == inRinging && !c.closing {
		c.mu.Unlock()
		return c.reject(ctx, 480, "Temporarily Unavailable")
	}
	if c.state != inAnswered || c.closing {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	rc := c.rc
	rc.mu.Lock()
	rc.hungUp = true
	rc.mu.Unlock()
	c.queue("<Hangup/>", true, 0, func() {
		rc.endNow(telephony.Progress{Kind: telephony.Ended, At: c.p.now(), Outcome: telephony.Completed, Reason: "local_hangup"})
	})
	c.mu.Unlock()
	return nil
}

// Transfer returns <Dial callerId="our number">target</Dial> (cold) to
// Twilio's next webhook for the call and reports Transferred once it went
// out; the call's end then comes with Twilio's status callback (or, were
// it lost, after Config.MaxCall). Warm transfers are not supported.
func (c *inCall) Transfer(ctx context.Context, target string, warm bool) error {
	if warm {
		return fmt.Errorf("%w: the twilio adapter transfers cold only", telephony.ErrTransfer)
	}
	c.mu.Lock()
	if c.state == inRinging {
		c.mu.Unlock()
		return fmt.Errorf("%w: the call is not answered", telephony.ErrTransfer)
	}
	if c.state != inAnswered || c.closing {
		c.mu.Unlock()
		return telephony.ErrCallOver
	}
	rc := c.rc
	v := c.queue(`<Dial callerId="`+xmlEscape(c.to)+`">`+xmlEscape(target)+`</Dial>`, true, 0, func() {
		rc.mu.Lock()
		if !rc.ended && rc.pendingEnd == nil {
			rc.enqueue(telephony.Progress{Kind: telephony.Transferred, At: c.p.now(), Target: target, Reason: "cold"})
		}
		rc.mu.Unlock()
		time.AfterFunc(c.p.cfg.MaxCall+time.Minute, func() {
			rc.endNow(telephony.Progress{Kind: telephony.Ended, At: c.p.now(), Outcome: telephony.Completed, Reason: "webhooks_stopped"})
		})
	})
	c.mu.Unlock()
	return c.waitSent(ctx, v)
}

// startRecording asks Twilio to record the answered call; the recording
// status callback brings it to Ended as for an outbound call. The call may
// not be in progress yet when the first TwiML just went out: three tries.
func (c *inCall) startRecording(rc *call) {
	p := c.p
	form := url.Values{
		"RecordingChannels":             {"mono"},
		"RecordingStatusCallback":       {withParam(p.cfg.StatusCallbackURL, "strata_call", c.token)},
		"RecordingStatusCallbackMethod": {http.MethodPost},
		"RecordingStatusCallbackEvent":  {"completed", "absent"},
	}
	var err error
	for try := range 3 {
		if try > 0 {
			select {
			case <-time.After(time.Second):
			case <-c.ctx.Done():
			}
		}
		if c.ctx.Err() != nil {
			break
		}
		ctx, cancel := context.WithTimeout(c.ctx, 15*time.Second)
		// Starting a recording twice fails the second time: no retries inside.
		err = p.api(ctx, http.MethodPost, p.accountPath("/Calls/"+url.PathEscape(c.sid)+"/Recordings.json"),
			form, outbound.RetryPolicy{}, nil)
		cancel()
		if err == nil {
			return
		}
	}
	p.log.Warn("twilio: the inbound call's recording did not start", "sid", c.sid, "err", err)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.recDone = true
	if rc.pendingEnd != nil {
		rc.finish(*rc.pendingEnd)
	}
}

// inboundStatus applies a status callback to an inbound call not answered
// yet (the caller hung up while it rang); false when there is none.
func (p *Provider) inboundStatus(sid, status string) bool {
	p.mu.Lock()
	c := p.inSid[sid]
	p.mu.Unlock()
	if c == nil {
		return false
	}
	if r, ok := rankOf(status); ok && r == rankEnded {
		c.over()
	}
	return true
}
