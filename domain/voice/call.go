package voice

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Call statuses: Twilio's names. queued, initiated, ringing and in-progress
// are live; the other five are terminal.
const (
	StatusQueued     = "queued"
	StatusInitiated  = "initiated"
	StatusRinging    = "ringing"
	StatusInProgress = "in-progress"
	StatusCompleted  = "completed"
	StatusBusy       = "busy"
	StatusFailed     = "failed"
	StatusNoAnswer   = "no-answer"
	StatusCanceled   = "canceled"
)

// Terminal reports whether a call status is final.
func Terminal(status string) bool {
	switch status {
	case StatusCompleted, StatusBusy, StatusFailed, StatusNoAnswer, StatusCanceled:
		return true
	}
	return false
}

// CallStatuses lists every call status, live ones first.
var CallStatuses = []string{StatusQueued, StatusInitiated, StatusRinging, StatusInProgress,
	StatusCompleted, StatusBusy, StatusFailed, StatusNoAnswer, StatusCanceled}

// Call is a call folded from its stream.
type Call struct {
	ID, Tenant, Direction, Line, NumberID, Party string
	Record                                       bool
	QueueID, AgentID, CallbackURL, Provider      string
	ProviderCallID                               string
	Status                                       string
	Seq                                          int // status moves so far (the last callback's sequence number)
	OnHold                                       bool
	Transferred                                  bool
	RequestedAt, AnsweredAt, EndedAt             time.Time
	Duration                                     int
	EndReason                                    string
	SIPCode                                      int
	Disposition                                  string
	Recordings                                   int
	Notes                                        int
	// Key is the subject key the call's personal data is sealed under.
	Key string
	// Callbacks are the status callbacks' deliveries so far.
	Callbacks Callbacks
	// Inbound: the keys pressed, where the call was routed, its voicemail.
	DigitsPressed   string
	Route           string
	VoicemailID     string
	VoicemailStatus string
	// Transcribed notes the recordings a transcript (or its failure) was
	// recorded for.
	Transcribed map[string]bool
}

// Exists reports whether the call was requested.
func (c *Call) Exists() bool { return c.ID != "" }

// Apply folds one event into the call.
func (c *Call) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *CallRequested:
		*c = Call{ID: e.CallID, Tenant: e.Tenant, Direction: e.Direction, Line: e.Line, NumberID: e.NumberID,
			Party: e.Party, Record: e.Record, QueueID: e.QueueID, AgentID: e.AgentID, CallbackURL: e.CallbackURL,
			Provider: e.Provider, Status: StatusQueued, Seq: 1, RequestedAt: e.At, Key: e.Secret.Key,
			Callbacks: NewCallbacks()}
	case *CallDialing:
		c.step(e.Step, StatusInitiated)
		if e.ProviderCallID != "" {
			c.ProviderCallID = e.ProviderCallID
		}
	case *CallRinging:
		c.step(e.Step, StatusRinging)
		if e.ProviderCallID != "" {
			c.ProviderCallID = e.ProviderCallID
		}
	case *CallAnswered:
		c.step(e.Step, StatusInProgress)
		c.AnsweredAt = e.At
	case *CallHeld:
		c.step(e.Step, c.Status)
		c.OnHold = true
	case *CallResumed:
		c.step(e.Step, c.Status)
		c.OnHold = false
	case *CallTransferred:
		c.step(e.Step, c.Status)
		c.OnHold, c.Transferred = false, true
	case *CallEnded:
		c.step(e.Step, e.Status)
		c.EndedAt, c.Duration, c.EndReason, c.OnHold = e.At, e.Duration, e.Reason, false
	case *CallRecordingStored:
		c.Recordings++
	case *CallNoteAdded:
		c.Notes++
	case *CallDispositionSet:
		c.Disposition = e.Disposition
	case *CallbackAttempted:
		c.Callbacks.note(e)
	case *CallDigitReceived:
		c.DigitsPressed += e.Digit
	case *CallRouted:
		c.Route = e.Route
	case *VoicemailLeft:
		c.VoicemailID, c.VoicemailStatus = e.VoicemailID, VoicemailNew
	case *VoicemailStatusChanged:
		c.VoicemailStatus = e.To
	case *TranscriptStored:
		c.transcribed(e.RecordingID)
	case *TranscriptFailed:
		c.transcribed(e.RecordingID)
	}
}

func (c *Call) step(s Step, status string) {
	c.Seq, c.Status = s.Seq, status
	if s.SIPCode != 0 {
		c.SIPCode = s.SIPCode
	}
}

// Over reports whether the call has ended.
func (c *Call) Over() bool { return Terminal(c.Status) }

// Progress kinds a provider reports (the telephony adapter's names).
const (
	MoveDialing     = "dialing"
	MoveRinging     = "ringing"
	MoveAnswered    = "answered"
	MoveHeld        = "held"
	MoveResumed     = "resumed"
	MoveTransferred = "transferred"
	MoveEnded       = "ended"
)

// Move is a provider's report about the call, as the domain needs it.
type Move struct {
	Kind           string
	At             time.Time
	SIPCode        int
	Reason         string
	Outcome        string // the terminal status of an ended move
	ProviderCallID string
	TransferType   string
	Target         string // E.164, for transferred
}

