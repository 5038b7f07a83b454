package memory

import (
	"sort"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/domain/memory/text"
)

// FuzzyNameThreshold is the trigram similarity (pg_trgm's measure) above
// which a new name is taken to be a misspelling of one existing entity of
// the same type ("Alise Chen" for "Alice Chen").
const FuzzyNameThreshold = 0.75

func normName(name string) string { return strings.ToLower(strings.Join(strings.Fields(name), " ")) }

func (s *Store) addName(id, name string) {
	n := normName(name)
	if n == "" {
		return
	}
	if _, taken := s.names[n]; !taken {
		s.names[n] = id
	}
	for g := range text.Trigrams(n) {
		set := s.grams[g]
		if set == nil {
			set = map[string]struct{}{}
			s.grams[g] = set
		}
		set[id] = struct{}{}
	}
}

func (s *Store) dropName(id, name string) {
	n := normName(name)
	if s.names[n] == id {
		delete(s.names, n)
	}
	for g := range text.Trigrams(n) {
		delete(s.grams[g], id)
	}
}

// Lookup finds an entity by id, by name or alias (ignoring case and runs
// of white space), or nil. The id of an entity merged into another (and
// the names it had) finds the survivor.
func (s *Store) Lookup(ref string) *Entity {
	if e := s.Entities[ref]; e != nil {
		return e
	}
	if id, ok := s.merged[ref]; ok {
		return s.Entities[id]
	}
	if id, ok := s.names[normName(ref)]; ok {
		return s.Entities[id]
	}
	return nil
}

// resolve finds the entity a name extracted from text refers to: an exact
// name or alias; for a person's single given name, the one person whose
// name starts with it; otherwise one entity of the same type whose name is
// at least FuzzyNameThreshold similar. alias reports whether name should be
// recorded as a new alias of the entity found.
func (s *Store) resolve(name, kind string) (ent *Entity, alias bool) {
	if e := s.Lookup(name); e != nil {
		return e, false
	}
	n := normName(name)
	if kind == "person" && !strings.Contains(n, " ") {
		var found *Entity
		for id := range s.candidates(n) {
			e := s.Entities[id]
			if e != nil && e.Type == "person" && strings.HasPrefix(normName(e.Name), n+" ") {
				if found != nil && found != e {
					return nil, false // ambiguous: two people share the given name
				}
				found = e
			}
		}
		if found != nil {
			return found, true
		}
	}
	var best *Entity
	bestSim, tie := 0.0, false
	ids := make([]string, 0, 8)
	for id := range s.candidates(n) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		e := s.Entities[id]
		if e == nil || e.Type != kind || e.Name == "" {
			continue
		}
		sim := text.TrigramSimilarity(n, normName(e.Name))
		switch {
		case sim > bestSim:
			best, bestSim, tie = e, sim, false
		case sim == bestSim:
			tie = true
		}
	}
	if best != nil && bestSim >= FuzzyNameThreshold && !tie {
		return best, true
	}
	return nil, false
}

// candidates are the entities sharing at least a third of name's trigrams.
func (s *Store) candidates(n string) map[string]struct{} {
	grams := text.Trigrams(n)
	counts := map[string]int{}
	for g := range grams {
		for id := range s.grams[g] {
			counts[id]++
		}
	}
	out := map[string]struct{}{}
	need := (len(grams) + 2) / 3
	for id, c := range counts {
		if c >= need {
			out[id] = struct{}{}
		}
	}
	return out
}

// namesInFull reports whether name, found in a memory about e, names e in full:
// e is known by a given name or a shorter name ("dana", "Acme") that name
// extends by whole words ("Dana Whitfield", "Acme Robotics"), or one of e's
// aliases is name. A name that is already another entity's is that
// entity's, never e's.
func (s *Store) namesInFull(e *Entity, name, kind string) bool {
	if e == nil || e.Name == "" {
		return false
	}
	if other := s.Lookup(name); other != nil {
		return other == e
	}
	if !e.Explicit && e.Type != kind {
		return false
	}
	if extract.HasStateHead(name) && !extract.HasStateHead(e.Name) {
		return false // "the Acme deal" is a thing of its own, not Acme
	}
	n := normName(name)
	for _, known := range append([]string{e.Name}, e.Aliases...) {
		if k := normName(known); k != "" && strings.HasPrefix(n, k+" ") {
			return true
		}
	}
	return false
}

// aboutEntity is entity for a name found in a memory about about: when the
// name names about in full (Store.namesInFull), it is about, and the name is
// recorded as its alias; otherwise the name is resolved as usual.
func (d *Decision) aboutEntity(about *Entity, name, kind string, at time.Time) *Entity {
	name = strings.Join(strings.Fields(name), " ")
	if about != nil && d.s.Lookup(name) == nil && d.s.namesInFull(about, name, kind) {
		d.emit(&EntityAliased{EntityID: about.ID, UserID: d.s.UserID, At: d.now, Text: &EntityText{Name: name}})
		return about
	}
	return d.entity(name, kind, false, at)
}

// entity returns the entity name refers to, recording it (or the alias)
// when new, as first seen at (the business time of what named it).
// explicit marks entities the caller named.
func (d *Decision) entity(name, kind string, explicit bool, at time.Time) *Entity {
	name = strings.Join(strings.Fields(name), " ")
	if ent, alias := d.s.resolve(name, kind); ent != nil {
		if alias {
			d.emit(&EntityAliased{EntityID: ent.ID, UserID: d.s.UserID, At: d.now, Text: &EntityText{Name: name}})
		}
		return ent
	}
	id := d.newID("ent")
	d.emit(&EntityRecognized{EntityID: id, UserID: d.s.UserID, EntityType: kind, Explicit: explicit, At: at,
		Text: &EntityText{Name: name}})
	return d.s.Entities[id]
}
