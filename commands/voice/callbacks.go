package voice

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
)

// Deliverer posts a callback body to a URL with headers and returns the
// receiver's status code; an error wrapping ErrRefusedURL means the URL
// may never be reached (a private address) and is not retried.
type Deliverer func(ctx context.Context, url string, body []byte, header http.Header) (int, error)

// ErrRefusedURL marks a callback URL the outbound client refuses.
var ErrRefusedURL = errors.New("voice: callback URL refused")

// MaxCallbackAttempts is how many times one status callback is tried.
const MaxCallbackAttempts = 8

// callbackBackoff is the wait after a failed attempt: 1 s, 5 s, 30 s,
// 2 min, 10 min, 30 min, 1 h (about 1 h 45 min in all).
func callbackBackoff(attempt int) time.Duration {
	steps := []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, 2 * time.Minute,
		10 * time.Minute, 30 * time.Minute, time.Hour}
	return steps[min(max(attempt, 1), len(steps))-1]
}

// CallbackArgs is the job that delivers one status callback: the status
// move Seq of the call or message Subject (stream type Stream).
type CallbackArgs struct {
	Stream  string `json:"stream"`
	Subject string `json:"subject"`
	Seq     int    `json:"seq"`
}

// Kind implements jobs.Args.
func (CallbackArgs) Kind() string { return "voice.status_callback" }

// RegisterJobs declares the voice job kinds on the jobs service.
func (s *Service) RegisterJobs(js *jobs.Service) error {
	if err := jobs.Handle(js, s.transcribeJob, jobs.KindOptions{MaxAttempts: 3, Timeout: 5 * time.Minute}); err != nil {
		return err
	}
	return jobs.Handle(js, s.deliver, jobs.KindOptions{MaxAttempts: 1000, Timeout: 30 * time.Second, Backoff: callbackBackoff})
}

// enqueueCallbacks adds, in the append's transaction, one delivery job per
// new status move (unique per subject and sequence number). The jobs run
// in sequence order: a job whose predecessor is not settled waits.
func (s *Service) enqueueCallbacks(ctx context.Context, tx *stdsql.Tx, stream, id, url string, _ voice.Callbacks, seqs []int) error {
	if url == "" || len(seqs) == 0 || s.cfg.Jobs == nil {
		return nil
	}
	for _, seq := range seqs {
		if _, err := s.cfg.Jobs.Enqueue(ctx, tx, CallbackArgs{Stream: stream, Subject: id, Seq: seq},
			&jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
			return fmt.Errorf("enqueue callback %s #%d: %w", id, seq, err)
		}
	}
	return nil
}

// SigningSecret is tenant's secret for the Strata-Signature of its status
// callbacks ("whsec_" and 64 hex digits), derived from the master key.
func (s *Service) SigningSecret(tenant string) string {
	m := hmac.New(sha256.New, s.cfg.SecretKey)
	m.Write([]byte("voice callbacks\x00" + tenant))
	return "whsec_" + hex.EncodeToString(m.Sum(nil))
}

// subject is what a delivery needs of a call or message.
type subject struct {
	tenant, url string
	last        int // the last status move's sequence number
	callbacks   voice.Callbacks
}

func (s *Service) subjectOf(ctx context.Context, stream, id string) (subject, error) {
	var sub subject
	switch stream {
	case voice.StreamCall:
		err := s.callView(ctx, id, func(c *voice.Call) error {
			sub = subject{tenant: c.Tenant, url: c.CallbackURL, last: c.Seq, callbacks: copyCallbacks(c.Callbacks)}
			return nil
		})
		return sub, err
	case voice.StreamMessage:
		err := s.messageView(ctx, id, func(m *voice.Message) error {
			sub = subject{tenant: m.Tenant, url: m.CallbackURL, last: m.Seq, callbacks: copyCallbacks(m.Callbacks)}
			return nil
		})
		return sub, err
	}
	return sub, fmt.Errorf("voice: callback of unknown stream type %q", stream)
}

func copyCallbacks(cb voice.Callbacks) voice.Callbacks {
	out := voice.NewCallbacks()
	for k, v := range cb.Attempts {
		out.Attempts[k] = v
	}
	for k, v := range cb.Settled {
		out.Settled[k] = v
	}
	return out
}

