package voice

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/domain/voice/sms"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// SMSInput is a message to send.
type SMSInput struct {
	From, To, Body string
	MediaURLs      []string
	CallbackURL    string
}

// SentMessage is what a send answers.
type SentMessage struct {
	ID       string
	Status   string
	Segments sms.Result
}

// SendSMS sends a message for a: checks (input, do-not-call, the provider,
// the sender number) first; the message is requested (its first status
// callback enqueued with it), handed to the provider, and the provider's
// answer recorded as its next status before SendSMS returns.
func (s *Service) SendSMS(ctx context.Context, a Actor, in SMSInput) (SentMessage, error) {
	if err := a.check(); err != nil {
		return SentMessage{}, err
	}
	if err := voice.CheckE164("from_number", in.From); err != nil {
		return SentMessage{}, err
	}
	if err := voice.CheckE164("to_number", in.To); err != nil {
		return SentMessage{}, err
	}
	if err := voice.CheckText("body", in.Body, 1, voice.MaxBody); err != nil {
		return SentMessage{}, err
	}
	if len(in.MediaURLs) > voice.MaxMedia {
		return SentMessage{}, kernel.Invalid("media_urls", "max_items:"+strconv.Itoa(voice.MaxMedia), "media_urls may hold at most "+strconv.Itoa(voice.MaxMedia)+" URLs")
	}
	for i, u := range in.MediaURLs {
		if err := voice.CheckCallbackURL("media_urls["+strconv.Itoa(i)+"]", u); err != nil || u == "" {
			return SentMessage{}, kernel.Invalid("media_urls["+strconv.Itoa(i)+"]", "url", "each media URL must be an absolute http or https URL")
		}
	}
	if err := voice.CheckCallbackURL("status_callback_url", in.CallbackURL); err != nil {
		return SentMessage{}, err
	}
	party := s.Party(a.Tenant, in.To)
	key, err := s.compliance(ctx, a.Tenant, party, in.To, "to_number", false)
	if err != nil {
		return SentMessage{}, err
	}
	if err := s.telephony(); err != nil {
		return SentMessage{}, err
	}
	if ms, ok := s.cfg.Provider.(telephony.MediaSender); len(in.MediaURLs) > 0 && (!ok || !ms.SendsMedia()) {
		return SentMessage{}, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "media_urls", Rule: "provider_sends_text_only",
			Message: "the configured provider (" + s.cfg.Provider.Name() + ") sends text only: media_urls need a provider that sends MMS"}
	}
	line, err := s.line(ctx, a.Tenant, in.From)
	if err != nil {
		return SentMessage{}, err
	}
	if err := s.ensureKey(ctx, key, a.Tenant); err != nil {
		return SentMessage{}, err
	}
	seg := sms.Count(in.Body)
	id := NewID()
	ev := &voice.MessageRequested{MessageID: id, Tenant: a.Tenant, Direction: voice.Outbound, Line: line.Phone, Party: party,
		Segments: seg.Segments, Encoding: seg.Encoding, Characters: seg.Characters, MediaCount: len(in.MediaURLs),
		CallbackURL: in.CallbackURL, Provider: s.cfg.Provider.Name(), RequestedBy: a.User, At: s.Now(),
		Text: &voice.MessageText{Number: in.To, Body: in.Body}}
	if err := s.seal(ctx, key, []kernel.Event{ev}); err != nil {
		return SentMessage{}, err
	}
	if _, err := s.messageDecide(ctx, id, func(*voice.Message) ([]kernel.Event, error) { return []kernel.Event{ev}, nil }); err != nil {
		return SentMessage{}, err
	}
	res, perr := s.cfg.Provider.SendSMS(ctx, telephony.SMSRequest{MessageID: id, From: line.Phone, To: in.To, Body: in.Body, MediaURLs: in.MediaURLs})
	status, code, reason := res.Status, "", ""
	switch {
	case perr != nil && errors.Is(perr, telephony.ErrRejected):
		status, code, reason = voice.MsgFailed, "rejected", perr.Error()
	case perr != nil:
		s.cfg.Breaker.Failure(perr)
		status, code, reason = voice.MsgFailed, "provider_error", perr.Error()
	default:
		s.cfg.Breaker.Success()
		if status == "" {
			status = voice.MsgSent
		}
	}
	out := SentMessage{ID: id, Status: voice.MsgQueued, Segments: seg}
	app, err := s.messageDecide(ctx, id, func(m *voice.Message) ([]kernel.Event, error) {
		if status == voice.MsgQueued {
			return nil, nil
		}
		return m.MoveMessage(status, res.ProviderID, code, reason, s.Now())
	})
	if err != nil {
		return out, err
	}
	if status != voice.MsgQueued {
		out.Status = status
	}
	if s.cfg.Inline == nil { // else the message's row committed with its events
		s.settleAfterEffect(ctx, app)
	}
	return out, nil
}

