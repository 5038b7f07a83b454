package voice

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore/folds"
)

// IVRWait is how long an IVR waits for a key before it takes a voicemail.
const IVRWait = 10 * time.Second

// Inbound takes a call arriving at one of the organization's numbers (the
// provider's Receiver hands every call here). A number nobody holds is
// refused (SIP 404). Otherwise the call is recorded (ringing), then routed
// by the number's configuration: forward (answered, then handed to the
// target), queue (answered and held live in the queue), ivr (answered, a
// prompt tone played, the caller's key chooses an option of the menu) or,
// with no routing, voicemail (answered, a tone played, the caller's
// message recorded until they hang up).
func (s *Service) Inbound(ctx context.Context, in telephony.Inbound) {
	var n voice.Number
	err := s.numberLocked(ctx, NumberID(in.To), func(e *folds.Entry[voice.Number]) error { n = e.State; return nil })
	if err != nil || n.Tenant == "" || voice.CheckE164("from", in.From) != nil {
		_ = in.Reject(ctx, 404, "Not Found")
		return
	}
	tenant, party := n.Tenant, s.Party(n.Tenant, in.From)
	var key string
	if err := s.tenant(ctx, tenant, func(e *folds.Entry[voice.Tenant]) error { key = e.State.Key(tenant, party); return nil }); err != nil {
		_ = in.Reject(ctx, 503, "Service Unavailable")
		return
	}
	route := voice.Routing{Type: voice.RouteVoicemail}
	if n.Routing != nil {
		route = *n.Routing
	}
	id := NewID()
	queue := ""
	if route.Type == voice.RouteQueue {
		queue = route.TargetID
	}
	ev := &voice.CallRequested{CallID: id, Tenant: tenant, Direction: voice.Inbound, Line: n.Phone, NumberID: n.ID, Party: party,
		Record: route.Type != voice.RouteForward && route.Type != voice.RouteQueue, QueueID: queue, Provider: providerName(s),
		At: s.Now(), Remote: &voice.Remote{Number: in.From}}
	if err := s.ensureKey(ctx, key, tenant); err != nil {
		_ = in.Reject(ctx, 503, "Service Unavailable")
		return
	}
	if err := s.seal(ctx, key, []kernel.Event{ev}); err != nil {
		_ = in.Reject(ctx, 503, "Service Unavailable")
		return
	}
	if _, err := s.callDecide(ctx, id, func(*voice.Call) ([]kernel.Event, error) { return []kernel.Event{ev}, nil }); err != nil {
		s.log.Error("voice: inbound call not recorded", "err", err)
		_ = in.Reject(ctx, 503, "Service Unavailable")
		return
	}
	s.report(id, telephony.Progress{Kind: telephony.Ringing, At: s.Now(), ProviderCallID: in.ProviderCallID})
	digits := make(chan string, 16)
	s.mu.Lock()
	s.live[id], s.digits[id] = in.Call, digits
	s.mu.Unlock()
	// Answer returns once the caller's ACK arrived, but the adapter may
	// report keys or the caller's BYE before that: the answer is recorded
	// before the first of them (or right after Answer returns).
	var answered sync.Once
	markAnswered := func() {
		answered.Do(func() {
			s.report(id, telephony.Progress{Kind: telephony.Answered, At: s.Now(), SIPCode: 200, Reason: "answered"})
		})
	}
	report := func(p telephony.Progress) {
		markAnswered()
		if p.Kind == telephony.Digit {
			s.digit(id, p)
			select {
			case digits <- p.Digit:
			default:
			}
			return
		}
		s.report(id, p)
	}
	if err := in.Answer(ctx, ev.Record, report); err != nil {
		s.log.Warn("voice: inbound answer failed", "call", id, "err", err)
		s.report(id, telephony.Progress{Kind: telephony.Ended, At: s.Now(), Outcome: telephony.Failed, Reason: "answer_failed"})
		return
	}
	markAnswered()
	s.routeInbound(ctx, id, in, route, digits)
}

