package eventstore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

type renamedV2 struct {
	FullName string `json:"full_name"`
}

func (renamedV2) EventType() string { return "test.renamed" }

type renamedV1 struct {
	Name string `json:"name"`
}

func (renamedV1) EventType() string { return "test.renamed" }

var nameToFullName = kernel.Upcaster{Type: "test.renamed", From: 1, Up: func(p json.RawMessage) (json.RawMessage, error) {
	var v1 renamedV1
	if err := json.Unmarshal(p, &v1); err != nil {
		return nil, err
	}
	return json.Marshal(renamedV2{FullName: v1.Name})
}}

// Test 5: an event stored at schema version 1 is read back as version 2.
func TestUpcastingOnRead(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	ctx := context.Background()
	clock := kernel.SystemClock{}

	old := eventstore.NewRegistry()
	must(t, old.Register(eventstore.EventDef{Name: "test.renamed", Version: 1, New: func() kernel.Event { return &renamedV1{} }}))
	must(t, old.Seal())
	if _, err := eventstore.New(db.SQL, old, clock, eventstore.NewULIDs(clock)).
		Append(ctx, eventstore.Stream{Type: "test.person", ID: "p-1"}, eventstore.NoStream, renamedV1{Name: "Ada Lovelace"}); err != nil {
		t.Fatal(err)
	}

	cur := eventstore.NewRegistry()
	must(t, cur.Register(eventstore.EventDef{Name: "test.renamed", Version: 2, New: func() kernel.Event { return &renamedV2{} },
		Upcasters: []kernel.Upcaster{nameToFullName}}))
	must(t, cur.Seal())
	store := eventstore.New(db.SQL, cur, clock, eventstore.NewULIDs(clock))
	got, err := store.Load(ctx, "p-1", eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].SchemaVersion != 2 {
		t.Fatalf("schema version = %d, want 2", got[0].SchemaVersion)
	}
	if ev, ok := got[0].Event.(*renamedV2); !ok || ev.FullName != "Ada Lovelace" {
		t.Fatalf("event = %#v, want renamedV2{FullName: Ada Lovelace}", got[0].Event)
	}
	var stored int
	if err := db.SQL.QueryRow(`SELECT schema_version FROM es.events WHERE stream_id = 'p-1'`).Scan(&stored); err != nil || stored != 1 {
		t.Fatalf("stored schema version = %d (%v); upcasting must not rewrite history", stored, err)
	}
	var exported []eventstore.Envelope
	if err := store.ReadAll(ctx, eventstore.Filter{}, func(e eventstore.Envelope) error { exported = append(exported, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(exported) != 1 || !strings.Contains(string(exported[0].Payload), `"full_name"`) {
		t.Fatalf("ReadAll did not upcast: %+v", exported)
	}
}

func TestRegistryRejectsBadRegistrations(t *testing.T) {
	newV2 := func() kernel.Event { return &renamedV2{} }
	cases := []struct {
		name string
		defs []eventstore.EventDef
		want string
	}{
		{"duplicate name", []eventstore.EventDef{{Name: "test.renamed", Version: 1, New: newV2}, {Name: "test.renamed", Version: 1, New: newV2}}, "duplicate"},
		{"missing upcaster step", []eventstore.EventDef{{Name: "test.renamed", Version: 3, New: newV2, Upcasters: []kernel.Upcaster{nameToFullName}}}, "missing upcaster from version 2 to 3"},
		{"name disagrees with EventType", []eventstore.EventDef{{Name: "test.other", Version: 1, New: newV2}}, "EventType"},
		{"name not <context>.<past_tense>", []eventstore.EventDef{{Name: "RenamedEvent", Version: 1, New: newV2}}, "lower snake case"},
		{"upcaster out of range", []eventstore.EventDef{{Name: "test.renamed", Version: 1, New: newV2, Upcasters: []kernel.Upcaster{nameToFullName}}}, "outside"},
	}
	for _, c := range cases {
		r := eventstore.NewRegistry()
		err := r.Register(c.defs...)
		if err == nil {
			err = r.Seal()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