// messageDecide runs decide on message id's caught-up fold and appends its
// events with the status callbacks they cause, in one transaction.
func (s *Service) messageDecide(ctx context.Context, id string, decide func(m *voice.Message) ([]kernel.Event, error)) (eventstore.Appended, error) {
	var app eventstore.Appended
	err := s.messages.Locked(id, func(e *folds.Entry[voice.Message]) (err error) {
		app, err = s.messages.DecideThen(ctx, eventstore.Stream{Type: voice.StreamMessage, ID: id}, e, false, decide,
			func(tx *stdsql.Tx, evs []kernel.Event, _ eventstore.Appended) error {
				url := e.State.CallbackURL
				if r, ok := evs[0].(*voice.MessageRequested); ok {
					url = r.CallbackURL
				}
				if err := s.enqueueCallbacks(ctx, tx, voice.StreamMessage, id, url, e.State.Callbacks, seqsOf(evs)); err != nil {
					return err
				}
				if s.cfg.Inline != nil {
					return s.cfg.Inline(ctx, tx, evs)
				}
				return nil
			})
		return err
	})
	return app, err
}

// MessageStatus records a status the provider reported later (a delivery
// report) for the message with the provider's id.
func (s *Service) MessageStatus(ctx context.Context, id, status, code, reason string) error {
	_, err := s.messageDecide(ctx, id, func(m *voice.Message) ([]kernel.Event, error) {
		if m.ID == "" {
			return nil, kernel.NotFound("message not found")
		}
		return m.MoveMessage(status, "", code, reason, s.Now())
	})
	return err
}

// Receive records an inbound message to one of the tenant's numbers; a
// STOP-type keyword puts the sender on the do-not-call list, a START-type
// one takes them off (CTIA keywords, voice.Keyword).
func (s *Service) Receive(ctx context.Context, to, from, body, providerID string) (string, error) {
	if err := voice.CheckE164("from", from); err != nil {
		return "", err
	}
	var n voice.Number
	if err := s.numberLocked(ctx, NumberID(to), func(e *folds.Entry[voice.Number]) error { n = e.State; return nil }); err != nil {
		return "", err
	}
	if n.Tenant == "" {
		return "", kernel.NotFound("no organization holds " + to)
	}
	tenant := n.Tenant
	party := s.Party(tenant, from)
	var key string
	if err := s.tenant(ctx, tenant, func(e *folds.Entry[voice.Tenant]) error { key = e.State.Key(tenant, party); return nil }); err != nil {
		return "", err
	}
	if err := s.ensureKey(ctx, key, tenant); err != nil {
		return "", err
	}
	seg := sms.Count(body)
	id := NewID()
	ev := &voice.MessageRequested{MessageID: id, Tenant: tenant, Direction: voice.Inbound, Line: n.Phone, Party: party,
		Segments: seg.Segments, Encoding: seg.Encoding, Characters: seg.Characters, Provider: providerName(s), At: s.Now(),
		Text: &voice.MessageText{Number: from, Body: body}}
	if err := s.seal(ctx, key, []kernel.Event{ev}); err != nil {
		return "", err
	}
	if _, err := s.messageDecide(ctx, id, func(*voice.Message) ([]kernel.Event, error) { return []kernel.Event{ev}, nil }); err != nil {
		return "", err
	}
	switch voice.Keyword(body) {
	case voice.SourceStop:
		return id, s.dncDo(ctx, tenant, func(t *voice.Tenant) ([]kernel.Event, error) {
			evs, err := t.AddDNC(tenant, party, from, voice.SourceStop, "texted "+strings.ToUpper(strings.TrimSpace(body)), "", s.Now())
			if err != nil || len(evs) == 0 {
				return evs, err
			}
			return evs, s.seal(ctx, key, evs)
		})
	case voice.SourceStart:
		return id, s.dncDo(ctx, tenant, func(t *voice.Tenant) ([]kernel.Event, error) {
			return t.RemoveDNC(tenant, party, voice.SourceStart, "", s.Now()), nil
		})
	}
	return id, nil
}

func providerName(s *Service) string {
	if s.cfg.Provider == nil {
		return ""
	}
	return s.cfg.Provider.Name()
}

// ProviderMessageStatus records a delivery report the provider sent for
// its message providerID (a Twilio status callback): the message is found
// by the provider's id in the read model, waiting up to two seconds for a
// send that is still being recorded.
func (s *Service) ProviderMessageStatus(ctx context.Context, providerID, status, code string) error {
	var id string
	for wait := 20 * time.Millisecond; ; wait *= 2 {
		err := s.store.DB().QueryRowContext(ctx, `SELECT message_id FROM rm_voice_v1.messages WHERE provider_id = $1`, providerID).Scan(&id)
		if err == nil {
			break
		}
		if !errors.Is(err, stdsql.ErrNoRows) {
			return err
		}
		if wait > time.Second {
			return kernel.NotFound("no message with provider id " + providerID)
		}
		time.Sleep(wait)
	}
	if status == voice.MsgQueued || status == "accepted" || status == "scheduled" {
		return nil
	}
	return s.MessageStatus(ctx, id, status, code, "")
}
