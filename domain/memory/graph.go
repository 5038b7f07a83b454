package memory

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// chainKey names the edges of one subject and predicate.
func chainKey(subject, predicate string) string { return subject + "\x00" + predicate }

// chain returns the live edges of subject and predicate, ordered by
// ValidFrom and then by the order they were recorded.
func (s *Store) chain(subject, predicate string) []*Edge {
	var out []*Edge
	for id := range s.adj[subject] {
		if e := s.Edges[id]; e.SubjectID == subject && e.Predicate == predicate {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ValidFrom.Equal(out[j].ValidFrom) {
			return out[i].ValidFrom.Before(out[j].ValidFrom)
		}
		return out[i].seq < out[j].seq
	})
	return out
}

// validity is what an edge's end should be.
type validity struct {
	until *time.Time
	by    string
}

// settle works out, for one subject and predicate, which facts are current:
// sweeping the edges in ValidFrom order, an exclusive edge (a single-valued
// predicate, or one forced exclusive) ends every edge still current with a
// different object at its own ValidFrom; an edge with the same object is a
// confirmation and stays current beside it. An ending edge ("left Globex")
// ends every edge still current with its object at its ValidFrom. Non-exclusive edges end only
// when a later exclusive edge replaces them. It emits EdgeSuperseded for
// every edge whose end changes and EdgeReinstated for every edge that is
// current again, so the outcome never depends on the order facts arrived in.
func (d *Decision) settle(subject, predicate string) {
	if predicate == "" {
		return
	}
	edges := d.s.chain(subject, predicate)
	want := make(map[string]validity, len(edges))
	var current []*Edge
	for _, e := range edges {
		if e.Ends { // "left Globex": ends what it names, is never current itself
			kept := current[:0]
			for _, c := range current {
				if c.ObjectID == e.ObjectID {
					from := e.ValidFrom
					want[c.ID] = validity{until: &from, by: e.ID}
				} else {
					kept = append(kept, c)
				}
			}
			current = kept
			continue
		}
		if e.Exclusive {
			kept := current[:0]
			for _, c := range current {
				if c.ObjectID != e.ObjectID {
					from := e.ValidFrom
					want[c.ID] = validity{until: &from, by: e.ID}
				} else {
					kept = append(kept, c)
				}
			}
			current = kept
		}
		current = append(current, e)
	}
	for _, c := range current {
		want[c.ID] = validity{}
	}
	for _, e := range edges {
		if e.Ends {
			continue
		}
		w := want[e.ID]
		switch {
		case w.until == nil && e.ValidUntil != nil:
			d.emit(&EdgeReinstated{EdgeID: e.ID, UserID: d.s.UserID, At: d.now})
		case w.until != nil && (e.ValidUntil == nil || !e.ValidUntil.Equal(*w.until) || e.SupersededBy != w.by):
			d.emit(&EdgeSuperseded{EdgeID: e.ID, UserID: d.s.UserID, ByEdgeID: w.by, ValidUntil: *w.until, At: d.now})
		}
	}
}

// retractEdges removes edges and settles the facts they belonged to.
func (d *Decision) retractEdges(ids []string, reason string) {
	type pair struct{ subject, predicate string }
	touched := map[pair]bool{}
	var order []pair
	for _, id := range ids {
		e := d.s.Edges[id]
		if e == nil {
			continue
		}
		p := pair{e.SubjectID, e.Predicate}
		if !touched[p] {
			touched[p] = true
			order = append(order, p)
		}
		d.touch(e.SubjectID, e.ObjectID)
		d.emit(&EdgeRetracted{EdgeID: id, UserID: d.s.UserID, Reason: reason, At: d.now})
	}
	for _, p := range order {
		if d.s.Entities[p.subject] != nil {
			d.settle(p.subject, p.predicate)
		}
	}
}

// edgesOf lists the live edges an entity takes part in, as subject or object.
func (s *Store) edgesOf(entity string) []string {
	out := make([]string, 0, len(s.adj[entity]))
	for id := range s.adj[entity] {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Decision records the events a command decides, applying each to the
// store as it goes so later steps see earlier ones. If the events are not
// appended, the store must be folded again.
type Decision struct {
	s       *Store
	now     time.Time
	newID   func(prefix string) string
	Events  []kernel.Event
	touched map[string]bool // entities whose references changed (orphan candidates)
	Shred   []string        // keys to destroy with the append
}

// Begin starts a decision on s at now; newID mints ids with a prefix
// ("mem", "ent", "edge").
func (s *Store) Begin(now time.Time, newID func(prefix string) string) *Decision {
	return &Decision{s: s, now: now, newID: newID, touched: map[string]bool{}}
}

func (d *Decision) emit(ev kernel.Event) {
	d.Events = append(d.Events, ev)
	d.s.Apply(ev)
}

func (d *Decision) touch(ids ...string) {
	for _, id := range ids {
		if id != "" {
			d.touched[id] = true
		}
	}
}

// sweepOrphans deletes extracted entities that no live memory mentions and
// no live edge refers to any more (their names came from text that is gone).
func (d *Decision) sweepOrphans() {
	ids := make([]string, 0, len(d.touched))
	for id := range d.touched {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		ent := d.s.Entities[id]
		if ent == nil || ent.Explicit || ent.mentions > 0 || len(d.s.edgesOf(id)) > 0 {
			continue
		}
		d.emit(&EntityDeleted{EntityID: id, UserID: d.s.UserID, Reason: ReasonOrphaned, At: d.now})
		d.Shred = append(d.Shred, entityKeys(ent)...)
	}
}
