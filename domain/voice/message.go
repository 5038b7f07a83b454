package voice

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Message statuses: Twilio's names.
const (
	MsgQueued      = "queued"
	MsgSending     = "sending"
	MsgSent        = "sent"
	MsgDelivered   = "delivered"
	MsgUndelivered = "undelivered"
	MsgFailed      = "failed"
	MsgReceived    = "received"
)

// MaxBody is the longest SMS body, in characters (the seed's 1,600).
const MaxBody = 1600

// MaxMedia is how many media URLs a message may carry (Twilio's 10).
const MaxMedia = 10

// Message is one SMS folded from its stream.
type Message struct {
	ID, Tenant, Direction, Line, Party, CallbackURL, ProviderID string
	Status                                                      string
	Seq, Segments                                               int
	At                                                          time.Time
	Key                                                         string
	Callbacks                                                   Callbacks
}

// Apply folds one event into the message.
func (m *Message) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *MessageRequested:
		*m = Message{ID: e.MessageID, Tenant: e.Tenant, Direction: e.Direction, Line: e.Line, Party: e.Party,
			CallbackURL: e.CallbackURL, Status: MsgQueued, Seq: 1, Segments: e.Segments, At: e.At,
			Key: e.Secret.Key, Callbacks: NewCallbacks()}
		if e.Direction == Inbound {
			m.Status = MsgReceived
		}
	case *MessageStatusChanged:
		m.Seq, m.Status = e.Seq, e.Status
		if e.ProviderID != "" {
			m.ProviderID = e.ProviderID
		}
	case *CallbackAttempted:
		m.Callbacks.note(e)
	}
}

// messageRank orders the statuses a message moves through; a report at or
// below the current rank is stale.
func messageRank(s string) int {
	switch s {
	case MsgQueued:
		return 0
	case MsgSending:
		return 1
	case MsgSent:
		return 2
	}
	return 3 // delivered, undelivered, failed, received: final
}

// MoveMessage decides a status move reported by the provider; a stale or
// repeated one makes nothing.
func (m *Message) MoveMessage(status, providerID, code, reason string, at time.Time) ([]kernel.Event, error) {
	switch status {
	case MsgSending, MsgSent, MsgDelivered, MsgUndelivered, MsgFailed:
	default:
		return nil, kernel.Invalid("status", "message_status", "unknown message status "+status)
	}
	if messageRank(status) <= messageRank(m.Status) {
		return nil, nil
	}
	return []kernel.Event{&MessageStatusChanged{MessageID: m.ID, Seq: m.Seq + 1, Status: status, ProviderID: providerID,
		ErrorCode: code, Reason: reason, At: at}}, nil
}

// Opt-out and opt-in keywords (CTIA's, as carriers and Twilio honour
// them): a message whose whole body, trimmed and in any case, is one of
// them.
var (
	stopWords  = []string{"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"}
	startWords = []string{"START", "YES", "UNSTOP"}
)

// Keyword says whether an inbound body opts the sender out ("stop"), in
// ("start") or neither ("").
func Keyword(body string) string {
	w := strings.ToUpper(strings.TrimSpace(body))
	for _, s := range stopWords {
		if w == s {
			return SourceStop
		}
	}
	for _, s := range startWords {
		if w == s {
			return SourceStart
		}
	}
	return ""
}
