package memory

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func (h *harness) merge(entity, into string) EntityMerge {
	h.t.Helper()
	var out EntityMerge
	h.do(func(d *Decision) error {
		in := MergeInput{Entity: entity, Into: into}
		if err := in.Check(); err != nil {
			return err
		}
		var err error
		out, err = d.MergeEntities(in)
		return err
	})
	return out
}

// state is what a merge changes in the fold, for comparing a refold.
func (h *harness) state(s *Store) map[string]string {
	out := map[string]string{}
	for id, m := range s.Memories {
		out["memory "+id] = m.EntityID + " " + strings.Join(m.Mentions, ",")
	}
	for id, e := range s.Edges {
		out["edge "+id] = e.SubjectID + " " + e.ObjectID
	}
	for id, e := range s.Entities {
		out["entity "+id] = e.Name + " " + e.Type
		for _, a := range e.Aliases {
			out["entity "+id] += "|" + a
		}
		for _, m := range e.Merged {
			out["lookup "+m] = s.Lookup(m).ID
		}
	}
	return out
}

func (h *harness) refoldMerged() {
	h.t.Helper()
	h.refold()
	s := NewStore("u1")
	for _, ev := range h.events {
		s.Apply(ev)
	}
	got, want := h.state(s), h.state(h.s)
	for k, v := range want {
		if got[k] != v {
			h.t.Fatalf("refold: %s = %q, want %q", k, got[k], v)
		}
	}
}

// Merging "Bobby" into "Robert Smith": Bobby's facts, memories and names
// are Robert's, Robert's works_at timeline is settled again (the earlier
// employer superseded when the later one began), and Bobby's id and name
// resolve to Robert.
func TestMergingSettlesTheSurvivorsTimeline(t *testing.T) {
	h := newHarness(t)
	h.relate("Robert Smith", "works_at", "Acme", day(0), nil)
	h.relate("Bobby", "works_at", "Globex", day(100), nil)
	h.relate("Bobby", "likes", "jazz", day(50), nil)
	robert, bobby := h.s.Lookup("Robert Smith"), h.s.Lookup("Bobby")
	bobbyID := bobby.ID
	// A memory about Robert that mentions Bobby, and one about Bobby.
	about := h.do(func(d *Decision) error {
		d.emit(&MemoryRemembered{MemoryID: "mem_about", UserID: "u1", Namespace: "global", MemoryType: TypeEpisodic,
			EntityID: robert.ID, Mentions: []string{bobbyID}, At: day(60), Text: &MemoryText{Content: "Robert met Bobby."}})
		return nil
	}).Events[0].(*MemoryRemembered)
	h.remember("Plays the saxophone on Sundays.", day(70), func(in *RememberInput) { in.EntityRef = "Bobby" })
	h.expect("Robert Smith", "works_at", "Acme@0..now")

	res := h.merge("bobby", robert.ID)
	if res.SurvivorID != robert.ID || res.MergedID != bobbyID || len(res.Superseded) != 1 || len(res.Retracted) != 0 {
		t.Fatalf("merge = %+v, want the Acme edge superseded", res)
	}
	h.expect("Robert Smith", "works_at", "Acme@0..100", "Globex@100..now")
	h.expect("Robert Smith", "likes", "jazz@50..now")
	h.expect(bobbyID, "works_at", "Acme@0..100", "Globex@100..now")
	if h.s.Lookup("Bobby") != robert || h.s.Lookup(bobbyID) != robert || h.s.Entities[bobbyID] != nil {
		t.Fatal("Bobby's name and id do not resolve to Robert")
	}
	if !slices.Contains(robert.Aliases, "Bobby") || robert.Name != "Robert Smith" || robert.mentions != 2 {
		t.Fatalf("survivor = %+v", robert)
	}
	for _, m := range h.s.Memories {
		if m.EntityID != robert.ID || len(m.Mentions) != 0 {
			t.Fatalf("memory %s: entity %s mentions %v, want Robert's and none", m.ID, m.EntityID, m.Mentions)
		}
	}
	if about.EntityID != robert.ID || len(about.Mentions) != 1 || about.Mentions[0] != bobbyID {
		t.Fatalf("the fold rewrote a recorded event: %+v", about)
	}
	// Later commands naming Bobby act on Robert.
	h.relate("Bobby", "lives_in", "Oslo", day(120), nil)
	h.expect("Robert Smith", "lives_in", "Oslo@120..now")
	r := h.remember("Is learning Norwegian.", day(130), func(in *RememberInput) { in.EntityRef = bobbyID })
	if h.s.Memories[r.MemoryID].EntityID != robert.ID {
		t.Fatal("a memory about Bobby's id is not about Robert")
	}
	h.refoldMerged()
}

