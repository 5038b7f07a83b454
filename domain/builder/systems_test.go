package builder

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func fieldOf(err error) (kernel.Kind, string, string) {
	var ke *kernel.Error
	if !errors.As(err, &ke) {
		return kernel.KindOf(err), "", ""
	}
	return ke.Kind, ke.Field, ke.Rule
}

func TestCheckRecordInputNamesTheField(t *testing.T) {
	ok := RecordInput{System: "crm", Type: ChangeCreated, RecordID: "deal-1", Fields: json.RawMessage(`{"title":"x"}`)}
	big := `{"a":"` + strings.Repeat("x", MaxRecordFieldsBytes) + `"}`
	for _, tc := range []struct {
		name        string
		edit        func(*RecordInput)
		field, rule string
	}{
		{"no system", func(r *RecordInput) { r.System = "" }, "system", "required"},
		{"bad system", func(r *RecordInput) { r.System = "CRM!" }, "system", "format"},
		{"no type", func(r *RecordInput) { r.Type = "" }, "type", "required"},
		{"bad type", func(r *RecordInput) { r.Type = "won" }, "type", "enum:created,updated,closed,reopened,deleted"},
		{"no record", func(r *RecordInput) { r.RecordID = "" }, "recordId", "required"},
		{"bad record", func(r *RecordInput) { r.RecordID = "a b" }, "recordId", "format"},
		{"long record", func(r *RecordInput) { r.RecordID = strings.Repeat("a", 129) }, "recordId", "max_length:128"},
		{"fields array", func(r *RecordInput) { r.Fields = json.RawMessage(`[1]`) }, "fields", "type:object"},
		{"fields large", func(r *RecordInput) { r.Fields = json.RawMessage(big) }, "fields", "max_bytes:16384"},
	} {
		in := ok
		tc.edit(&in)
		k, f, r := fieldOf(CheckRecordInput(in))
		if k != kernel.KindInvalid || f != tc.field || r != tc.rule {
			t.Errorf("%s: %v %s %s, want invalid %s %s", tc.name, k, f, r, tc.field, tc.rule)
		}
	}
	if err := CheckRecordInput(ok); err != nil {
		t.Fatal(err)
	}
}

func TestDecideRecordTransitions(t *testing.T) {
	crm, _ := FindSystem(CoreSystems(), "crm")
	support, _ := FindSystem(CoreSystems(), "support")
	prim := SystemSet([]EntityRef{{Name: "booking", Plural: "bookings"}}, nil, nil)[3]
	none := RecordState{}
	open := RecordState{Exists: true, Status: RecordOpen}
	closed := RecordState{Exists: true, Status: RecordClosed, Outcome: "won"}
	gone := RecordState{Exists: true, Status: RecordDeleted}
	fields := json.RawMessage(`{"stage":"proposal"}`)
	for _, tc := range []struct {
		name    string
		def     SystemDef
		st      RecordState
		in      RecordInput
		kind    kernel.Kind
		field   string
		outcome string
	}{
		{"create new", crm, none, RecordInput{Type: ChangeCreated}, 0, "", ""},
		{"create twice", crm, open, RecordInput{Type: ChangeCreated}, kernel.KindConflict, "recordId", ""},
		{"create deleted", crm, gone, RecordInput{Type: ChangeCreated}, kernel.KindConflict, "recordId", ""},
		{"update unknown", crm, none, RecordInput{Type: ChangeUpdated, Fields: fields}, kernel.KindNotFound, "recordId", ""},
		{"update no fields", crm, open, RecordInput{Type: ChangeUpdated}, kernel.KindInvalid, "fields", ""},
		{"update", crm, open, RecordInput{Type: ChangeUpdated, Fields: fields}, 0, "", ""},
		{"close won", crm, open, RecordInput{Type: ChangeClosed, Outcome: "won"}, 0, "", "won"},
		{"close deal without outcome", crm, open, RecordInput{Type: ChangeClosed}, kernel.KindInvalid, "outcome", ""},
		{"close deal as paid", crm, open, RecordInput{Type: ChangeClosed, Outcome: "paid"}, kernel.KindInvalid, "outcome", ""},
		{"close ticket by default", support, open, RecordInput{Type: ChangeClosed}, 0, "", "resolved"},
		{"close primitive", prim, open, RecordInput{Type: ChangeClosed}, 0, "", ""},
		{"close primitive with outcome", prim, open, RecordInput{Type: ChangeClosed, Outcome: "won"}, kernel.KindInvalid, "outcome", ""},
		{"close twice", crm, closed, RecordInput{Type: ChangeClosed, Outcome: "lost"}, kernel.KindConflict, "type", ""},
		{"reopen open", crm, open, RecordInput{Type: ChangeReopened}, kernel.KindConflict, "type", ""},
		{"reopen closed", crm, closed, RecordInput{Type: ChangeReopened}, 0, "", ""},
		{"outcome on create", crm, none, RecordInput{Type: ChangeCreated, Outcome: "won"}, kernel.KindInvalid, "outcome", ""},
		{"delete deleted", crm, gone, RecordInput{Type: ChangeDeleted}, kernel.KindNotFound, "recordId", ""},
		{"delete", crm, closed, RecordInput{Type: ChangeDeleted}, 0, "", ""},
	} {
		tc.in.System, tc.in.RecordID = tc.def.ID, "r1"
		got, err := DecideRecord(tc.def, tc.st, tc.in)
		k, f, _ := fieldOf(err)
		if err == nil {
			k = 0
		}
		if k != tc.kind || f != tc.field || got != tc.outcome {
			t.Errorf("%s: %v %q %q (%v), want %v %q %q", tc.name, k, f, got, err, tc.kind, tc.field, tc.outcome)
		}
	}
}

func TestSystemSetOrderAndOrigins(t *testing.T) {
	spec := []EntityRef{{Name: "service", Plural: "services"}, {Name: "booking", Plural: "bookings"}, {Name: "crm", Plural: "crm"}}
	idea := []EntityRef{{Name: "booking", Plural: "bookings"}, {Name: "review", Plural: "reviews"}}
	set := SystemSet(spec, idea, []string{"zebras", "bookings", "animals"})
	var got []string
	for _, d := range set {
		got = append(got, d.ID+":"+d.Origin)
	}
	want := "crm:core billing:core support:core services:spec bookings:spec reviews:idea animals:records zebras:records"
	if strings.Join(got, " ") != want {
		t.Fatalf("set %v\nwant %s", got, want)
	}
	if set[4].Label != "Bookings" || set[4].Record != "booking" || set[4].Kind != SystemKindPrimitive {
		t.Fatalf("primitive %+v", set[4])
	}
}

func TestCardOfAFreshSystemIsZeros(t *testing.T) {
	crm, _ := FindSystem(CoreSystems(), "crm")
	c := CardOf(crm, SystemTally{})
	for _, k := range []string{"total", "open", "closed", "deleted", "won", "lost"} {
		if v, ok := c.Counts[k]; !ok || v != 0 {
			t.Fatalf("count %s = %d, %v", k, v, ok)
		}
	}
	if c.LastActivity != nil {
		t.Fatal("a fresh system has no last activity")
	}
	c = CardOf(crm, SystemTally{Open: 2, Closed: 3, Deleted: 1, Outcomes: map[string]int{"won": 2, "lost": 1, "bogus": 9}})
	if c.Counts["total"] != 5 || c.Counts["won"] != 2 || c.Counts["lost"] != 1 || c.Counts["bogus"] != 0 {
		t.Fatalf("counts %v", c.Counts)
	}
}
