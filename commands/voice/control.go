package voice

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/folds"
)

// callView runs read on call id's caught-up fold.
func (s *Service) callView(ctx context.Context, id string, read func(c *voice.Call) error) error {
	if _, err := uuid.Parse(id); err != nil {
		return kernel.NotFound("call not found")
	}
	return s.calls.Locked(id, func(e *folds.Entry[voice.Call]) error {
		if err := s.calls.CatchUp(ctx, id, e); err != nil {
			return err
		}
		if !e.State.Exists() {
			return kernel.NotFound("call not found")
		}
		return read(&e.State)
	})
}

// Call runs read on the tenant's call id (another tenant's is not found).
func (s *Service) Call(ctx context.Context, a Actor, id string, read func(c *voice.Call) error) error {
	return s.callView(ctx, id, func(c *voice.Call) error {
		if c.Tenant != a.Tenant {
			return kernel.NotFound("call not found")
		}
		return read(c)
	})
}

// messageView runs read on message id's caught-up fold.
func (s *Service) messageView(ctx context.Context, id string, read func(m *voice.Message) error) error {
	if _, err := uuid.Parse(id); err != nil {
		return kernel.NotFound("message not found")
	}
	return s.messages.Locked(id, func(e *folds.Entry[voice.Message]) error {
		if err := s.messages.CatchUp(ctx, id, e); err != nil {
			return err
		}
		if e.State.ID == "" {
			return kernel.NotFound("message not found")
		}
		return read(&e.State)
	})
}

// liveCall is the provider's handle of a call this process controls.
func (s *Service) liveCall(c *voice.Call) (telephony.Call, error) {
	if c.Over() {
		return nil, voice.CallOver(c.ID, c.Status)
	}
	s.mu.Lock()
	call, here := s.live[c.ID]
	s.mu.Unlock()
	switch {
	case call != nil:
		return call, nil
	case !here && s.listening.Load():
		return remoteCall{s: s, id: c.ID}, nil // another process holds it
	}
	return nil, kernel.Conflict("call "+c.ID+" is not controlled by this server process (it was placed by another, or has not reached the provider yet); try again", nil)
}

// Hangup ends the tenant's live call: BYE when answered, CANCEL while it
// rings; the end arrives as the provider's report.
func (s *Service) Hangup(ctx context.Context, a Actor, id string) error {
	var call telephony.Call
	err := s.Call(ctx, a, id, func(c *voice.Call) (err error) {
		call, err = s.liveCall(c)
		return err
	})
	if err != nil {
		return err
	}
	if err := call.Hangup(ctx); err != nil {
		if errors.Is(err, telephony.ErrCallOver) {
			return kernel.Conflict("call "+id+" is over", nil)
		}
		if errors.Is(err, errNoHolder) {
			return kernel.Conflict(errNoHolder.Error()+"; try again", err)
		}
		return kernel.Unavailable("the provider did not take the hangup", err)
	}
	return s.waitOver(ctx, id, 5*time.Second)
}

// waitOver waits (bounded) until the call's end is recorded, so the answer
// to a hangup shows the terminal status.
func (s *Service) waitOver(ctx context.Context, id string, limit time.Duration) error {
	return s.waitCall(ctx, id, limit, (*voice.Call).Over)
}

// waitCall waits (bounded by limit) until the call's fold satisfies done:
// a move the provider reports after a command returned.
func (s *Service) waitCall(ctx context.Context, id string, limit time.Duration, done func(c *voice.Call) bool) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		var ok bool
		if err := s.callView(ctx, id, func(c *voice.Call) error { ok = done(c); return nil }); err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// Transfer types.
const (
	TransferWarm = "warm"
	TransferCold = "cold"
)