// An edge superseded only because its object had two entities is a
// confirmation once they are one: it is current again.
func TestMergingObjectsReinstatesAConfirmation(t *testing.T) {
	h := newHarness(t)
	h.relate("Erin", "works_at", "Hooli", day(0), nil)
	h.relate("Erin", "works_at", "Globex", day(10), nil)
	h.expect("Erin", "works_at", "Hooli@0..10", "Globex@10..now")
	res := h.merge("Globex", "Hooli")
	if len(res.Reinstated) != 1 || len(res.Superseded) != 0 {
		t.Fatalf("merge = %+v, want one edge reinstated", res)
	}
	h.expect("Erin", "works_at", "Hooli@0..now", "Hooli@10..now")
	h.refoldMerged()
}

// C into B, then B into A: C's id resolves to A; an edge between the merged
// entities is retracted; deleting the survivor destroys every merged key.
func TestMergeChainsRetractSelfEdgesAndDeleteShredsEveryKey(t *testing.T) {
	h := newHarness(t)
	h.relate("Carol", "knows", "Caz", day(0), nil)
	h.relate("Cee", "works_at", "Initech", day(5), nil)
	carol, caz, cee := h.s.Lookup("Carol").ID, h.s.Lookup("Caz").ID, h.s.Lookup("Cee").ID
	h.merge("Cee", "Caz")
	res := h.merge("Caz", "Carol")
	if len(res.Retracted) != 1 || len(h.s.edgesOf(carol)) != 1 {
		t.Fatalf("merge = %+v, edges %v: want the knows edge retracted", res, h.s.edgesOf(carol))
	}
	if h.s.Lookup(cee).ID != carol || h.s.Lookup("cee").ID != carol || h.s.Lookup(caz).ID != carol {
		t.Fatal("the chain does not resolve to the survivor")
	}
	h.expect("Carol", "works_at", "Initech@5..now")
	h.refoldMerged()

	d := h.s.Begin(day(0), h.id)
	for _, bad := range []struct {
		in   MergeInput
		kind kernel.Kind
	}{
		{MergeInput{"Carol", " carol "}, kernel.KindInvalid},
		{MergeInput{cee, "Carol"}, kernel.KindInvalid}, // already merged into Carol
		{MergeInput{"Nobody", "Carol"}, kernel.KindNotFound},
		{MergeInput{"Carol", "Nobody"}, kernel.KindNotFound},
	} {
		if _, err := d.MergeEntities(bad.in); kernel.KindOf(err) != bad.kind {
			t.Fatalf("merge %+v: %v, want %v", bad.in, err, bad.kind)
		}
	}
	if len(d.Events) != 0 {
		t.Fatalf("a refused merge recorded %d events", len(d.Events))
	}
	var ke *kernel.Error
	if err := (&MergeInput{Entity: "Carol", Into: " "}).Check(); !errors.As(err, &ke) || ke.Field != "into" || ke.Rule != "required" {
		t.Fatalf("check without into: %v", err)
	}

	del := h.do(func(d *Decision) error { _, err := d.DeleteEntity("cee", false); return err })
	for _, id := range []string{carol, caz, cee} {
		if !slices.Contains(del.Shred, EntityKey(id)) {
			t.Fatalf("shred = %v lacks %s's key", del.Shred, id)
		}
	}
	if h.s.Lookup(cee) != nil || h.s.Lookup("Caz") != nil {
		t.Fatal("a merged entity outlives its survivor")
	}
	h.refoldMerged()
}

// A person merged into an org: the survivor keeps its type and name.
func TestMergeKeepsTheSurvivorsType(t *testing.T) {
	h := newHarness(t)
	h.relate("Priya Raman", "works_at", "Northwind Analytics", day(0), nil)
	h.relate("Globex Corporation", "acquired", "Northwind Analytics", day(3), nil)
	person, org := h.s.Lookup("Priya Raman"), h.s.Lookup("Globex Corporation")
	if person.Type != EntityPerson || org.Type != EntityOrg {
		t.Fatalf("types %s and %s, want a person and an org", person.Type, org.Type)
	}
	h.merge("Priya Raman", "Globex Corporation")
	if got := h.s.Lookup("priya raman"); got != org || org.Type != EntityOrg || org.Name != "Globex Corporation" {
		t.Fatalf("survivor = %+v", got)
	}
	h.expect("Globex Corporation", "works_at", "Northwind Analytics@0..now")
	h.refoldMerged()
}
