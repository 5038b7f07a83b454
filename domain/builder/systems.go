package builder

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
)

// Kinds of business systems.
const (
	SystemKindCRM       = "crm"       // deals
	SystemKindBilling   = "billing"   // invoices
	SystemKindSupport   = "support"   // tickets
	SystemKindPrimitive = "primitive" // the records of one entity of the app spec
)

// Changes a record goes through: the "type" of a posted record event.
const (
	ChangeCreated  = "created"
	ChangeUpdated  = "updated"
	ChangeClosed   = "closed"
	ChangeReopened = "reopened"
	ChangeDeleted  = "deleted"
)

// Changes lists the record changes in their documented order.
func Changes() []string {
	return []string{ChangeCreated, ChangeUpdated, ChangeClosed, ChangeReopened, ChangeDeleted}
}

// Record statuses.
const (
	RecordOpen    = "open"
	RecordClosed  = "closed"
	RecordDeleted = "deleted"
)

// Limits of a posted record.
const (
	MaxRecordFieldsBytes   = 16 << 10 // the fields object, as sent
	MaxRecordFieldsMembers = 100
	MaxRecordIDLen         = 128
)

// SystemDef is one business system of a company: its id (the "system" of
// a posted record), what its card says, and the outcomes a closed record
// may have (none for primitives; DefaultOutcome when closing without one).
type SystemDef struct {
	ID             string
	Label          string
	Kind           string
	Record         string   // what one record is: "deal", or the entity's name
	Outcomes       []string // the outcomes of a closed record, in order
	DefaultOutcome string   // "" : closing needs an outcome when Outcomes are given
	Origin         string   // where a primitive came from: OriginSpec, OriginIdea or OriginRecords
}

// Origins of a primitive system.
const (
	OriginCore    = "core"    // crm, billing and support: every company has them
	OriginSpec    = "spec"    // an entity of the company's current app spec
	OriginIdea    = "idea"    // an entity the idea parameter implies (template.Plan)
	OriginRecords = "records" // neither, but records were posted to it (an entity of an earlier spec)
)

// CoreSystems are the systems every company has, in card order: CRM deals
// (closed as won or lost), billing invoices (closed as paid or void) and
// support tickets (closed as resolved, the default, or dismissed).
func CoreSystems() []SystemDef {
	return []SystemDef{
		{ID: "crm", Label: "CRM deals", Kind: SystemKindCRM, Record: "deal", Outcomes: []string{"won", "lost"}, Origin: OriginCore},
		{ID: "billing", Label: "Billing invoices", Kind: SystemKindBilling, Record: "invoice", Outcomes: []string{"paid", "void"}, Origin: OriginCore},
		{ID: "support", Label: "Support tickets", Kind: SystemKindSupport, Record: "ticket", Outcomes: []string{"resolved", "dismissed"},
			DefaultOutcome: "resolved", Origin: OriginCore},
	}
}

// CountKeys are the members of a system's counts: total (records not
// deleted), open, closed, deleted, then one per outcome.
func (d SystemDef) CountKeys() []string {
	return append([]string{"total", RecordOpen, RecordClosed, RecordDeleted}, d.Outcomes...)
}

