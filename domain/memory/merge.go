package memory

import (
	"slices"
	"sort"

	"github.com/strata-platform/strata/domain/kernel"
)

// MergeInput names the entity to merge away and the entity it merges into,
// each by id, name or alias.
type MergeInput struct {
	Entity string // merged into Into; its id then resolves to Into's entity
	Into   string // the survivor
}

// Check validates the input: both names are required, at most MaxName
// characters.
func (in *MergeInput) Check() error {
	if err := checkName("entity_id", in.Entity, true); err != nil {
		return err
	}
	return checkName("into", in.Into, true)
}

// EntityMerge is the outcome of MergeEntities.
type EntityMerge struct {
	SurvivorID string
	MergedID   string
	Retracted  []string // edges between the two: they would relate the survivor to itself
	Superseded []string // edges the survivor's settled timelines end (or end at another time)
	Reinstated []string // edges current again (what replaced them now names the same object)
}

// MergeEntities merges the entity in.Entity names into the one in.Into
// names, which survives: the merged entity's name and aliases become the
// survivor's aliases, its memories and its edges (as subject or object)
// are the survivor's, and its id resolves to the survivor from then on.
// The survivor keeps its own name and type (a person merged into an org
// stays an org). Edges between the two are retracted (ReasonMerged); then
// every timeline the merged edges belong to is settled again, so two
// current facts of a single-valued predicate become one current and one
// superseded (EdgeSuperseded), and an edge superseded only because its
// object had two entities is current again (EdgeReinstated). Nothing is
// deleted: the merged entity's events stay, and its key lives on until the
// survivor is deleted. An entity cannot be merged into itself (nor into the
// entity it was already merged into): invalid, field "into", rule
// "distinct"; an unknown name is not found.
func (d *Decision) MergeEntities(in MergeInput) (EntityMerge, error) {
	gone := d.s.Lookup(in.Entity)
	if gone == nil {
		return EntityMerge{}, NotFound("entity", in.Entity)
	}
	survivor := d.s.Lookup(in.Into)
	if survivor == nil {
		return EntityMerge{}, NotFound("entity", in.Into)
	}
	if gone == survivor {
		return EntityMerge{}, kernel.Invalid("into", "distinct",
			"into must name another entity than entity_id (an entity cannot be merged into itself)")
	}
	type pair struct{ subject, predicate string }
	seen := map[pair]bool{}
	var pairs []pair
	var between []string
	for _, id := range d.s.edgesOf(gone.ID) {
		e := d.s.Edges[id]
		subject := e.SubjectID
		if subject == gone.ID {
			subject = survivor.ID
		}
		if p := (pair{subject, e.Predicate}); !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
		if e.SubjectID == survivor.ID || e.ObjectID == survivor.ID {
			between = append(between, id)
		}
	}
	for _, id := range between {
		d.emit(&EdgeRetracted{EdgeID: id, UserID: d.s.UserID, Reason: ReasonMerged, At: d.now})
	}
	d.emit(&EntitiesMerged{UserID: d.s.UserID, SurvivorID: survivor.ID, MergedID: gone.ID, At: d.now})
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].subject != pairs[j].subject {
			return pairs[i].subject < pairs[j].subject
		}
		return pairs[i].predicate < pairs[j].predicate
	})
	before := len(d.Events)
	for _, p := range pairs {
		if d.s.Entities[p.subject] != nil {
			d.settle(p.subject, p.predicate)
		}
	}
	out := EntityMerge{SurvivorID: survivor.ID, MergedID: gone.ID, Retracted: between}
	for _, ev := range d.Events[before:] {
		switch e := ev.(type) {
		case *EdgeSuperseded:
			out.Superseded = append(out.Superseded, e.EdgeID)
		case *EdgeReinstated:
			out.Reinstated = append(out.Reinstated, e.EdgeID)
		}
	}
	return out, nil
}

// MergeNames is a survivor's aliases after a merge: its aliases, then each
// of names (the merged entity's name and aliases) that is not one of its
// names yet, ignoring case and runs of white space. The fold and the read
// model both merge names with it.
func MergeNames(name string, aliases, names []string) []string {
	out := append([]string(nil), aliases...)
	have := map[string]bool{normName(name): true}
	for _, a := range aliases {
		have[normName(a)] = true
	}
	for _, n := range names {
		if k := normName(n); k != "" && !have[k] {
			have[k] = true
			out = append(out, n)
		}
	}
	return out
}

// merge folds EntitiesMerged: b's names, memories and edges become a's,
// and b's id resolves to a.
func (s *Store) merge(a, b string) {
	survivor, gone := s.Entities[a], s.Entities[b]
	if survivor == nil || gone == nil || a == b {
		return
	}
	names := append([]string{gone.Name}, gone.Aliases...)
	survivor.Aliases = MergeNames(survivor.Name, survivor.Aliases, names)
	for _, name := range names {
		s.dropName(b, name)
		s.addName(a, name)
	}
	survivor.Explicit = survivor.Explicit || gone.Explicit
	if gone.FirstSeen.Before(survivor.FirstSeen) {
		survivor.FirstSeen = gone.FirstSeen
	}
	if gone.LastSeen.After(survivor.LastSeen) {
		survivor.LastSeen = gone.LastSeen
	}
	survivor.Merged = append(append(survivor.Merged, b), gone.Merged...)
	delete(s.Entities, b)
	for k, v := range s.merged {
		if v == b {
			s.merged[k] = a
		}
	}
	s.merged[b] = a
	survivor.mentions = 0
	for _, m := range s.Memories {
		if m.EntityID == b || slices.Contains(m.Mentions, b) {
			if m.EntityID == b {
				m.EntityID = a
			}
			m.Mentions = repoint(m.Mentions, b, a, m.EntityID)
		}
		if slices.Contains(m.entities(), a) {
			survivor.mentions++
		}
	}
	for id := range s.adj[b] {
		e := s.Edges[id]
		if e.SubjectID == b {
			e.SubjectID = a
		}
		if e.ObjectID == b {
			e.ObjectID = a
		}
		s.link(a, id)
	}
	delete(s.adj, b)
}

// repoint returns mentions with from replaced by to, once, and without
// about (a memory's own entity is not among its mentions). It builds a new
// slice: the old one may be an event's.
func repoint(mentions []string, from, to, about string) []string {
	out := make([]string, 0, len(mentions))
	for _, id := range mentions {
		if id == from {
			id = to
		}
		if id != about && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// entityKeys lists the data keys an entity's deletion destroys: its own
// and those of the entities merged into it (their names are its aliases).
func entityKeys(ent *Entity) []string {
	out := []string{EntityKey(ent.ID)}
	for _, id := range ent.Merged {
		out = append(out, EntityKey(id))
	}
	return out
}
