package memory

import (
	"sort"

	"github.com/strata-platform/strata/domain/kernel"
)

// NotFound is the answer for a memory or entity that does not exist in the
// caller's store (another user's is not found either).
func NotFound(what, id string) error { return kernel.NotFound(what + " " + id + " was not found") }

// Forget removes a memory: the facts extracted from it are retracted (a
// fact it had superseded becomes current again), extracted entities nothing
// refers to any more are deleted, and the memory's key (and the orphans')
// is to be destroyed with the append.
func (d *Decision) Forget(memoryID string) error {
	if d.s.Memories[memoryID] == nil {
		return NotFound("memory", memoryID)
	}
	d.forget(memoryID, ReasonForgotten)
	d.sweepOrphans()
	return nil
}

func (d *Decision) forget(memoryID, reason string) {
	m := d.s.Memories[memoryID]
	d.retractEdges(append([]string(nil), m.Edges...), reason)
	d.touch(m.entities()...)
	d.emit(&MemoryForgotten{MemoryID: memoryID, UserID: d.s.UserID, Reason: reason, At: d.now})
	d.Shred = append(d.Shred, MemoryKey(memoryID))
}

// EntityDeletion is the outcome of DeleteEntity.
type EntityDeletion struct {
	EntityID        string
	EdgesRemoved    int
	MemoriesRemoved int
}

// DeleteEntity removes the entity ref names (an id, a name or an alias)
// with every edge it is the subject or object of; with cascade, the
// memories about or mentioning it are forgotten too. One decision, so one
// append.
func (d *Decision) DeleteEntity(ref string, cascade bool) (EntityDeletion, error) {
	ent := d.s.Lookup(ref)
	if ent == nil {
		return EntityDeletion{}, NotFound("entity", ref)
	}
	edges := d.s.edgesOf(ent.ID)
	var memories []string
	if cascade {
		for id, m := range d.s.Memories {
			for _, e := range m.entities() {
				if e == ent.ID {
					memories = append(memories, id)
					break
				}
			}
		}
		sort.Strings(memories)
		for _, id := range memories {
			for _, e := range d.s.Memories[id].Edges {
				edges = append(edges, e)
			}
		}
	}
	edges = unique(edges)
	sort.Strings(edges)
	d.retractEdges(edges, ReasonEntityDeleted)
	for _, id := range memories {
		d.forget(id, ReasonEntityDeleted)
	}
	d.emit(&EntityDeleted{EntityID: ent.ID, UserID: d.s.UserID, Reason: "deleted", Cascade: cascade,
		EdgesRemoved: edges, MemoriesRemoved: memories, At: d.now})
	d.Shred = append(d.Shred, entityKeys(ent)...)
	delete(d.touched, ent.ID)
	d.sweepOrphans()
	return EntityDeletion{EntityID: ent.ID, EdgesRemoved: len(edges), MemoriesRemoved: len(memories)}, nil
}
