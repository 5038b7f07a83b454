package memory

import "time"

// ActionsStreamType is the type of a user's write-back actions stream.
const ActionsStreamType = "memory.actions"

// ActionsStream is the stream id of user's write-back actions (one stream
// per owner, appended at any version: actions do not decide on each other).
func ActionsStream(user string) string { return "memory-actions:" + user }

// The kinds of write-back action (the seed's neutral provider names) and
// what each does.
const (
	ActionKindChat     = "chat"
	ActionKindMail     = "mail"
	ActionKindCalendar = "calendar"
	ActionKindIssues   = "issues"
	ActionKindNotes    = "notes"

	ActionSend   = "send"
	ActionReply  = "reply"
	ActionCreate = "create"
	ActionPage   = "page"
)

// OutcomeOK is the outcome of an action the provider confirmed; a failed
// action's outcome is the class of its failure ("refused", "transient",
// "unconfirmed", "unauthorized": commands/connections.Class).
const OutcomeOK = "ok"

// ActionPerformed records one write-back action sent to the owner's
// connected provider account, with its outcome. It never holds tokens, and
// not the text that was sent (the message, the reply, the issue body): only
// the short target, the provider's ids of what it created, and the reason
// of a failure as the provider gave it.
type ActionPerformed struct {
	ActionID string `json:"action_id"`
	UserID   string `json:"user_id"`
	// Kind is the provider kind (ActionKindChat ...), Action what was done
	// (ActionSend ...).
	Kind   string `json:"kind"`
	Action string `json:"action"`
	// Target is where it was done: a channel, a mail thread id, a calendar
	// id, an owner/repo, a parent page or database id.
	Target string `json:"target"`
	// Outcome is OutcomeOK or the failure class.
	Outcome string `json:"outcome"`
	// ResultID is the provider's id of what was created: the chat
	// message's ts, the mail message id, the calendar event id, the issue
	// number, the page id ("" when nothing is known to exist).
	ResultID string `json:"result_id,omitempty"`
	// ResultRef is a second provider reference where there is one: the
	// chat channel id the message landed in, the mail thread id.
	ResultRef string `json:"result_ref,omitempty"`
	// URL of what was created, where the provider gives one.
	URL string `json:"url,omitempty"`
	// Reason is the provider's error code or message of a failure.
	Reason string `json:"reason,omitempty"`
	// ProviderStatus is the HTTP status the provider answered a failure
	// with (0: none, or success).
	ProviderStatus int       `json:"provider_status,omitempty"`
	At             time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (ActionPerformed) EventType() string { return "memory.action_performed" }
