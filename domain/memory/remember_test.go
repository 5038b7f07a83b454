package memory

import (
	"testing"
	"time"
)

func (h *harness) remember(content string, at time.Time, fields func(*RememberInput)) Remembered {
	h.t.Helper()
	var out Remembered
	h.do(func(d *Decision) error {
		in := RememberInput{Content: content, Importance: 0.5, At: at}
		if fields != nil {
			fields(&in)
		}
		if err := in.Check(day(1000)); err != nil {
			return err
		}
		out = d.Remember(in, h.vocab)
		return nil
	})
	return out
}

func TestRememberedFactsSupersedeAndForgettingReinstates(t *testing.T) {
	h := newHarness(t)
	old := h.remember("Priya Raman works at Northwind Analytics.", day(0), nil)
	cur := h.remember("Priya Raman works at Globex Corporation.", day(30), nil)
	if len(cur.Superseded) != 1 || old.Merged || cur.Merged {
		t.Fatalf("remember = %+v / %+v", old, cur)
	}
	h.expect("Priya Raman", "works_at", "Northwind Analytics@0..30", "Globex Corporation@30..now")

	d := h.do(func(d *Decision) error { return d.Forget(cur.MemoryID) })
	h.expect("Priya Raman", "works_at", "Northwind Analytics@0..now")
	// Globex came only from the forgotten memory: it goes with it.
	if h.s.Lookup("Globex Corporation") != nil {
		t.Fatal("an entity only the forgotten memory named is still there")
	}
	want := map[string]bool{MemoryKey(cur.MemoryID): true}
	for _, k := range d.Shred {
		delete(want, k)
	}
	if len(want) != 0 || len(d.Shred) != 2 {
		t.Fatalf("shred = %v, want the memory's key and the orphan's", d.Shred)
	}
	h.refold()
}

func TestNearDuplicateIsMergedOnlyInTheSameNamespaceAndEntity(t *testing.T) {
	h := newHarness(t)
	a := h.remember("Lena Fischer prefers dark roast coffee in the morning.", day(0), nil)
	b := h.remember("lena fischer prefers dark roast coffee in the morning!", day(1), func(in *RememberInput) { in.Importance = 0.9 })
	if !b.Merged || b.MemoryID != a.MemoryID {
		t.Fatalf("second = %+v, want merged into %s", b, a.MemoryID)
	}
	if m := h.s.Memories[a.MemoryID]; m.Importance != 0.9 || len(m.Variants) != 1 {
		t.Fatalf("merged memory = %+v", m)
	}
	c := h.remember("Lena Fischer prefers dark roast coffee in the morning.", day(2), func(in *RememberInput) { in.Namespace = "session:s1" })
	if c.Merged {
		t.Fatal("merged across namespaces")
	}
	e := h.remember("Lena Fischer prefers dark roast coffee in the morning.", day(3), func(in *RememberInput) { in.EntityRef = "Lena Fischer" })
	if e.Merged {
		t.Fatal("merged a memory about an entity into one about no entity")
	}
	f := h.remember("Lena Fischer prefers light roast coffee in the morning.", day(4), nil)
	if f.Merged {
		t.Fatal("a different statement was merged")
	}
	h.refold()
}

func TestEntityRefIsResolvedByNameAndFirstPersonGoesToIt(t *testing.T) {
	h := newHarness(t)
	h.remember("I work at Acme Robotics.", day(0), func(in *RememberInput) { in.EntityRef = "Sam Okafor" })
	h.expect("Sam Okafor", "works_at", "Acme Robotics@0..now")
	h.remember("I work at Initech now.", day(5), func(in *RememberInput) { in.EntityRef = "sam okafor" })
	h.expect("Sam Okafor", "works_at", "Acme Robotics@0..5", "Initech@5..now")
	if n := len(h.s.Entities); n != 3 {
		t.Fatalf("%d entities, want Sam, Acme and Initech", n)
	}
}

// A memory about the caller's entity "dana" that names her in full ("Dana
// Whitfield is the CTO") is about that entity: no second entity, the facts
// attach to it, and the full name becomes its alias (so later memories
// naming Dana Whitfield find her too). A name that is already another
// entity's stays that entity's.
func TestTheMemorysEntityIsResolvedWhenTheTextNamesIt(t *testing.T) {
	h := newHarness(t)
	h.remember("Dana Whitfield is the CTO at Globex Corporation.", day(0), func(in *RememberInput) { in.EntityRef = "dana" })
	dana := h.s.Lookup("dana")
	if dana == nil || h.s.Lookup("Dana Whitfield") != dana {
		t.Fatalf("dana %v, Dana Whitfield %v: want one entity known by both names", dana, h.s.Lookup("Dana Whitfield"))
	}
	h.expect("dana", "works_at", "Globex Corporation@0..now")
	people := 0
	for _, e := range h.s.Entities {
		if e.Type == "person" {
			people++
		}
	}
	if people != 1 {
		t.Fatalf("%d people, want dana alone", people)
	}
	// Later memories naming her in full, with or without the entity, are hers.
	h.remember("Dana Whitfield moved from Porto to Madrid.", day(10), nil)
	h.expect("Dana Whitfield", "lives_in", "Madrid@10..now")
	// Another person with the same given name, already known, is not taken.
	h.remember("Dana Kim works at Initech.", day(12), nil)
	h.remember("Dana Kim joined the board.", day(13), func(in *RememberInput) { in.EntityRef = "dana" })
	if h.s.Lookup("Dana Kim") == dana {
		t.Fatal("an existing entity was taken over by the memory's entity")
	}
	h.refold()
}

