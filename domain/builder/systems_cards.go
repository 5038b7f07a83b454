package builder

import (
	"slices"
	"strings"
	"time"
)

// EntityRef is an entity of an app spec, as the systems see it.
type EntityRef struct {
	Name   string // singular, lower snake: "booking"
	Plural string // lower snake: "bookings"; the primitive system's id
}

// MaxSystems bounds a company's card set (3 core, 12 entities of the spec,
// 12 of the idea, the rest from records).
const MaxSystems = 60

// SystemSet is a company's systems, in card order:
//  1. the core systems (CoreSystems);
//  2. a primitive per entity of the company's current app spec (origin
//     spec), its id the entity's plural (the app's REST collection);
//  3. a primitive per entity the idea parameter implies that step 2 lacks
//     (origin idea);
//  4. a primitive per system that has records but is in none of the above
//     (origin records: an entity of an earlier spec), sorted by id.
//
// An entity whose plural is a core system's id is left out (the core
// system stands for it). At most MaxSystems.
func SystemSet(spec, idea []EntityRef, recorded []string) []SystemDef {
	out := CoreSystems()
	seen := map[string]bool{}
	for _, d := range out {
		seen[d.ID] = true
	}
	add := func(e EntityRef, origin string) {
		if e.Plural == "" || seen[e.Plural] || !systemIDRE.MatchString(e.Plural) || len(out) >= MaxSystems {
			return
		}
		seen[e.Plural] = true
		name := e.Name
		if name == "" {
			name = e.Plural
		}
		out = append(out, SystemDef{ID: e.Plural, Label: labelOf(e.Plural), Kind: SystemKindPrimitive, Record: name, Origin: origin})
	}
	for _, e := range spec {
		add(e, OriginSpec)
	}
	for _, e := range idea {
		add(e, OriginIdea)
	}
	for _, id := range sortedCopy(recorded) {
		add(EntityRef{Plural: id}, OriginRecords)
	}
	return out
}

// FindSystem returns the system with id in set.
func FindSystem(set []SystemDef, id string) (SystemDef, bool) {
	for _, d := range set {
		if d.ID == id {
			return d, true
		}
	}
	return SystemDef{}, false
}

// SystemIDs lists the ids of set.
func SystemIDs(set []SystemDef) []string {
	ids := make([]string, len(set))
	for i, d := range set {
		ids[i] = d.ID
	}
	return ids
}

// labelOf makes a card label of a snake_case id: "support_calls" ->
// "Support calls".
func labelOf(id string) string {
	s := strings.ReplaceAll(id, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// SystemTally is what the records of one system add up to: how many are
// in each status, how many closed records have each outcome, and the last
// change.
type SystemTally struct {
	Open, Closed, Deleted int
	Outcomes              map[string]int
	LastActivity          time.Time
}

// Card is one system card: counts only, never a record's contents.
type Card struct {
	SystemDef
	Counts       map[string]int
	LastActivity *time.Time // nil: no record event yet
}

// CardOf is def's card from its tally: every count key present (zeros for
// a fresh company; nothing is invented).
func CardOf(def SystemDef, t SystemTally) Card {
	c := Card{SystemDef: def, Counts: map[string]int{}}
	for _, k := range def.CountKeys() {
		c.Counts[k] = 0
	}
	c.Counts[RecordOpen], c.Counts[RecordClosed], c.Counts[RecordDeleted] = t.Open, t.Closed, t.Deleted
	c.Counts["total"] = t.Open + t.Closed
	for o, n := range t.Outcomes {
		if _, ok := c.Counts[o]; ok {
			c.Counts[o] = n
		}
	}
	if !t.LastActivity.IsZero() {
		at := t.LastActivity.UTC()
		c.LastActivity = &at
	}
	return c
}
