package builder

import (
	"time"
)

// StreamAsk is the stream type of one Ask thread: the questions a founder
// asked about a company and the answers, in order. Its stream id comes
// from AskStream.
const StreamAsk = "builder.ask"

// AskStream is the id of the Ask thread chatID of company companyID (both
// chat ids).
func AskStream(companyID, chatID string) string { return "builder-ask:" + companyID + ":" + chatID }

// Roles of a turn of an Ask thread.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// AskSource is one fact an answer used: what it is (Fact), the stream it
// was read from and the stream version it was read at, the event types it
// was computed from, and a detail when there was nothing to read.
type AskSource struct {
	Fact        string   `json:"fact"`
	Stream      string   `json:"stream,omitempty"`
	UpToVersion int64    `json:"up_to_version,omitempty"`
	EventTypes  []string `json:"event_types,omitempty"`
	Detail      string   `json:"detail,omitempty"`
}

// AskTurn: one turn of an Ask thread. A user turn is the question; an
// assistant turn is the answer, with what produced it (Generator,
// Provider, Model), the intents the question matched and the facts used.
// A question and its answer are appended together.
type AskTurn struct {
	CompanyID string      `json:"company_id"`
	ChatID    string      `json:"chat_id"`
	Role      string      `json:"role"`
	Text      string      `json:"text"`
	Generator string      `json:"generator,omitempty"`
	Provider  string      `json:"provider,omitempty"`
	Model     string      `json:"model,omitempty"`
	Intents   []string    `json:"intents,omitempty"`
	Sources   []AskSource `json:"sources,omitempty"`
	At        time.Time   `json:"at"`
}

// EventType implements kernel.Event.
func (AskTurn) EventType() string { return "builder.ask_turn" }
