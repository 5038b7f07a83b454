package voice

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// OutboundInput is an outbound call to place.
type OutboundInput struct {
	From        string // E.164, or the id of one of the tenant's numbers
	To          string // E.164
	Record      bool
	QueueID     string // a UUID, optional
	CallbackURL string
}

// numberNS is the namespace of number ids: a number's id is the UUID
// version 5 of its E.164 form, so importing it twice finds one stream.
var numberNS = uuid.MustParse("5b0c8f1e-7d0a-4c52-9a65-2f1d9b8e0c31")

// NumberID is the id of the inventory number phone.
func NumberID(phone string) string { return uuid.NewSHA1(numberNS, []byte("tel:"+phone)).String() }

// Dial places an outbound call for a: the checks (input, do-not-call,
// calling hours, the provider, the caller id) come first, then the call is
// requested (its first event, with its first status callback enqueued in
// the same transaction), then the provider dials in the background and
// every report it makes becomes the call's next event. It returns the
// call's id once the request is recorded.
func (s *Service) Dial(ctx context.Context, a Actor, in OutboundInput) (string, error) {
	if err := a.check(); err != nil {
		return "", err
	}
	if strings.TrimSpace(in.From) == "" {
		return "", kernel.Invalid("from_number", "required", "from_number is required")
	}
	if err := voice.CheckE164("to_number", in.To); err != nil {
		return "", err
	}
	if !strings.HasPrefix(in.From, "+") {
		if _, err := uuid.Parse(in.From); err != nil {
			return "", kernel.Invalid("from_number", "e164_or_number_id", "from_number must be an E.164 number or the id of one of the organization's numbers")
		}
	} else if err := voice.CheckE164("from_number", in.From); err != nil {
		return "", err
	}
	if in.QueueID != "" {
		if _, err := uuid.Parse(in.QueueID); err != nil {
			return "", kernel.Invalid("queue_id", "uuid", "queue_id must be a UUID")
		}
	}
	if err := voice.CheckCallbackURL("status_callback_url", in.CallbackURL); err != nil {
		return "", err
	}
	party := s.Party(a.Tenant, in.To)
	key, err := s.compliance(ctx, a.Tenant, party, in.To, "to_number", true)
	if err != nil {
		return "", err
	}
	if err := s.telephony(); err != nil {
		return "", err
	}
	line, err := s.line(ctx, a.Tenant, in.From)
	if err != nil {
		return "", err
	}
	if err := s.ensureKey(ctx, key, a.Tenant); err != nil {
		return "", err
	}
	id := NewID()
	evs, err := voice.RequestCall(voice.CallRequest{CallID: id, Tenant: a.Tenant, Line: line.Phone, NumberID: line.ID,
		Party: party, To: in.To, Record: in.Record, QueueID: in.QueueID, CallbackURL: in.CallbackURL,
		Provider: s.cfg.Provider.Name(), By: a.User, At: s.Now()})
	if err != nil {
		return "", err
	}
	if err := s.seal(ctx, key, evs); err != nil {
		return "", err
	}
	app, err := s.callDecide(ctx, id, func(*voice.Call) ([]kernel.Event, error) { return evs, nil })
	if err != nil {
		return "", err
	}
	s.wg.Add(1)
	go s.place(id, telephony.CallRequest{CallID: id, From: line.Phone, To: in.To, Record: in.Record})
	// The call is placed: a read model slow to show it is no failure of
	// the command (a client told otherwise would place it again).
	s.settleAfterEffect(ctx, app)
	return id, nil
}

// settleAfterEffect waits for the read model like settle, for commands
// that already caused an effect outside (a call placed, a message sent):
// a wait that runs out is logged, not returned.
func (s *Service) settleAfterEffect(ctx context.Context, app eventstore.Appended) {
	if err := s.settle(ctx, app); err != nil {
		s.log.Warn("voice: the read model is behind the command's events", "err", err)
	}
}

// line finds the tenant's number a call or message is made from.
func (s *Service) line(ctx context.Context, tenant, from string) (voice.Number, error) {
	id := from
	if strings.HasPrefix(from, "+") {
		id = NumberID(from)
	}
	var n voice.Number
	err := s.numberLocked(ctx, id, func(e *folds.Entry[voice.Number]) error {
		n = e.State
		return nil
	})
	if err != nil {
		return n, err
	}
	if !n.OwnedBy(tenant) {
		return n, kernel.Invalid("from_number", "owned_number", "from_number must be one of the organization's numbers (GET /api/v1/numbers)")
	}
	return n, nil
}