// deliver works one callback job: status move Seq of a call or message,
// and then the moves after it that are waiting, in order, in the same job
// (their own jobs find them settled). Deliveries to one subject are
// serialised across processes by a PostgreSQL advisory lock, so a chain
// and a waiting job never post the same move twice at once or out of
// order; a job that finds the lock taken, or its predecessor unsettled,
// snoozes. Every attempt is an event; a failed attempt is retried with
// backoff until MaxCallbackAttempts.
func (s *Service) deliver(ctx context.Context, job *jobs.Job[CallbackArgs]) error {
	a := job.Args
	unlock, ok, err := s.lockSubject(ctx, a.Subject)
	if err != nil {
		return err
	}
	if !ok {
		return jobs.Snooze(200 * time.Millisecond)
	}
	defer unlock()
	for seq := a.Seq; ; seq++ {
		sub, err := s.subjectOf(ctx, a.Stream, a.Subject)
		if err != nil {
			return err
		}
		if sub.url == "" || seq > sub.last {
			return nil
		}
		if sub.callbacks.Settled[seq] != "" {
			continue
		}
		if seq > 1 && sub.callbacks.Settled[seq-1] == "" {
			if seq == a.Seq {
				return jobs.Snooze(200 * time.Millisecond)
			}
			return nil
		}
		att, err := s.attempt(ctx, CallbackArgs{Stream: a.Stream, Subject: a.Subject, Seq: seq}, sub)
		if err != nil {
			return err
		}
		if !att.Final {
			if seq == a.Seq {
				return fmt.Errorf("callback %s #%d attempt %d: %s", a.Subject, seq, att.Attempt, att.Error)
			}
			return nil // the move's own job retries it
		}
	}
}

// lockSubject takes the subject's delivery lock (a session advisory lock
// on a connection of its own); ok is false when another delivery holds it.
func (s *Service) lockSubject(ctx context.Context, subject string) (unlock func(), ok bool, err error) {
	conn, err := s.store.DB().Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	key := "voice-callbacks:" + subject
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, key).Scan(&ok); err != nil || !ok {
		conn.Close()
		return nil, false, err
	}
	return func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key)
		conn.Close()
	}, true, nil
}

// attempt posts one status move's callback and records the attempt.
func (s *Service) attempt(ctx context.Context, a CallbackArgs, sub subject) (*voice.CallbackAttempted, error) {
	body, eventID, err := s.callbackBody(ctx, a)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Strata-Event-Id", eventID)
	h.Set("Strata-Sequence", strconv.Itoa(a.Seq))
	if s.cfg.Sign != nil {
		h.Set("Strata-Signature", s.cfg.Sign(s.SigningSecret(sub.tenant), body, now))
	}
	start := time.Now()
	code, perr := s.cfg.Deliver(ctx, sub.url, body, h)
	att := &voice.CallbackAttempted{Subject: a.Subject, Seq: a.Seq, Attempt: sub.callbacks.Attempts[a.Seq] + 1, URL: sub.url,
		StatusCode: code, Delivered: perr == nil && code >= 200 && code < 300,
		Millis: int(time.Since(start) / time.Millisecond), At: s.Now()}
	switch {
	case perr != nil:
		att.Error = perr.Error()
	case !att.Delivered:
		att.Error = "receiver answered " + strconv.Itoa(code)
	}
	att.Final = att.Delivered || att.Attempt >= MaxCallbackAttempts || errors.Is(perr, ErrRefusedURL)
	if _, err := s.store.Append(ctx, eventstore.Stream{Type: a.Stream, ID: a.Subject}, eventstore.AnyVersion, att); err != nil {
		return nil, err
	}
	return att, nil
}

