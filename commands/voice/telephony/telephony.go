// Package telephony is the voice service's provider interface: what an
// adapter to a telephone network (a SIP trunk, a Twilio-compatible REST
// API) does for the voice context. An adapter places calls and reports
// their progress as it happens, controls live calls (hang up, transfer),
// sends SMS, answers inbound calls when it can, and pings its far end for
// health. It records nothing: the voice service turns every report into an
// event.
package telephony

import (
	"context"
	"errors"
	"time"
)

// Kind is what a progress report says happened.
type Kind string

// Progress kinds, in the order a call moves through them.
const (
	// Dialing: the request left (SIP: INVITE sent and 100 Trying or the
	// first provisional response; REST: the provider accepted the call).
	Dialing Kind = "dialing"
	// Ringing: the callee's phone rings (SIP 180, or 183 with early media).
	Ringing Kind = "ringing"
	// Answered: the callee picked up (SIP 200 to the INVITE, ACK sent).
	Answered Kind = "answered"
	// Held and Resumed: the far end was put on hold and taken off it (a
	// warm transfer holds the caller while it consults the target).
	Held    Kind = "held"
	Resumed Kind = "resumed"
	// Transferred: the far end was handed to another number (cold: REFER
	// accepted; warm: after the target answered the consultation).
	Transferred Kind = "transferred"
	// Digit: a DTMF digit arrived (RFC 2833 telephone-event).
	Digit Kind = "digit"
	// Ended: the call is over; Outcome says how. It is the last report of
	// a call and is always sent exactly once.
	Ended Kind = "ended"
)

// Outcome is how a call ended; the names are Twilio's terminal call
// statuses.
type Outcome string

// Outcomes.
const (
	Completed Outcome = "completed" // answered, then hung up by either side
	Busy      Outcome = "busy"      // SIP 486, 600
	NoAnswer  Outcome = "no-answer" // ring timeout (CANCEL sent), SIP 408, 480
	Canceled  Outcome = "canceled"  // hung up by us before the answer
	Failed    Outcome = "failed"    // any other final response, or no response at all
)

// Progress is one report about a call.
type Progress struct {
	Kind Kind
	// At is when the adapter saw it happen (the SIP message's arrival).
	At time.Time
	// SIPCode is the SIP status code that caused the report (180, 200,
	// 486...), 0 when none did (a BYE, a local timeout). REST adapters
	// report the provider's SIP code when it gives one.
	SIPCode int
	// Reason says why, in snake_case: "remote_hangup", "local_hangup",
	// "ring_timeout", "caller_cancel", "sip_4xx" style codes, or the
	// provider's reason.
	Reason string
	// Outcome is set on Ended.
	Outcome Outcome
	// Digit is the DTMF digit of a Digit report ("0"-"9", "*", "#", "A"-"D").
	Digit string
	// Target is the number of a Transferred report.
	Target string
	// Recording is the audio received from the far end, set on Ended when
	// the call asked for it and was answered.
	Recording *Recording
	// ProviderCallID is the adapter's id of the call (SIP Call-ID, the
	// REST provider's call sid), set on the first report.
	ProviderCallID string
}

// Recording is audio received over RTP, decoded from G.711 to 16-bit
// linear PCM in a WAV file.
type Recording struct {
	WAV        []byte
	SampleRate int    // 8000 for G.711
	Samples    int    // decoded samples; Duration is Samples / SampleRate
	Codec      string // "PCMU" or "PCMA"
}

// Duration is the recording's length computed from its samples.
func (r *Recording) Duration() time.Duration {
	if r == nil || r.SampleRate == 0 {
		return 0
	}
	return time.Duration(r.Samples) * time.Second / time.Duration(r.SampleRate)
}

// Report receives a call's progress. The adapter calls it from one
// goroutine per call, in order, and waits for it to return before the next
// report of that call (the voice service appends the event inside it).
type Report func(Progress)

// CallRequest is an outbound call to place.
type CallRequest struct {
	// CallID is the voice service's id of the call; adapters carry it to
	// the far end where they can (a SIP X-Strata-Call-ID header).
	CallID string
	// From and To are E.164 numbers.
	From, To string
	// Record asks for the far end's audio.
	Record bool
	// RingTimeout is how long to let it ring before giving up with
	// NoAnswer; 0 means DefaultRingTimeout.
	RingTimeout time.Duration
}