// place dials and keeps the live call for hangup and transfer.
func (s *Service) place(id string, req telephony.CallRequest) {
	defer s.wg.Done()
	ctx := context.Background()
	call, err := s.cfg.Provider.Dial(ctx, req, func(p telephony.Progress) { s.report(id, p) })
	if err != nil {
		if !errors.Is(err, telephony.ErrRejected) {
			s.cfg.Breaker.Failure(err)
		}
		s.log.Warn("voice: dial failed", "call", id, "err", err)
		s.report(id, telephony.Progress{Kind: telephony.Ended, At: s.Now(), Outcome: telephony.Failed, Reason: "provider_error"})
		return
	}
	s.cfg.Breaker.Success()
	s.mu.Lock()
	if _, over := s.live[id]; !over {
		s.live[id] = call
	}
	s.mu.Unlock()
}

// report records one provider report as the call's next event, retrying
// while the store refuses it (bounded by Config.ReportRetry): the report
// cannot be asked for again.
func (s *Service) report(id string, p telephony.Progress) {
	if p.Kind == telephony.Ended {
		s.mu.Lock()
		delete(s.live, id)
		s.live[id] = nil // tombstone: a Dial returning after the end keeps nothing
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.live, id)
			delete(s.digits, id)
			delete(s.transfers, id)
			s.mu.Unlock()
		}()
	}
	m := voice.Move{Kind: string(p.Kind), At: p.At.UTC().Truncate(time.Microsecond), SIPCode: p.SIPCode, Reason: p.Reason,
		Outcome: string(p.Outcome), ProviderCallID: p.ProviderCallID, Target: p.Target}
	if m.At.IsZero() {
		m.At = s.Now()
	}
	switch p.Kind {
	case telephony.Digit:
		return // inbound IVR digits are handled by the call's IVR, not recorded as status moves
	case telephony.Transferred:
		m.TransferType = s.transferType(id)
	}
	deadline := time.Now().Add(s.cfg.ReportRetry)
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		err := s.progress(context.Background(), id, m, p.Recording)
		if err == nil || kernel.KindOf(err) == kernel.KindConflict || kernel.KindOf(err) == kernel.KindInvalid || time.Now().After(deadline) {
			if err != nil {
				s.log.Error("voice: provider report not recorded", "call", id, "kind", p.Kind, "err", err)
			}
			return
		}
		time.Sleep(wait)
	}
}

// progress decides and appends a call's move; an ended move with a
// recording stores the encrypted audio first and records it with the end.
func (s *Service) progress(ctx context.Context, id string, m voice.Move, rec *telephony.Recording) error {
	var stored *voice.CallRecordingStored
	if m.Kind == voice.MoveEnded && rec != nil && rec.Samples > 0 {
		var err error
		if stored, err = s.storeRecording(ctx, id, rec); err != nil {
			return err
		}
	}
	_, err := s.callDecide(ctx, id, func(c *voice.Call) ([]kernel.Event, error) {
		evs, err := c.Progress(m)
		if err != nil || len(evs) == 0 {
			return evs, err
		}
		if err := s.seal(ctx, c.Key, evs); err != nil {
			return nil, err
		}
		if stored != nil && m.Kind == voice.MoveEnded {
			r := *stored
			evs = append(evs, &r)
			if c.Direction == voice.Inbound && c.Route == voice.RouteVoicemail {
				evs = append(evs, &voice.VoicemailLeft{CallID: c.ID, VoicemailID: NewID(), RecordingID: r.RecordingID,
					DurationMS: r.Samples * 1000 / max(r.SampleRate, 1), At: r.At})
			}
		}
		return evs, nil
	})
	return err
}

// callDecide runs decide on call id's caught-up fold and appends its
// events with the status callbacks they cause, in one transaction.
func (s *Service) callDecide(ctx context.Context, id string, decide func(c *voice.Call) ([]kernel.Event, error)) (eventstore.Appended, error) {
	var app eventstore.Appended
	err := s.calls.Locked(id, func(e *folds.Entry[voice.Call]) (err error) {
		app, err = s.calls.DecideThen(ctx, eventstore.Stream{Type: voice.StreamCall, ID: id}, e, false, decide,
			func(tx *stdsql.Tx, evs []kernel.Event, _ eventstore.Appended) error {
				if err := s.enqueueTranscripts(ctx, tx, evs); err != nil {
					return err
				}
				return s.enqueueCallbacks(ctx, tx, voice.StreamCall, id, callbackURLOf(&e.State, evs), e.State.Callbacks, seqsOf(evs))
			})
		return err
	})
	return app, err
}

// callbackURLOf is the call's callback URL, from its first event when the
// fold has not seen it yet.
func callbackURLOf(c *voice.Call, evs []kernel.Event) string {
	if c.CallbackURL != "" {
		return c.CallbackURL
	}
	for _, ev := range evs {
		if r, ok := ev.(*voice.CallRequested); ok {
			return r.CallbackURL
		}
	}
	return ""
}

// seqsOf lists the status moves' sequence numbers among evs (stepOf says
// which events are status moves).
func seqsOf(evs []kernel.Event) []int {
	var out []int
	for _, ev := range evs {
		if seq, _, ok := stepOf(ev, ""); ok {
			out = append(out, seq)
		}
	}
	return out
}