// CallbackPayload is the JSON body of a status callback.
type CallbackPayload struct {
	ID         string    `json:"id"`   // the event's id: the same on every retry
	Type       string    `json:"type"` // "call.status" or "message.status"
	CallID     string    `json:"call_id,omitempty"`
	MessageID  string    `json:"message_id,omitempty"`
	Sequence   int       `json:"sequence"`
	Status     string    `json:"status"`
	Direction  string    `json:"direction"`
	From       *string   `json:"from"`
	To         *string   `json:"to"`
	SIPCode    int       `json:"sip_code,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Duration   *int      `json:"duration,omitempty"`
	Segments   int       `json:"segments,omitempty"`
	ErrorCode  string    `json:"error_code,omitempty"`
	OnHold     *bool     `json:"on_hold,omitempty"`
	Timestamp  time.Time `json:"timestamp"`
	Attempt    int       `json:"-"`
	ProviderID string    `json:"provider_id,omitempty"`
}

// callbackBody builds the payload of status move a.Seq from the stream's
// events (the number opened from its sealed part; null once erased).
func (s *Service) callbackBody(ctx context.Context, a CallbackArgs) ([]byte, string, error) {
	envs, err := s.store.Load(ctx, a.Subject, eventstore.LoadOptions{})
	if err != nil {
		return nil, "", err
	}
	var p CallbackPayload
	var found bool
	var eventID string
	status := ""
	for _, env := range envs {
		seq, st, ok := stepOf(env.Event, status)
		if !ok {
			if err := s.fillParties(ctx, &p, env.Event); err != nil {
				return nil, "", err
			}
			continue
		}
		status = st
		if err := s.fillParties(ctx, &p, env.Event); err != nil {
			return nil, "", err
		}
		if seq == a.Seq {
			found, eventID = true, env.EventID
			fillStep(&p, env.Event, st)
			break
		}
	}
	if !found {
		return nil, "", jobs.Permanent(fmt.Errorf("callback %s #%d: no such status move", a.Subject, a.Seq))
	}
	p.ID, p.Sequence = eventID, a.Seq
	body, err := json.Marshal(p)
	return body, eventID, err
}

// stepOf returns the sequence number and status of a status move.
func stepOf(ev kernel.Event, status string) (int, string, bool) {
	switch e := ev.(type) {
	case *voice.CallRequested:
		return 1, voice.StatusQueued, true
	case *voice.CallDialing:
		return e.Seq, voice.StatusInitiated, true
	case *voice.CallRinging:
		return e.Seq, voice.StatusRinging, true
	case *voice.CallAnswered:
		return e.Seq, voice.StatusInProgress, true
	case *voice.CallHeld:
		return e.Seq, status, true
	case *voice.CallResumed:
		return e.Seq, status, true
	case *voice.CallTransferred:
		return e.Seq, status, true
	case *voice.CallEnded:
		return e.Seq, e.Status, true
	case *voice.MessageRequested:
		if e.Direction == voice.Inbound {
			return 1, voice.MsgReceived, true
		}
		return 1, voice.MsgQueued, true
	case *voice.MessageStatusChanged:
		return e.Seq, e.Status, true
	}
	return 0, "", false
}

func (s *Service) fillParties(ctx context.Context, p *CallbackPayload, ev kernel.Event) error {
	switch e := ev.(type) {
	case *voice.CallRequested:
		if err := s.Open(ctx, e); err != nil {
			return err
		}
		p.Type, p.CallID, p.Direction = "call.status", e.CallID, e.Direction
		line := e.Line
		var remote *string
		if e.Remote != nil {
			remote = &e.Remote.Number
		}
		p.From, p.To = &line, remote
		if e.Direction == voice.Inbound {
			p.From, p.To = remote, &line
		}
	case *voice.MessageRequested:
		if err := s.Open(ctx, e); err != nil {
			return err
		}
		p.Type, p.MessageID, p.Direction, p.Segments = "message.status", e.MessageID, e.Direction, e.Segments
		line := e.Line
		var remote *string
		if e.Text != nil {
			remote = &e.Text.Number
		}
		p.From, p.To = &line, remote
		if e.Direction == voice.Inbound {
			p.From, p.To = remote, &line
		}
	}
	return nil
}

func fillStep(p *CallbackPayload, ev kernel.Event, status string) {
	p.Status = status
	switch e := ev.(type) {
	case *voice.CallRequested:
		p.Timestamp = e.At
	case *voice.CallDialing:
		p.Timestamp, p.SIPCode, p.Reason, p.ProviderID = e.At, e.SIPCode, e.Reason, e.ProviderCallID
	case *voice.CallRinging:
		p.Timestamp, p.SIPCode, p.Reason = e.At, e.SIPCode, e.Reason
	case *voice.CallAnswered:
		p.Timestamp, p.SIPCode, p.Reason = e.At, e.SIPCode, e.Reason
	case *voice.CallHeld:
		t := true
		p.Timestamp, p.Reason, p.OnHold = e.At, "held", &t
	case *voice.CallResumed:
		f := false
		p.Timestamp, p.Reason, p.OnHold = e.At, "resumed", &f
	case *voice.CallTransferred:
		p.Timestamp, p.Reason = e.At, "transferred_"+e.TransferType
	case *voice.CallEnded:
		d := e.Duration
		p.Timestamp, p.SIPCode, p.Reason, p.Duration = e.At, e.SIPCode, e.Reason, &d
	case *voice.MessageRequested:
		p.Timestamp = e.At
	case *voice.MessageStatusChanged:
		p.Timestamp, p.ErrorCode, p.Reason, p.ProviderID = e.At, e.ErrorCode, e.Reason, e.ProviderID
	}
}
