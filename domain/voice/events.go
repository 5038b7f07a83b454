// Package voice is the voice context's domain: calls and their status
// moves, SMS with their delivery moves, contacts, the number inventory, an
// organization's do-not-call list and calling-hours guard, and erasure.
//
// Streams: one per call (its whole life, every status move numbered for the
// status callbacks), one per message, one per contact, one per number of
// the inventory, and one per tenant (its do-not-call list, its settings and
// its erasure records), so a do-not-call check decides on one fold.
//
// Personal data (a remote party's number, a contact's name and email, a
// message's body, a note) is sealed in the events under the party's own key
// (crypto-shredding): erasing a party destroys the key, and every copy of
// those values becomes unreadable. A party is named in events by a blind
// index (a keyed hash of tenant and number) that the commands compute, so
// lookups by number need no plain text.
package voice

import (
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the voice context.
const (
	StreamCall    = "voice.call"    // one call; stream id = the call's id
	StreamMessage = "voice.message" // one SMS; stream id = the message's id
	StreamContact = "voice.contact" // one contact; stream id = the contact's id
	StreamNumber  = "voice.number"  // one number of the inventory; stream id = the number's id
	StreamTenant  = "voice.tenant"  // a tenant's do-not-call list, settings, erasures; id = TenantStream(tenant)
)

// TenantStream is the stream id of tenant's voice settings and lists.
func TenantStream(tenant string) string { return "voice-tenant:" + tenant }

// PartyKey names the subject key a party's personal data is sealed under:
// generation counts the party's erasures, so data recorded after an
// erasure is sealed under a new key and never under the destroyed one.
func PartyKey(tenant, party string, generation int) string {
	return "voice:" + tenant + ":" + party + ":" + strconv.Itoa(generation)
}

// Directions of calls and messages.
const (
	Inbound  = "inbound"
	Outbound = "outbound"
)

// Remote is the sealed part naming the far end of a call or message.
type Remote struct {
	Number string `json:"number"`
}

// CallRequested opens a call's stream: an outbound call asked for by a
// user, or an inbound call that arrived. Line is the organization's own
// number (not personal data); the far end is Party, its number sealed.
type CallRequested struct {
	CallID      string        `json:"call_id"`
	Tenant      string        `json:"tenant"`
	Direction   string        `json:"direction"`
	Line        string        `json:"line"`
	NumberID    string        `json:"number_id,omitempty"`
	Party       string        `json:"party"`
	Record      bool          `json:"record"`
	QueueID     string        `json:"queue_id,omitempty"`
	AgentID     string        `json:"agent_id,omitempty"`
	CallbackURL string        `json:"callback_url,omitempty"`
	Provider    string        `json:"provider"`
	RequestedBy string        `json:"requested_by,omitempty"`
	Secret      kernel.Sealed `json:"secret"` // Remote under the party key
	At          time.Time     `json:"at"`
	Remote      *Remote       `json:"-"`
}

// Step is what every status move of a call carries: Seq numbers the
// call's status moves from 1 (the requested call's "queued" is 1), which is
// the sequence number of its status callback.
type Step struct {
	CallID  string    `json:"call_id"`
	Seq     int       `json:"seq"`
	SIPCode int       `json:"sip_code,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	At      time.Time `json:"at"`
}

// CallDialing: the request left for the network (status "initiated").
type CallDialing struct {
	Step
	ProviderCallID string `json:"provider_call_id,omitempty"`
}

// CallRinging: the far end rings (status "ringing"); an inbound call's
// first move, so it carries the provider's call id too.
type CallRinging struct {
	Step
	ProviderCallID string `json:"provider_call_id,omitempty"`
}

// CallAnswered: the far end picked up (status "in-progress").
type CallAnswered struct{ Step }

// CallHeld and CallResumed: the far end was put on hold and taken off it.
type CallHeld struct{ Step }

// CallResumed: the far end is off hold.
type CallResumed struct{ Step }

// CallTransferred: the far end was handed to another number.
type CallTransferred struct {
	Step
	TransferType string        `json:"transfer_type"`
	Secret       kernel.Sealed `json:"secret"` // Remote (the target) under the call's party key
	Target       *Remote       `json:"-"`
}

// CallEnded: the call is over; Status is its terminal status, Duration the
// seconds from the answer to the end (0 when never answered), rounded up as
// carriers bill.
type CallEnded struct {
	Step
	Status   string `json:"status"`
	Duration int    `json:"duration"`
}

// CallRecordingStored: the far end's audio, decoded to WAV, encrypted under
// the call's party key and kept in the blob store.
type CallRecordingStored struct {
	CallID      string    `json:"call_id"`
	RecordingID string    `json:"recording_id"`
	Blob        string    `json:"blob"` // the blob store key of the encrypted WAV
	Bytes       int       `json:"bytes"`
	Samples     int       `json:"samples"`
	SampleRate  int       `json:"sample_rate"`
	Codec       string    `json:"codec"`
	At          time.Time `json:"at"`
}

// NoteText is the sealed part of a note.
type NoteText struct {
	Text string `json:"text"`
}

// CallNoteAdded: a person wrote a note on a call.
type CallNoteAdded struct {
	CallID string        `json:"call_id"`
	NoteID string        `json:"note_id"`
	Author string        `json:"author"`
	Secret kernel.Sealed `json:"secret"` // NoteText under the call's party key
	At     time.Time     `json:"at"`
	Text   *NoteText     `json:"-"`
}

// CallDispositionSet: a person classified the call's outcome (separate
// from its technical status).
type CallDispositionSet struct {
	CallID      string    `json:"call_id"`
	Disposition string    `json:"disposition"`
	By          string    `json:"by"`
	At          time.Time `json:"at"`
}

// CallbackAttempted records one delivery attempt of a status callback (a
// call's or a message's): Seq is the status move it reports.
type CallbackAttempted struct {
	Subject    string    `json:"subject"` // the call's or message's id
	Seq        int       `json:"seq"`
	Attempt    int       `json:"attempt"`
	URL        string    `json:"url"`
	StatusCode int       `json:"status_code,omitempty"`
	Error      string    `json:"error,omitempty"`
	Delivered  bool      `json:"delivered"`
	Final      bool      `json:"final"` // no more attempts will follow
	Millis     int       `json:"millis"`
	At         time.Time `json:"at"`
}
