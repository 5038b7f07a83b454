package voice

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Routes of an inbound call, and what an IVR menu option may do.
const (
	RouteVoicemail = "voicemail"
	RouteHangup    = "hangup"
)

// MenuOption is what pressing one digit in an IVR does: forward the call
// to a number, queue it, take a voicemail, or hang up.
type MenuOption struct {
	Action string `json:"action"` // forward, queue, voicemail, hangup
	Target string `json:"target,omitempty"`
}

// CheckMenu refuses an IVR menu that is not a map of one DTMF key ("0"-
// "9", "*", "#") to a valid option.
func CheckMenu(menu map[string]MenuOption) error {
	if len(menu) > 12 {
		return kernel.Invalid("routing.menu", "max_items:12", "routing.menu has at most one option per key (12)")
	}
	for k, o := range menu {
		field := "routing.menu." + k
		if len(k) != 1 || !(k[0] >= '0' && k[0] <= '9' || k[0] == '*' || k[0] == '#') {
			return kernel.Invalid(field, "dtmf_key", "routing.menu keys are single DTMF keys: 0-9, * or #")
		}
		switch o.Action {
		case RouteForward:
			if err := CheckE164(field+".target", o.Target); err != nil {
				return err
			}
		case RouteQueue:
			if err := CheckText(field+".target", o.Target, 0, 100); err != nil {
				return err
			}
		case RouteVoicemail, RouteHangup:
		default:
			return kernel.Invalid(field+".action", "enum:forward,queue,voicemail,hangup", "a menu option's action is forward, queue, voicemail or hangup")
		}
	}
	return nil
}

// CallDigitReceived: the caller pressed a key (RFC 2833 telephone-event).
type CallDigitReceived struct {
	CallID string    `json:"call_id"`
	Digit  string    `json:"digit"`
	At     time.Time `json:"at"`
}

// CallRouted: an inbound call was sent somewhere: by the number's routing,
// or by the IVR option the caller chose (Digit).
type CallRouted struct {
	CallID string        `json:"call_id"`
	Route  string        `json:"route"` // forward, queue, ivr, voicemail, hangup
	Digit  string        `json:"digit,omitempty"`
	Target string        `json:"target,omitempty"` // a queue id; a forward's number is sealed
	Secret kernel.Sealed `json:"secret"`           // Remote (the forward target) under the call's party key
	At     time.Time     `json:"at"`
	Remote *Remote       `json:"-"`
}

// Voicemail statuses and their moves: new -> read | archived,
// read -> new | archived, archived -> read (restored).
const (
	VoicemailNew      = "new"
	VoicemailRead     = "read"
	VoicemailArchived = "archived"
)

// VoicemailMoves lists the statuses each status may move to.
var VoicemailMoves = map[string][]string{
	VoicemailNew:      {VoicemailRead, VoicemailArchived},
	VoicemailRead:     {VoicemailNew, VoicemailArchived},
	VoicemailArchived: {VoicemailRead},
}

// VoicemailLeft: the caller left a message (status new); its audio is
// the call's recording RecordingID.
type VoicemailLeft struct {
	CallID      string    `json:"call_id"`
	VoicemailID string    `json:"voicemail_id"`
	RecordingID string    `json:"recording_id"`
	DurationMS  int       `json:"duration_ms"`
	At          time.Time `json:"at"`
}

// VoicemailStatusChanged: a person moved a voicemail.
type VoicemailStatusChanged struct {
	CallID      string    `json:"call_id"`
	VoicemailID string    `json:"voicemail_id"`
	From        string    `json:"from"`
	To          string    `json:"to"`
	By          string    `json:"by"`
	At          time.Time `json:"at"`
}

// EventType implementations.
func (CallDigitReceived) EventType() string      { return "voice.call_digit_received" }
func (CallRouted) EventType() string             { return "voice.call_routed" }
func (VoicemailLeft) EventType() string          { return "voice.voicemail_left" }
func (VoicemailStatusChanged) EventType() string { return "voice.voicemail_status_changed" }

// InboundEvents lists the constructors of the inbound events.
func InboundEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &CallDigitReceived{} },
		func() kernel.Event { return &CallRouted{} },
		func() kernel.Event { return &VoicemailLeft{} },
		func() kernel.Event { return &VoicemailStatusChanged{} },
		func() kernel.Event { return &TranscriptStored{} },
		func() kernel.Event { return &TranscriptFailed{} },
	}
}

// MoveVoicemail decides a person's move of the call's voicemail.
func (c *Call) MoveVoicemail(id, to, by string, at time.Time) ([]kernel.Event, error) {
	if c.VoicemailID == "" || c.VoicemailID != id {
		return nil, kernel.NotFound("voicemail not found")
	}
	if to == c.VoicemailStatus {
		return nil, nil
	}
	for _, ok := range VoicemailMoves[c.VoicemailStatus] {
		if ok == to {
			return []kernel.Event{&VoicemailStatusChanged{CallID: c.ID, VoicemailID: id, From: c.VoicemailStatus, To: to, By: by, At: at}}, nil
		}
	}
	if _, known := VoicemailMoves[to]; !known {
		return nil, kernel.Invalid("status", "enum:new,read,archived", "status must be new, read or archived")
	}
	return nil, kernel.Conflict("a voicemail cannot move from "+c.VoicemailStatus+" to "+to+" (allowed: "+list(VoicemailMoves[c.VoicemailStatus])+")", nil)
}

func list(v []string) string {
	out := ""
	for i, s := range v {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