func TestDeleteEntityWithCascadeForgetsItsMemories(t *testing.T) {
	h := newHarness(t)
	m1 := h.remember("Omar Haddad moved to Lisbon.", day(0), nil)
	m2 := h.remember("Omar Haddad uses Kubernetes at work.", day(1), nil)
	keep := h.remember("The team offsite is in Porto.", day(2), nil)
	var res EntityDeletion
	d := h.do(func(d *Decision) error {
		var err error
		res, err = d.DeleteEntity("Omar Haddad", true)
		return err
	})
	if res.MemoriesRemoved != 2 || h.s.Memories[m1.MemoryID] != nil || h.s.Memories[m2.MemoryID] != nil ||
		h.s.Memories[keep.MemoryID] == nil {
		t.Fatalf("deletion = %+v", res)
	}
	for _, id := range []string{m1.MemoryID, m2.MemoryID} {
		found := false
		for _, k := range d.Shred {
			found = found || k == MemoryKey(id)
		}
		if !found {
			t.Fatalf("memory %s's key is not shredded: %v", id, d.Shred)
		}
	}
	if len(h.s.Edges) != 0 {
		t.Fatalf("edges left: %v", h.s.Edges)
	}
	h.refold()
}

func TestOneChangedWordIsNeverMerged(t *testing.T) {
	h := newHarness(t)
	a := h.remember("Sam ordered a new camera for the home office setup and expects delivery next week.", day(0), nil)
	for i, other := range []string{
		"Sam ordered a new router for the home office setup and expects delivery next week.",
		"Sam ordered a new camera for the home office setup and expects delivery this week.",
		"Sam ordered a new camera for the home office setup and expects delivery next week urgently.",
	} {
		if r := h.remember(other, day(i+1), nil); r.Merged {
			t.Fatalf("%q was merged into %q", other, a.MemoryID)
		}
	}
	if r := h.remember("sam ordered a NEW camera, for the home office setup; expects delivery next week", day(9), nil); !r.Merged {
		t.Fatal("the same words restated were not merged")
	}
}

// "Priya left Globex" ends the fact at the time it was stated, whatever the
// order the statements arrive in; re-joining starts a new fact; forgetting
// the statement makes the fact current again.
func TestEndedFactsEndTheEdge(t *testing.T) {
	h := newHarness(t)
	h.remember("Priya Raman works at Globex Corporation.", day(0), nil)
	left := h.remember("Priya Raman left Globex Corporation last week.", day(40), nil)
	if len(left.Superseded) != 1 {
		t.Fatalf("left = %+v, want one fact ended", left)
	}
	h.expect("Priya Raman", "works_at", "Globex Corporation@0..40")
	h.remember("Priya Raman rejoined Globex Corporation as a staff engineer.", day(60), nil)
	h.expect("Priya Raman", "works_at", "Globex Corporation@0..40", "Globex Corporation@60..now")
	h.do(func(d *Decision) error { return d.Forget(left.MemoryID) })
	h.expect("Priya Raman", "works_at", "Globex Corporation@0..now", "Globex Corporation@60..now")
	h.refold()

	// Out of order: the end is stated before the fact it ends is recorded.
	h.remember("Tomas Berg no longer works at Initech Systems.", day(50), nil)
	h.remember("Tomas Berg works at Initech Systems.", day(10), nil)
	h.expect("Tomas Berg", "works_at", "Initech Systems@10..50")
	// An end names its object: another employer is untouched.
	h.remember("Tomas Berg works at Hooli Labs.", day(55), nil)
	h.remember("Tomas Berg left Initech Systems.", day(70), nil)
	h.expect("Tomas Berg", "works_at", "Initech Systems@10..50", "Hooli Labs@55..now")
	h.refold()
}

// A thing's state is a single-valued fact: the newest state supersedes the
// one before, whoever changed it and however it is phrased.
func TestStatesOfThingsSupersede(t *testing.T) {
	h := newHarness(t)
	h.remember("The checkout bug is still open, customers keep hitting it.", day(0), nil)
	fixed := h.remember("Ana fixed the checkout bug this morning.", day(5), nil)
	if len(fixed.Superseded) != 1 {
		t.Fatalf("fixing superseded %v, want the open state", fixed.Superseded)
	}
	again := h.remember("The checkout bug was reopened after the release.", day(9), nil)
	if len(again.Superseded) != 1 {
		t.Fatalf("reopening superseded %v", again.Superseded)
	}
	h.expect("checkout bug", "status", "open@0..5", "fixed@5..9", "reopened@9..now")
	// The memory about Acme names a thing of its own, not an alias of Acme.
	h.remember("Acme's procurement team is slow.", day(10), func(in *RememberInput) { in.EntityRef = "Acme" })
	h.remember("The Acme deal closed.", day(11), func(in *RememberInput) { in.EntityRef = "Acme" })
	if e := h.s.Lookup("Acme deal"); e == nil || e == h.s.Lookup("Acme") {
		t.Fatalf("the Acme deal resolved to %+v", e)
	}
	h.expect("Acme deal", "status", "closed@11..now")
}