// routeInbound carries out the number's routing on an answered call.
func (s *Service) routeInbound(ctx context.Context, id string, in telephony.Inbound, route voice.Routing, digits <-chan string) {
	switch route.Type {
	case voice.RouteForward:
		s.routed(id, voice.RouteForward, "", route.TargetID)
		if err := in.Call.Transfer(ctx, route.TargetID, false); err != nil {
			s.log.Warn("voice: forward failed", "call", id, "err", err)
			_ = in.Call.Hangup(ctx)
		}
	case voice.RouteQueue:
		s.routed(id, voice.RouteQueue, "", route.TargetID)
	case voice.RouteIVR:
		s.routed(id, voice.RouteIVR, "", "")
		_ = in.Play(ctx, tone(440, 600*time.Millisecond))
		select {
		case d := <-digits:
			opt, ok := route.Menu[d]
			if !ok {
				opt = voice.MenuOption{Action: voice.RouteVoicemail}
			}
			s.option(ctx, id, in, opt, d)
		case <-time.After(IVRWait):
			s.option(ctx, id, in, voice.MenuOption{Action: voice.RouteVoicemail}, "")
		case <-ctx.Done():
		}
	default:
		s.routed(id, voice.RouteVoicemail, "", "")
		_ = in.Play(ctx, tone(1000, 400*time.Millisecond))
	}
}

// option carries out the IVR option the caller chose.
func (s *Service) option(ctx context.Context, id string, in telephony.Inbound, o voice.MenuOption, digit string) {
	s.routed(id, o.Action, digit, o.Target)
	switch o.Action {
	case voice.RouteForward:
		if err := in.Call.Transfer(ctx, o.Target, false); err != nil {
			_ = in.Call.Hangup(ctx)
		}
	case voice.RouteHangup:
		_ = in.Call.Hangup(ctx)
	case voice.RouteVoicemail:
		_ = in.Play(ctx, tone(1000, 400*time.Millisecond))
	}
}

// routed records where an inbound call went.
func (s *Service) routed(id, route, digit, target string) {
	_, err := s.callDecide(context.Background(), id, func(c *voice.Call) ([]kernel.Event, error) {
		if c.Over() {
			return nil, nil
		}
		ev := &voice.CallRouted{CallID: id, Route: route, Digit: digit, At: s.Now()}
		if route == voice.RouteForward {
			ev.Remote = &voice.Remote{Number: target}
		} else {
			ev.Target = target
		}
		evs := []kernel.Event{ev}
		return evs, s.seal(context.Background(), c.Key, evs)
	})
	if err != nil {
		s.log.Error("voice: route not recorded", "call", id, "err", err)
	}
}

// digit records a key the caller pressed.
func (s *Service) digit(id string, p telephony.Progress) {
	_, err := s.callDecide(context.Background(), id, func(c *voice.Call) ([]kernel.Event, error) {
		if c.Over() {
			return nil, nil
		}
		return []kernel.Event{&voice.CallDigitReceived{CallID: id, Digit: p.Digit, At: p.At.UTC().Truncate(time.Microsecond)}}, nil
	})
	if err != nil {
		s.log.Error("voice: digit not recorded", "call", id, "err", err)
	}
}

// tone is a sine tone of freq Hz for d, 8 kHz 16-bit PCM at half scale:
// the prompt an IVR or a voicemail plays (no speech synthesis is
// configured; a real prompt would be recorded audio).
func tone(freq float64, d time.Duration) []int16 {
	n := int(d.Seconds() * 8000)
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(16000 * math.Sin(2*math.Pi*freq*float64(i)/8000))
	}
	return out
}

// MoveVoicemail moves the tenant's voicemail (on call callID) to status.
func (s *Service) MoveVoicemail(ctx context.Context, a Actor, callID, voicemailID, status string) error {
	if err := s.Call(ctx, a, callID, func(*voice.Call) error { return nil }); err != nil {
		return kernel.NotFound("voicemail not found")
	}
	app, err := s.callDecide(ctx, callID, func(c *voice.Call) ([]kernel.Event, error) {
		return c.MoveVoicemail(voicemailID, status, a.User, s.Now())
	})
	if err != nil {
		return err
	}
	return s.settle(ctx, app)
}
