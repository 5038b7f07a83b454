package memory

import (
	"fmt"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func day(n int) time.Time { return t0.AddDate(0, 0, n) }

// harness runs decisions on one store and keeps every event, so a test
// can fold them again and compare.
type harness struct {
	t      *testing.T
	s      *Store
	events []kernel.Event
	n      int
	vocab  Vocabulary
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, s: NewStore("u1"), vocab: NewVocabulary()}
}

func (h *harness) id(prefix string) string {
	h.n++
	return fmt.Sprintf("%s_%04d", prefix, h.n)
}

func (h *harness) do(fn func(d *Decision) error) *Decision {
	h.t.Helper()
	d := h.s.Begin(day(1000), h.id)
	if err := fn(d); err != nil {
		h.t.Fatal(err)
	}
	h.events = append(h.events, d.Events...)
	return d
}

func (h *harness) relate(subject, predicate, object string, at time.Time, exclusive *bool) Related {
	h.t.Helper()
	var out Related
	h.do(func(d *Decision) error {
		in := RelateInput{Subject: subject, Predicate: predicate, Object: object, Confidence: 0.8, ValidFrom: at, Exclusive: exclusive}
		if err := in.Check(day(1000)); err != nil {
			return err
		}
		var err error
		out, err = d.Relate(in, h.vocab)
		return err
	})
	return out
}

// timeline is subject's edges for predicate as "object@from..until".
func (h *harness) timeline(subject, predicate string) []string {
	ent := h.s.Lookup(subject)
	if ent == nil {
		return nil
	}
	var out []string
	for _, e := range h.s.chain(ent.ID, predicate) {
		if e.Ends {
			continue // a statement that a fact ended is no fact of its own
		}
		until := "now"
		if e.ValidUntil != nil {
			until = fmt.Sprint(int(e.ValidUntil.Sub(t0).Hours() / 24))
		}
		out = append(out, fmt.Sprintf("%s@%d..%s", h.s.Entities[e.ObjectID].Name, int(e.ValidFrom.Sub(t0).Hours()/24), until))
	}
	return out
}

func (h *harness) expect(subject, predicate string, want ...string) {
	h.t.Helper()
	got := h.timeline(subject, predicate)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		h.t.Fatalf("timeline %s %s = %v, want %v", subject, predicate, got, want)
	}
}

// refold checks that folding the recorded events again gives the same graph.
func (h *harness) refold() {
	h.t.Helper()
	s := NewStore("u1")
	for _, ev := range h.events {
		s.Apply(ev)
	}
	if len(s.Edges) != len(h.s.Edges) || len(s.Entities) != len(h.s.Entities) || len(s.Memories) != len(h.s.Memories) {
		h.t.Fatalf("refold: %d edges %d entities %d memories, want %d %d %d", len(s.Edges), len(s.Entities),
			len(s.Memories), len(h.s.Edges), len(h.s.Entities), len(h.s.Memories))
	}
	for id, e := range h.s.Edges {
		r := s.Edges[id]
		if r == nil || (r.ValidUntil == nil) != (e.ValidUntil == nil) || r.ValidUntil != nil && !r.ValidUntil.Equal(*e.ValidUntil) {
			h.t.Fatalf("refold: edge %s differs: %+v vs %+v", id, r, e)
		}
	}
}

func TestNewObjectOfSingleValuedPredicateSupersedesTheOld(t *testing.T) {
	h := newHarness(t)
	h.relate("Alice Chen", "works_at", "Acme Robotics", day(0), nil)
	r := h.relate("Alice Chen", "works at", "Globex", day(100), nil)
	h.expect("Alice Chen", "works_at", "Acme Robotics@0..100", "Globex@100..now")
	if len(r.Superseded) != 1 {
		t.Fatalf("superseded = %v, want the Acme edge", r.Superseded)
	}
	h.refold()
}

func TestFactsArrivingOutOfOrderSettleByValidFrom(t *testing.T) {
	h := newHarness(t)
	h.relate("Alice", "works_at", "Initech", day(300), nil)
	h.relate("Alice", "works_at", "Acme", day(0), nil)
	h.expect("Alice", "works_at", "Acme@0..300", "Initech@300..now")
	h.relate("Alice", "works_at", "Globex", day(100), nil) // in the middle
	h.expect("Alice", "works_at", "Acme@0..100", "Globex@100..300", "Initech@300..now")
	h.refold()
}

