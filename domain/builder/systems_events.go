package builder

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamSystems is the stream type of one company's business systems: the
// record events the founder and the deployed app post, and the company
// keys issued for the app. Its stream id comes from SystemsStream.
const StreamSystems = "builder.systems"

// SystemsStream is the stream id of company companyID's systems.
func SystemsStream(companyID string) string { return "builder-systems:" + companyID }

// Who posted a record event.
const (
	ActorFounder = "founder" // the company's founder, with a session
	ActorApp     = "app"     // the company's key (the deployed app)
)

// SystemRecordChanged: a record of one of the company's systems was
// created, updated, closed (with its outcome), reopened or deleted.
// Fields, when the change carried any, are the record's fields as posted,
// sealed under the company's data key (crypto-shredding: destroying the
// key erases every record's contents, history included); counts never
// need them. ActorID is the founder's user id or the key's id.
type SystemRecordChanged struct {
	CompanyID string         `json:"company_id"`
	System    string         `json:"system"`
	Kind      string         `json:"kind"`
	RecordID  string         `json:"record_id"`
	Change    string         `json:"change"`
	Outcome   string         `json:"outcome,omitempty"`
	Fields    *kernel.Sealed `json:"fields,omitempty"`
	ActorKind string         `json:"actor_kind"`
	ActorID   string         `json:"actor_id"`
	At        time.Time      `json:"at"`
}

// SystemsKeyIssued: a company key was issued (the previous one, if any,
// stops working). SecretHash is the hex SHA-256 of the whole key, Hint its
// first characters (to tell keys apart); the key itself is never stored.
// IssuedBy is the founder's user id, or "deploy" when a deploy issued the
// company's first key for the app's environment.
type SystemsKeyIssued struct {
	CompanyID  string    `json:"company_id"`
	KeyID      string    `json:"key_id"`
	Generation int       `json:"generation"`
	SecretHash string    `json:"secret_hash"`
	Hint       string    `json:"hint"`
	Replaces   string    `json:"replaces,omitempty"`
	IssuedBy   string    `json:"issued_by"`
	At         time.Time `json:"at"`
}

// EventType implementations.
func (SystemRecordChanged) EventType() string { return "builder.system_record_changed" }
func (SystemsKeyIssued) EventType() string    { return "builder.systems_key_issued" }

// SystemsEvents returns a constructor for every systems event (schema
// version 1).
func SystemsEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &SystemRecordChanged{} },
		func() kernel.Event { return &SystemsKeyIssued{} },
	}
}
