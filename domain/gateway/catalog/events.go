package catalog

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// The catalog is one stream: every change is appended to it at the
// version its decision was made on (optimistic concurrency).
const (
	StreamType = "gateway.catalog"
	StreamID   = "gateway-catalog"
)

// Sources of a change.
const (
	SourceBuiltin  = "builtin"  // the built-in development catalog, imported at start
	SourceImport   = "import"   // an operator's catalog file (`strata models import`)
	SourceOperator = "operator" // an operator's single change (upsert, retire)
)

// ModelUpserted records a model's whole entry: a new model, a changed one,
// or an alias recorded as retired from the start.
type ModelUpserted struct {
	Model  Model     `json:"model"`
	Source string    `json:"source"`
	At     time.Time `json:"at"`
}

// ModelRetired retires a model (or points a retired alias at another
// replacement): requests naming it are refused with model_deprecated
// naming ReplacedBy, a live model. The rest of its entry is kept.
type ModelRetired struct {
	ModelID    string    `json:"model_id"`
	ReplacedBy string    `json:"replaced_by"`
	Source     string    `json:"source"`
	At         time.Time `json:"at"`
}

// Imported closes an import: the model events before it in the same
// append made the models equal to the file's; it sets the routers and the
// defaults, and records the catalog's version and content hash after the
// import.
type Imported struct {
	Version  int64           `json:"version"` // the catalog stream's version after this event
	Hash     string          `json:"hash"`    // File.Hash of the catalog after the import
	Source   string          `json:"source"`  // SourceBuiltin or SourceImport
	Name     string          `json:"name,omitempty"`
	Routers  []Router        `json:"routers"`
	Defaults map[Tier]string `json:"defaults"`
	Added    []string        `json:"added,omitempty"`
	Changed  []string        `json:"changed,omitempty"`
	Retired  []string        `json:"retired,omitempty"`
	At       time.Time       `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (ModelUpserted) EventType() string { return "catalog.model_upserted" }
func (ModelRetired) EventType() string  { return "catalog.model_retired" }
func (Imported) EventType() string      { return "catalog.imported" }

// Events lists the constructors of the catalog's events, for registration.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &ModelUpserted{} },
		func() kernel.Event { return &ModelRetired{} },
		func() kernel.Event { return &Imported{} },
	}
}

// stamp is the time of a change: UTC to the microsecond, and always in a
// later second than the previous change (Last-Modified has one-second
// resolution, so two catalogs never share one).
func stamp(now, prev time.Time) time.Time {
	at := now.UTC().Truncate(time.Microsecond)
	if !prev.IsZero() && !at.Truncate(time.Second).After(prev.Truncate(time.Second)) {
		at = prev.UTC().Truncate(time.Second).Add(time.Second)
	}
	return at
}
