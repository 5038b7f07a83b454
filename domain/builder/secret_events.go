package builder

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamSecrets is the stream type of one company's app runtime secrets:
// which names exist, their versions, who changed them and when. The events
// never hold a value, its length or a hash of it: the sealed values live
// in a table beside the store (platform.builder_secrets), written in the
// transaction that appends the event.
const StreamSecrets = "builder.secrets"

// SecretsStreamID is the stream id of companyID's secrets (stream ids are
// unique across types, and the company id is already its chat's stream id).
func SecretsStreamID(companyID string) string { return "builder-secrets:" + companyID }

// SecretSet: a founder added a secret (Version 1, or the version after the
// last one of a deleted secret of the same name) or changed its value
// (Version + 1). UpdatedBy is the founder's user id.
type SecretSet struct {
	CompanyID string    `json:"company_id"`
	Name      string    `json:"name"`
	Version   int       `json:"version"`
	UpdatedBy string    `json:"updated_by"`
	At        time.Time `json:"at"`
}

// SecretDeleted: a founder deleted a secret; Version is the version that
// was deleted. DeletedBy is the founder's user id.
type SecretDeleted struct {
	CompanyID string    `json:"company_id"`
	Name      string    `json:"name"`
	Version   int       `json:"version"`
	DeletedBy string    `json:"deleted_by"`
	At        time.Time `json:"at"`
}

// EventType implementations.
func (SecretSet) EventType() string     { return "builder.secret_set" }
func (SecretDeleted) EventType() string { return "builder.secret_deleted" }

// SecretEvents returns a constructor for every secrets event (schema
// version 1).
func SecretEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &SecretSet{} },
		func() kernel.Event { return &SecretDeleted{} },
	}
}