// Transfer hands the tenant's answered call to target: cold at once, warm
// after target answers a consultation (the caller is held meanwhile). A
// warm transfer target that does not answer leaves the call as it was:
// 409 naming that.
func (s *Service) Transfer(ctx context.Context, a Actor, id, target, kind string) error {
	if err := voice.CheckE164("target_number", target); err != nil {
		return err
	}
	switch kind {
	case "":
		kind = TransferCold
	case TransferWarm, TransferCold:
	default:
		return kernel.Invalid("transfer_type", "enum:warm,cold", "transfer_type must be warm or cold")
	}
	if err := s.Call(ctx, a, id, func(*voice.Call) error { return nil }); err != nil {
		return err
	}
	if err := s.telephony(); err != nil {
		return err
	}
	var call telephony.Call
	err := s.Call(ctx, a, id, func(c *voice.Call) (err error) {
		if c.Status != voice.StatusInProgress {
			return kernel.Conflict("only an answered call can be transferred (status "+c.Status+")", nil)
		}
		party := s.Party(a.Tenant, target)
		if _, err := s.compliance(ctx, a.Tenant, party, target, "target_number", false); err != nil {
			return err
		}
		call, err = s.liveCall(c)
		return err
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.transfers[id] = kind
	s.mu.Unlock()
	if err := call.Transfer(ctx, target, kind == TransferWarm); err != nil {
		if errors.Is(err, telephony.ErrTransfer) {
			// The far end is resumed: wait until that is recorded too.
			_ = s.waitCall(ctx, id, 5*time.Second, func(c *voice.Call) bool { return !c.OnHold || c.Over() })
			return kernel.Conflict("the transfer target did not take the call; the call goes on as before", err)
		}
		if errors.Is(err, telephony.ErrCallOver) {
			return kernel.Conflict("call "+id+" is over", nil)
		}
		if errors.Is(err, errNoHolder) {
			return kernel.Conflict(errNoHolder.Error()+"; try again", err)
		}
		return kernel.Unavailable("the provider did not carry out the transfer", err)
	}
	// The adapter reports the transfer as the call's next move: the answer
	// shows it once recorded.
	return s.waitCall(ctx, id, 5*time.Second, func(c *voice.Call) bool { return c.Transferred || c.Over() })
}

// transferType is the type of the transfer in flight on call id.
func (s *Service) transferType(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.transfers[id]; t != "" {
		return t
	}
	return TransferCold
}

// AddNote records a note on the tenant's call; the text is sealed under
// the call's party key.
func (s *Service) AddNote(ctx context.Context, a Actor, id, text string) (string, error) {
	noteID := NewID()
	if err := s.Call(ctx, a, id, func(*voice.Call) error { return nil }); err != nil {
		return "", err
	}
	_, err := s.callDecide(ctx, id, func(c *voice.Call) ([]kernel.Event, error) {
		evs, err := c.AddNote(noteID, a.User, text, s.Now())
		if err != nil {
			return nil, err
		}
		return evs, s.seal(ctx, c.Key, evs)
	})
	return noteID, err
}

// SetDisposition records a person's classification of the tenant's call.
func (s *Service) SetDisposition(ctx context.Context, a Actor, id, disposition string) error {
	if err := s.Call(ctx, a, id, func(*voice.Call) error { return nil }); err != nil {
		return err
	}
	_, err := s.callDecide(ctx, id, func(c *voice.Call) ([]kernel.Event, error) {
		return c.SetDisposition(disposition, a.User, s.Now())
	})
	return err
}

// storeRecording encrypts a recording's WAV under the call's party key and
// keeps it in the blob store (owner: the tenant), before the event that
// names it is appended.
func (s *Service) storeRecording(ctx context.Context, id string, rec *telephony.Recording) (*voice.CallRecordingStored, error) {
	if s.cfg.Blobs == nil {
		return nil, nil
	}
	var tenant, key string
	if err := s.callView(ctx, id, func(c *voice.Call) error { tenant, key = c.Tenant, c.Key; return nil }); err != nil {
		return nil, err
	}
	sealed, err := s.cfg.Keys.Seal(ctx, s.store.DB(), key, rec.WAV)
	if err != nil {
		return nil, err
	}
	st, err := s.cfg.Blobs.Stage(ctx, tenant, bytes.NewReader([]byte(sealed.Data)), int64(len(sealed.Data))+1)
	if err != nil {
		return nil, err
	}
	if err := st.Commit(ctx); err != nil {
		return nil, err
	}
	return &voice.CallRecordingStored{CallID: id, RecordingID: NewID(), Blob: st.SHA256, Bytes: len(rec.WAV),
		Samples: rec.Samples, SampleRate: rec.SampleRate, Codec: rec.Codec, At: s.Now()}, nil
}

// Recording returns the decrypted WAV of a recording of the tenant's call;
// not found once erased.
func (s *Service) Recording(ctx context.Context, a Actor, callID string, r voice.CallRecordingStored) ([]byte, error) {
	var key, tenant string
	if err := s.Call(ctx, a, callID, func(c *voice.Call) error { key, tenant = c.Key, c.Tenant; return nil }); err != nil {
		return nil, err
	}
	b, err := s.cfg.Blobs.Open(ctx, tenant, r.Blob)
	if err != nil {
		return nil, kernel.NotFound("recording not found")
	}
	defer b.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(b); err != nil {
		return nil, err
	}
	raw, err := s.OpenSealed(ctx, kernelSealed(key, buf.String()))
	if err != nil || raw == nil {
		return nil, kernel.NotFound("recording not found")
	}
	return raw, nil
}

func kernelSealed(key, data string) kernel.Sealed { return kernel.Sealed{Key: key, Data: data} }

// SettleCall waits until the read model has applied every event of call id
// recorded so far (the provider's reports included).
func (s *Service) SettleCall(ctx context.Context, id string) error {
	if s.cfg.Wait == nil {
		return nil
	}
	v, err := s.store.Version(ctx, id)
	if err != nil || v == 0 {
		return err
	}
	envs, err := s.store.Load(ctx, id, eventstore.LoadOptions{AfterVersion: v - 1})
	if err != nil || len(envs) == 0 {
		return err
	}
	last := envs[len(envs)-1]
	return s.cfg.Wait(ctx, eventstore.Key{TransactionID: last.TransactionID, Position: last.Position})
}