func TestTheSameFactStatedAgainIsAConfirmation(t *testing.T) {
	h := newHarness(t)
	h.relate("Bob", "lives_in", "Lisbon", day(0), nil)
	h.relate("Bob", "lives_in", "Lisbon", day(50), nil)
	h.expect("Bob", "lives_in", "Lisbon@0..now", "Lisbon@50..now")
	h.relate("Bob", "lives_in", "Berlin", day(90), nil)
	h.expect("Bob", "lives_in", "Lisbon@0..90", "Lisbon@50..90", "Berlin@90..now")
	h.refold()
}

func TestMultiValuedPredicatesKeepEveryObjectUnlessForced(t *testing.T) {
	h := newHarness(t)
	h.relate("Carol", "likes", "coffee", day(0), nil)
	h.relate("Carol", "likes", "tea", day(10), nil)
	h.expect("Carol", "likes", "coffee@0..now", "tea@10..now")
	yes := true
	h.relate("Carol", "likes", "matcha", day(20), &yes)
	h.expect("Carol", "likes", "coffee@0..20", "tea@10..20", "matcha@20..now")
	h.refold()
}

func TestVocabularyIsExtensible(t *testing.T) {
	h := newHarness(t)
	h.vocab = NewVocabulary("Favourite Color")
	h.relate("Dan", "favourite_color", "blue", day(0), nil)
	h.relate("Dan", "favourite color", "green", day(5), nil)
	h.expect("Dan", "favourite_color", "blue@0..5", "green@5..now")
}

func TestRelateRefusesAFactAboutItself(t *testing.T) {
	h := newHarness(t)
	d := h.s.Begin(day(0), h.id)
	_, err := d.Relate(RelateInput{Subject: "Acme", Predicate: "owns", Object: " acme ", Confidence: 0.5, ValidFrom: day(0)}, h.vocab)
	if kernel.KindOf(err) != kernel.KindInvalid || len(d.Events) != 0 {
		t.Fatalf("err = %v with %d events, want invalid and none", err, len(d.Events))
	}
}

func TestDeletingAnEntityRemovesItsEdgesAndReinstatesWhatTheyReplaced(t *testing.T) {
	h := newHarness(t)
	h.relate("Erin", "works_at", "Acme", day(0), nil)
	h.relate("Erin", "works_at", "Globex", day(10), nil)
	h.relate("Frank", "works_at", "Globex", day(5), nil)
	var res EntityDeletion
	d := h.do(func(d *Decision) error {
		var err error
		res, err = d.DeleteEntity("globex", false)
		return err
	})
	if res.EdgesRemoved != 2 || res.MemoriesRemoved != 0 {
		t.Fatalf("deletion = %+v, want 2 edges", res)
	}
	h.expect("Erin", "works_at", "Acme@0..now")
	h.expect("Frank", "works_at")
	if len(d.Shred) != 1 || d.Shred[0] != EntityKey(res.EntityID) {
		t.Fatalf("shred = %v, want the entity's key", d.Shred)
	}
	if h.s.Lookup("Globex") != nil {
		t.Fatal("the entity is still there")
	}
	h.refold()
}

func TestUnknownEntityOrMemoryIsNotFound(t *testing.T) {
	h := newHarness(t)
	d := h.s.Begin(day(0), h.id)
	if _, err := d.DeleteEntity("nobody", true); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("delete entity: %v", err)
	}
	if err := d.Forget("mem_x"); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("forget: %v", err)
	}
}

func TestPredicatesAreNormalized(t *testing.T) {
	for in, want := range map[string]string{"Works At": "works_at", "works-at": "works_at", " lives  in ": "lives_in",
		"reports_to": "reports_to", "née": "née"} {
		got, err := NormalizePredicate(in)
		if err != nil || got != want {
			t.Errorf("NormalizePredicate(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "  ", "a/b", "x;drop"} {
		if _, err := NormalizePredicate(bad); kernel.KindOf(err) != kernel.KindInvalid {
			t.Errorf("NormalizePredicate(%q) = %v, want invalid", bad, err)
		}
	}
}
