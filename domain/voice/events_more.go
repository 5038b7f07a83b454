package voice

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// MessageText is the sealed part of a message: the far end's number and
// the body.
type MessageText struct {
	Number string `json:"number"`
	Body   string `json:"body"`
}

// MessageRequested opens a message's stream: an SMS to send, or one that
// arrived. Segments and Encoding are counted from the body before it is
// sealed.
type MessageRequested struct {
	MessageID   string        `json:"message_id"`
	Tenant      string        `json:"tenant"`
	Direction   string        `json:"direction"`
	Line        string        `json:"line"`
	Party       string        `json:"party"`
	Segments    int           `json:"segments"`
	Encoding    string        `json:"encoding"`
	Characters  int           `json:"characters"`
	MediaCount  int           `json:"media_count"`
	CallbackURL string        `json:"callback_url,omitempty"`
	Provider    string        `json:"provider,omitempty"`
	RequestedBy string        `json:"requested_by,omitempty"`
	Secret      kernel.Sealed `json:"secret"` // MessageText under the party key
	At          time.Time     `json:"at"`
	Text        *MessageText  `json:"-"`
}

// MessageStatusChanged is a message's status move (Seq from 1 as for
// calls): sending, sent, delivered, undelivered, failed, received.
type MessageStatusChanged struct {
	MessageID  string    `json:"message_id"`
	Seq        int       `json:"seq"`
	Status     string    `json:"status"`
	ProviderID string    `json:"provider_id,omitempty"`
	ErrorCode  string    `json:"error_code,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	At         time.Time `json:"at"`
}

// ContactText is the sealed part of a contact.
type ContactText struct {
	Name    string `json:"name"`
	Phone   string `json:"phone"`
	Email   string `json:"email,omitempty"`
	Company string `json:"company,omitempty"`
}

// ContactCreated opens a contact's stream.
type ContactCreated struct {
	ContactID string        `json:"contact_id"`
	Tenant    string        `json:"tenant"`
	Party     string        `json:"party"`
	Tags      []string      `json:"tags"`
	CreatedBy string        `json:"created_by"`
	Secret    kernel.Sealed `json:"secret"` // ContactText under the party key
	At        time.Time     `json:"at"`
	Text      *ContactText  `json:"-"`
}

// NumberImported adds a number the provider holds for us to the inventory
// (operator's import): it is available to purchase.
type NumberImported struct {
	NumberID     string    `json:"number_id"`
	Phone        string    `json:"phone"`
	National     string    `json:"national"` // the national significant number (E.164 less the country code)
	Country      string    `json:"country"`
	NumberType   string    `json:"number_type"`
	Region       string    `json:"region,omitempty"`
	Capabilities []string  `json:"capabilities"`
	Provider     string    `json:"provider"`
	Source       string    `json:"source"` // what the import read: a file name and its SHA-256
	At           time.Time `json:"at"`
}

// NumberPurchased assigns an available number to a tenant.
type NumberPurchased struct {
	NumberID     string    `json:"number_id"`
	Tenant       string    `json:"tenant"`
	FriendlyName string    `json:"friendly_name,omitempty"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// Routing is where inbound calls to a number go.
type Routing struct {
	Type     string `json:"type"` // ivr, queue, forward, voicemail
	TargetID string `json:"target_id,omitempty"`
	// Menu is an IVR's options by DTMF key; a key not in it, or no key
	// within the wait, takes a voicemail.
	Menu map[string]MenuOption `json:"menu,omitempty"`
}

// NumberConfigured changes a purchased number's name or routing.
type NumberConfigured struct {
	NumberID     string    `json:"number_id"`
	FriendlyName string    `json:"friendly_name,omitempty"`
	Routing      *Routing  `json:"routing,omitempty"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// NumberReleased returns a tenant's number to the inventory.
type NumberReleased struct {
	NumberID string    `json:"number_id"`
	Tenant   string    `json:"tenant"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// Do-not-call sources.
const (
	SourceAPI   = "api"   // a user added or removed it
	SourceStop  = "stop"  // the party texted STOP
	SourceStart = "start" // the party texted START
)

// DNCAdded puts a party on the tenant's do-not-call list.
type DNCAdded struct {
	Tenant string        `json:"tenant"`
	Party  string        `json:"party"`
	Source string        `json:"source"`
	Reason string        `json:"reason,omitempty"`
	By     string        `json:"by,omitempty"`
	Secret kernel.Sealed `json:"secret"` // Remote under the party key
	At     time.Time     `json:"at"`
	Remote *Remote       `json:"-"`
}

// DNCRemoved takes a party off the list.
type DNCRemoved struct {
	Tenant string    `json:"tenant"`
	Party  string    `json:"party"`
	Source string    `json:"source"`
	By     string    `json:"by,omitempty"`
	At     time.Time `json:"at"`
}

// CallingHoursSet turns the tenant's calling-hours guard on or off.
type CallingHoursSet struct {
	Tenant   string    `json:"tenant"`
	Enforced bool      `json:"enforced"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// PartyErased records an erasure request carried out: the party's key was
// destroyed in the same transaction. It holds no personal data: the party
// is its blind index, and the counts say what became unreadable.
type PartyErased struct {
	Tenant     string         `json:"tenant"`
	ErasureID  string         `json:"erasure_id"`
	Party      string         `json:"party"`
	Counts     map[string]int `json:"counts"`
	Recordings []string       `json:"recordings,omitempty"` // blob keys deleted
	By         string         `json:"by"`
	At         time.Time      `json:"at"`
}

// PartyExported records that everything held about a party was exported
// (a data-protection access request), by whom and when.
type PartyExported struct {
	Tenant   string    `json:"tenant"`
	ExportID string    `json:"export_id"`
	Party    string    `json:"party"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (CallRequested) EventType() string        { return "voice.call_requested" }
func (CallDialing) EventType() string          { return "voice.call_dialing" }
func (CallRinging) EventType() string          { return "voice.call_ringing" }
func (CallAnswered) EventType() string         { return "voice.call_answered" }
func (CallHeld) EventType() string             { return "voice.call_held" }
func (CallResumed) EventType() string          { return "voice.call_resumed" }
func (CallTransferred) EventType() string      { return "voice.call_transferred" }
func (CallEnded) EventType() string            { return "voice.call_ended" }
func (CallRecordingStored) EventType() string  { return "voice.call_recording_stored" }
func (CallNoteAdded) EventType() string        { return "voice.call_note_added" }
func (CallDispositionSet) EventType() string   { return "voice.call_disposition_set" }
func (CallbackAttempted) EventType() string    { return "voice.callback_attempted" }
func (MessageRequested) EventType() string     { return "voice.message_requested" }
func (MessageStatusChanged) EventType() string { return "voice.message_status_changed" }
func (ContactCreated) EventType() string       { return "voice.contact_created" }
func (NumberImported) EventType() string       { return "voice.number_imported" }
func (NumberPurchased) EventType() string      { return "voice.number_purchased" }
func (NumberConfigured) EventType() string     { return "voice.number_configured" }
func (NumberReleased) EventType() string       { return "voice.number_released" }
func (DNCAdded) EventType() string             { return "voice.dnc_added" }
func (DNCRemoved) EventType() string           { return "voice.dnc_removed" }
func (CallingHoursSet) EventType() string      { return "voice.calling_hours_set" }
func (PartyErased) EventType() string          { return "voice.party_erased" }
func (PartyExported) EventType() string        { return "voice.party_exported" }

// Events lists the constructors of every voice event, for registration.
func Events() []func() kernel.Event {
	return append(InboundEvents(), []func() kernel.Event{
		func() kernel.Event { return &CallRequested{} },
		func() kernel.Event { return &CallDialing{} },
		func() kernel.Event { return &CallRinging{} },
		func() kernel.Event { return &CallAnswered{} },
		func() kernel.Event { return &CallHeld{} },
		func() kernel.Event { return &CallResumed{} },
		func() kernel.Event { return &CallTransferred{} },
		func() kernel.Event { return &CallEnded{} },
		func() kernel.Event { return &CallRecordingStored{} },
		func() kernel.Event { return &CallNoteAdded{} },
		func() kernel.Event { return &CallDispositionSet{} },
		func() kernel.Event { return &CallbackAttempted{} },
		func() kernel.Event { return &MessageRequested{} },
		func() kernel.Event { return &MessageStatusChanged{} },
		func() kernel.Event { return &ContactCreated{} },
		func() kernel.Event { return &NumberImported{} },
		func() kernel.Event { return &NumberPurchased{} },
		func() kernel.Event { return &NumberConfigured{} },
		func() kernel.Event { return &NumberReleased{} },
		func() kernel.Event { return &DNCAdded{} },
		func() kernel.Event { return &DNCRemoved{} },
		func() kernel.Event { return &CallingHoursSet{} },
		func() kernel.Event { return &PartyErased{} },
		func() kernel.Event { return &PartyExported{} },
	}...)
}