// Progress decides the event a provider's report makes: the next status
// move with the next sequence number. A report the call has passed already
// (a ringing after the answer, a duplicate) makes nothing; anything after
// the end is ErrCallOver. An ended move must name a terminal status; a
// completed call must have been answered (else it failed: the provider
// said completed without an answer, which Twilio calls failed too).
func (c *Call) Progress(m Move) ([]kernel.Event, error) {
	if !c.Exists() {
		return nil, kernel.NotFound("call not found")
	}
	if c.Over() {
		return nil, CallOver(c.ID, c.Status)
	}
	st := Step{CallID: c.ID, Seq: c.Seq + 1, SIPCode: m.SIPCode, Reason: m.Reason, At: m.At}
	rank := statusRank(c.Status)
	switch m.Kind {
	case MoveDialing:
		if rank >= statusRank(StatusInitiated) {
			return nil, nil
		}
		return []kernel.Event{&CallDialing{Step: st, ProviderCallID: m.ProviderCallID}}, nil
	case MoveRinging:
		if rank >= statusRank(StatusRinging) {
			return nil, nil
		}
		return []kernel.Event{&CallRinging{Step: st, ProviderCallID: m.ProviderCallID}}, nil
	case MoveAnswered:
		if rank >= statusRank(StatusInProgress) {
			return nil, nil
		}
		return []kernel.Event{&CallAnswered{Step: st}}, nil
	case MoveHeld:
		if c.Status != StatusInProgress || c.OnHold {
			return nil, nil
		}
		return []kernel.Event{&CallHeld{Step: st}}, nil
	case MoveResumed:
		if !c.OnHold {
			return nil, nil
		}
		return []kernel.Event{&CallResumed{Step: st}}, nil
	case MoveTransferred:
		if c.Status != StatusInProgress {
			return nil, nil
		}
		return []kernel.Event{&CallTransferred{Step: st, TransferType: m.TransferType, Target: &Remote{Number: m.Target}}}, nil
	case MoveEnded:
		status := m.Outcome
		if !Terminal(status) {
			return nil, kernel.Invalid("outcome", "terminal", "an ended call needs a terminal status, not "+status)
		}
		if status == StatusCompleted && c.AnsweredAt.IsZero() {
			status = StatusFailed
		}
		return []kernel.Event{&CallEnded{Step: st, Status: status, Duration: billedSeconds(c.AnsweredAt, m.At)}}, nil
	}
	return nil, kernel.Invalid("kind", "move", "unknown call move "+m.Kind)
}

// billedSeconds is the talk time from the answer to the end, rounded up to
// whole seconds (carriers bill started seconds); 0 when never answered.
func billedSeconds(answered, ended time.Time) int {
	if answered.IsZero() || !ended.After(answered) {
		return 0
	}
	d := ended.Sub(answered)
	s := int(d / time.Second)
	if d%time.Second != 0 {
		s++
	}
	return s
}

func statusRank(s string) int {
	switch s {
	case StatusQueued:
		return 0
	case StatusInitiated:
		return 1
	case StatusRinging:
		return 2
	case StatusInProgress:
		return 3
	}
	return 4
}

// CallOver is the refusal of a move on an ended call.
func CallOver(id, status string) error {
	return kernel.Conflict("call "+id+" is over (status "+status+")", nil)
}

// AddNote decides a note by author; text must be 1-5000 characters.
func (c *Call) AddNote(noteID, author, text string, at time.Time) ([]kernel.Event, error) {
	if err := CheckText("text", text, 1, MaxNote); err != nil {
		return nil, err
	}
	return []kernel.Event{&CallNoteAdded{CallID: c.ID, NoteID: noteID, Author: author, At: at, Text: &NoteText{Text: text}}}, nil
}

// MaxNote is the longest note, in characters.
const MaxNote = 5000

// SetDisposition decides a person's classification of the call: a slug of
// lowercase letters, digits, '_' and '-' (1-64), e.g. "interested",
// "wrong_number", "left_voicemail". Setting the same one again makes
// nothing.
func (c *Call) SetDisposition(disposition, by string, at time.Time) ([]kernel.Event, error) {
	if err := CheckSlug("disposition", disposition); err != nil {
		return nil, err
	}
	if disposition == c.Disposition {
		return nil, nil
	}
	return []kernel.Event{&CallDispositionSet{CallID: c.ID, Disposition: disposition, By: by, At: at}}, nil
}

// Callbacks track the deliveries of one call's or message's status
// callbacks: attempts made and, once no attempt follows, the outcome per
// sequence number.
type Callbacks struct {
	Attempts map[int]int
	Settled  map[int]string // "delivered", or "failed" after the last attempt
}

// NewCallbacks returns empty tracking.
func NewCallbacks() Callbacks { return Callbacks{Attempts: map[int]int{}, Settled: map[int]string{}} }

func (cb Callbacks) note(e *CallbackAttempted) {
	if cb.Attempts == nil {
		return
	}
	cb.Attempts[e.Seq] = max(cb.Attempts[e.Seq], e.Attempt)
	switch {
	case e.Delivered:
		cb.Settled[e.Seq] = "delivered"
	case e.Final:
		cb.Settled[e.Seq] = "failed"
	}
}

func (c *Call) transcribed(recording string) {
	if c.Transcribed == nil {
		c.Transcribed = map[string]bool{}
	}
	c.Transcribed[recording] = true
}