// DefaultRingTimeout is how long an unanswered call rings.
const DefaultRingTimeout = 30 * time.Second

// Call is a call an adapter placed or answered.
type Call interface {
	// Hangup ends the call: BYE when answered, CANCEL while it rings. The
	// Ended report follows (Completed, or Canceled before the answer).
	Hangup(ctx context.Context) error
	// Transfer hands the far end to target (E.164). Cold: at once (SIP
	// REFER). Warm: the far end is held, target is called and consulted,
	// and the far end is handed over only when target answers; if target
	// does not, the far end is resumed and Transfer returns ErrTransfer.
	Transfer(ctx context.Context, target string, warm bool) error
}

// SMSRequest is a text message to send.
type SMSRequest struct {
	MessageID string // the voice service's id of the message
	From, To  string // E.164
	Body      string
	MediaURLs []string
}

// SMSResult is the provider's answer to a send.
type SMSResult struct {
	// ProviderID is the provider's id of the message.
	ProviderID string
	// Status is what the provider confirmed: "sent" (accepted by the
	// network: SIP MESSAGE 2xx), "queued" (a REST provider's first state)
	// or "delivered" when it already knows.
	Status string
}

// Inbound is a call arriving at one of our numbers.
type Inbound struct {
	ProviderCallID string
	From, To       string // E.164 as the far end sent them
	// Call controls the call; Answer must be called first.
	Call Call
	// Answer picks up; progress (digits, the end) goes to report.
	Answer func(ctx context.Context, record bool, report Report) error
	// Reject refuses the call with a SIP status (486 busy, 603 decline...).
	Reject func(ctx context.Context, sipCode int, reason string) error
	// Play sends audio (8 kHz 16-bit mono PCM) to the caller and returns
	// when it has been sent.
	Play func(ctx context.Context, pcm []int16) error
}

// Provider is a telephone network adapter.
type Provider interface {
	// Name is the adapter's name ("sip", "twilio").
	Name() string
	// Dial places an outbound call and returns once the request left;
	// progress arrives at report until Ended.
	Dial(ctx context.Context, req CallRequest, report Report) (Call, error)
	// SendSMS sends a message and returns the provider's answer.
	SendSMS(ctx context.Context, req SMSRequest) (SMSResult, error)
	// Ping checks the far end is there (SIP OPTIONS to the trunk, a REST
	// provider's account read); an error means unhealthy.
	Ping(ctx context.Context) error
}

// MediaSender is a provider that sends SMSRequest.MediaURLs (MMS); a
// provider that is not one sends text only.
type MediaSender interface {
	SendsMedia() bool
}

// Receiver is a provider that can take inbound calls: handle is called
// once per arriving call, on its own goroutine.
type Receiver interface {
	Receive(handle func(ctx context.Context, in Inbound))
}

// InboundSMS is a text message arriving at one of our numbers.
type InboundSMS struct {
	// ProviderID is the provider's id of the message, unique per message
	// (SIP: "<Call-ID>/<CSeq number>", since a sender may send several
	// messages under one Call-ID). Retransmissions of one request are
	// absorbed by the adapter; a sender that sends the message again as a
	// new request (after a refusal or a lost answer) may give it a new id.
	ProviderID string
	// From and To are the numbers as the far end sent them (E.164 from a
	// trunk that sends E.164; SIP: the user parts of the From and To URIs).
	From, To string
	// Body is the text, UTF-8.
	Body string
}

// SMSReceiver is a provider that can take inbound SMS. handle is called
// once per arriving message, on a goroutine of its own, with a context
// that ends when the provider must answer the network (SIP: 10 s) or
// closes. The provider accepts the message (SIP: 200 OK) only once handle
// returns nil; an error refuses it (SIP: 500), and the network may try
// again later. Without a handler messages are refused (SIP: 480).
type SMSReceiver interface {
	ReceiveSMS(handle func(ctx context.Context, m InboundSMS) error)
}

// Errors adapters return.
var (
	// ErrTransfer: the transfer target did not answer or refused.
	ErrTransfer = errors.New("telephony: transfer failed")
	// ErrCallOver: the call already ended.
	ErrCallOver = errors.New("telephony: call is over")
	// ErrRejected: the provider refused the request (bad number, no route).
	ErrRejected = errors.New("telephony: request rejected by the provider")
)