var (
	systemIDRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
	recordIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]*$`)
)

// RecordInput is a posted record event, as the API receives it.
type RecordInput struct {
	System   string
	Type     string
	RecordID string
	Outcome  string
	Fields   json.RawMessage // a JSON object, or nil
}

// CheckRecordInput validates the shape of a posted record event before
// anything is loaded: system, type and recordId required and well formed,
// fields a JSON object within MaxRecordFieldsBytes and
// MaxRecordFieldsMembers. Errors name the field (system, type, recordId,
// fields, outcome) and the rule.
func CheckRecordInput(in RecordInput) error {
	switch {
	case in.System == "":
		return kernel.Invalid("system", "required", "system is required: crm, billing, support or one of the app's entities (see GET /api/build/systems)")
	case !systemIDRE.MatchString(in.System):
		return kernel.Invalid("system", "format", "system is a lower-case id such as crm or bookings")
	case in.Type == "":
		return kernel.Invalid("type", "required", "type is required: "+strings.Join(Changes(), ", "))
	case !slices.Contains(Changes(), in.Type):
		return kernel.Invalid("type", "enum:"+strings.Join(Changes(), ","), fmt.Sprintf("type %q is not one of %s", in.Type, strings.Join(Changes(), ", ")))
	case in.RecordID == "":
		return kernel.Invalid("recordId", "required", "recordId is required: the record's id in the app")
	case len(in.RecordID) > MaxRecordIDLen:
		return kernel.Invalid("recordId", fmt.Sprintf("max_length:%d", MaxRecordIDLen), fmt.Sprintf("recordId is longer than %d characters", MaxRecordIDLen))
	case !recordIDRE.MatchString(in.RecordID):
		return kernel.Invalid("recordId", "format", "recordId is letters, digits and . _ : @ - (starting with a letter or digit)")
	case len(in.Outcome) > 40:
		return kernel.Invalid("outcome", "max_length:40", "outcome is longer than 40 characters")
	}
	return checkFields(in.Fields)
}

func checkFields(raw json.RawMessage) error {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return nil
	}
	if len(raw) > MaxRecordFieldsBytes {
		return kernel.Invalid("fields", fmt.Sprintf("max_bytes:%d", MaxRecordFieldsBytes), "fields is larger than 16 KiB")
	}
	var m map[string]json.RawMessage
	if t[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return kernel.Invalid("fields", "type:object", "fields must be a JSON object of the record's fields")
	}
	if len(m) > MaxRecordFieldsMembers {
		return kernel.Invalid("fields", fmt.Sprintf("max_members:%d", MaxRecordFieldsMembers), fmt.Sprintf("fields has more than %d members", MaxRecordFieldsMembers))
	}
	return nil
}

// HasFields reports whether raw holds a non-empty fields object.
func HasFields(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) > 0
}

// RecordState is what is known of one record: nothing (Exists false), or
// its status and the outcome it was closed with.
type RecordState struct {
	Exists  bool
	Status  string
	Outcome string
}

// DecideRecord decides a posted change of a record of system def in state
// st: the change it records (with the outcome closing uses), or why not:
//   - created: the id must be new (409 rule exists; a deleted id is not
//     reused, 409 rule deleted); no outcome;
//   - updated: the record must exist (404 field recordId) and fields be
//     given (400 field fields);
//   - closed: an open record (409 already_closed); the outcome one of the
//     system's (400 field outcome, required unless the system has a
//     default), none for a primitive;
//   - reopened: a closed record (409 not_closed);
//   - deleted: an existing record; no outcome.
func DecideRecord(def SystemDef, st RecordState, in RecordInput) (outcome string, err error) {
	live := st.Exists && st.Status != RecordDeleted
	if in.Type != ChangeClosed && in.Outcome != "" {
		return "", kernel.Invalid("outcome", "not_allowed", "outcome is given only when a record is closed")
	}
	if in.Type == ChangeCreated {
		switch {
		case st.Exists && st.Status == RecordDeleted:
			return "", &kernel.Error{Kind: kernel.KindConflict, Field: "recordId", Rule: "deleted",
				Message: fmt.Sprintf("%s record %s was deleted; record ids are not reused", def.ID, in.RecordID)}
		case st.Exists:
			return "", &kernel.Error{Kind: kernel.KindConflict, Field: "recordId", Rule: "exists",
				Message: fmt.Sprintf("%s record %s already exists; post type updated to change it", def.ID, in.RecordID)}
		}
		return "", nil
	}
	if !live {
		return "", &kernel.Error{Kind: kernel.KindNotFound, Field: "recordId", Rule: "unknown",
			Message: fmt.Sprintf("%s has no record %s; post type created first", def.ID, in.RecordID)}
	}
	switch in.Type {
	case ChangeUpdated:
		if !HasFields(in.Fields) {
			return "", kernel.Invalid("fields", "required", "an update carries the fields that changed")
		}
	case ChangeClosed:
		if st.Status == RecordClosed {
			return "", &kernel.Error{Kind: kernel.KindConflict, Field: "type", Rule: "already_closed",
				Message: fmt.Sprintf("%s record %s is already closed (%s)", def.ID, in.RecordID, st.Outcome)}
		}
		return closeOutcome(def, in.Outcome)
	case ChangeReopened:
		if st.Status != RecordClosed {
			return "", &kernel.Error{Kind: kernel.KindConflict, Field: "type", Rule: "not_closed",
				Message: fmt.Sprintf("%s record %s is open; only a closed record is reopened", def.ID, in.RecordID)}
		}
	}
	return "", nil
}

func closeOutcome(def SystemDef, outcome string) (string, error) {
	if len(def.Outcomes) == 0 {
		if outcome != "" {
			return "", kernel.Invalid("outcome", "not_allowed", def.ID+" records close without an outcome")
		}
		return "", nil
	}
	if outcome == "" {
		if def.DefaultOutcome == "" {
			return "", kernel.Invalid("outcome", "required", fmt.Sprintf("closing a %s needs an outcome: %s", def.Record, strings.Join(def.Outcomes, " or ")))
		}
		return def.DefaultOutcome, nil
	}
	if !slices.Contains(def.Outcomes, outcome) {
		return "", kernel.Invalid("outcome", "enum:"+strings.Join(def.Outcomes, ","), fmt.Sprintf("a %s closes as %s", def.Record, strings.Join(def.Outcomes, " or ")))
	}
	return outcome, nil
}

// NextRecordState is st after change (with outcome, for closed).
func NextRecordState(st RecordState, change, outcome string) RecordState {
	switch change {
	case ChangeCreated, ChangeReopened:
		return RecordState{Exists: true, Status: RecordOpen}
	case ChangeClosed:
		return RecordState{Exists: true, Status: RecordClosed, Outcome: outcome}
	case ChangeDeleted:
		return RecordState{Exists: true, Status: RecordDeleted, Outcome: st.Outcome}
	}
	return st
}
