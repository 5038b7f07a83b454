// Package memory is the memory domain: one user's memories, the entities
// they mention and the temporal graph of facts about those entities.
//
// A user's whole memory store is one stream (StoreStream), so every decision
// (merging a near-duplicate, resolving a name to an entity, superseding a
// fact) is made on one fold under one optimistic version check, and a
// command's events commit together or not at all.
//
// Personal data (memory text, tags, metadata, entity names, predicates) is
// never stored in the clear in an event: each event carries it as a
// kernel.Sealed under a per-subject key (the memory's, or the entity's), and
// keeps the plain value in a field that is not serialised. The command layer
// seals before appending and opens after loading; destroying a key
// (forgetting a memory, deleting an entity) makes those values unreadable in
// every copy of the history.
package memory

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamType is the type of a user's memory store stream.
const StreamType = "memory.store"

// StoreStream is the stream id of user's memory store.
func StoreStream(user string) string { return "memory-store:" + user }

// MemoryKey and EntityKey name the data keys personal data is sealed under.
func MemoryKey(memoryID string) string { return "memory:" + memoryID }

// EntityKey names an entity's data key (its name and aliases, and the facts
// recorded about it with /relate).
func EntityKey(entityID string) string { return "entity:" + entityID }

// MemoryText is a memory's sealed part.
type MemoryText struct {
	Content  string         `json:"content"`
	Tags     []string       `json:"tags,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// MemoryRemembered records a new memory.
type MemoryRemembered struct {
	MemoryID   string        `json:"memory_id"`
	UserID     string        `json:"user_id"`
	Namespace  string        `json:"namespace"`
	MemoryType string        `json:"memory_type"`
	Importance float64       `json:"importance"`
	EntityID   string        `json:"entity_id,omitempty"` // the entity the memory is about
	Mentions   []string      `json:"mentions,omitempty"`  // entity ids found in the text
	Secret     kernel.Sealed `json:"secret"`              // MemoryText under MemoryKey(MemoryID)
	At         time.Time     `json:"at"`                  // when it was stated (business time)
	Text       *MemoryText   `json:"-"`                   // plain; nil when the key was destroyed
}

// MergedText is the sealed part of a merge: the other phrasing and what it added.
type MergedText struct {
	Variant  string         `json:"variant"`
	Tags     []string       `json:"tags,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// MemoryMerged records that a near-duplicate of an existing memory was
// stated again: the memory keeps its text, gains the new phrasing as a
// variant, its importance becomes the higher of the two, and new tags and
// metadata keys are added. StatedAt is when the new phrasing was stated
// (business time; At is when the merge was decided); events recorded before
// it existed have none, and their At stands in.
type MemoryMerged struct {
	MemoryID   string        `json:"memory_id"`
	UserID     string        `json:"user_id"`
	Importance float64       `json:"importance"`
	Similarity float64       `json:"similarity"`
	Secret     kernel.Sealed `json:"secret"` // MergedText under MemoryKey(MemoryID)
	At         time.Time     `json:"at"`
	StatedAt   time.Time     `json:"stated_at,omitzero"`
	Text       *MergedText   `json:"-"`
}

// Stated is when the merged phrasing was stated: StatedAt, else At.
func (e *MemoryMerged) Stated() time.Time {
	if e.StatedAt.IsZero() {
		return e.At
	}
	return e.StatedAt
}

// Reasons a memory or an edge is removed.
const (
	ReasonForgotten     = "forgotten"      // forget was called
	ReasonEntityDeleted = "entity_deleted" // its entity was deleted (with cascade)
	ReasonOrphaned      = "orphaned"       // an extracted entity no memory or fact refers to any more
	ReasonMerged        = "merged"         // an edge between two merged entities (it would relate the survivor to itself)
)

// MemoryForgotten records that a memory was deleted; its key is destroyed
// in the same transaction.
type MemoryForgotten struct {
	MemoryID string    `json:"memory_id"`
	UserID   string    `json:"user_id"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
}

// EntityText is an entity's sealed name (or one alias).
type EntityText struct {
	Name string `json:"name"`
}

// EntityRecognized records a new entity in the user's graph.
type EntityRecognized struct {
	EntityID   string        `json:"entity_id"`
	UserID     string        `json:"user_id"`
	EntityType string        `json:"entity_type"`
	Explicit   bool          `json:"explicit"` // named by the caller (entity_id, relate), not only extracted
	Secret     kernel.Sealed `json:"secret"`   // EntityText under EntityKey(EntityID)
	At         time.Time     `json:"at"`
	Text       *EntityText   `json:"-"`
}

// EntityAliased records another name of an entity.
type EntityAliased struct {
	EntityID string        `json:"entity_id"`
	UserID   string        `json:"user_id"`
	Secret   kernel.Sealed `json:"secret"` // EntityText under EntityKey(EntityID)
	At       time.Time     `json:"at"`
	Text     *EntityText   `json:"-"`
}

// EntityDeleted records that an entity was removed with its edges (and,
// with cascade, the memories mentioning it, each also MemoryForgotten in the
// same append); its key is destroyed.
type EntityDeleted struct {
	EntityID        string    `json:"entity_id"`
	UserID          string    `json:"user_id"`
	Reason          string    `json:"reason"` // "deleted" or ReasonOrphaned
	Cascade         bool      `json:"cascade"`
	EdgesRemoved    []string  `json:"edges_removed,omitempty"`
	MemoriesRemoved []string  `json:"memories_removed,omitempty"`
	At              time.Time `json:"at"`
}

// EdgeText is an edge's sealed predicate.
type EdgeText struct {
	Predicate string `json:"predicate"`
}

// EdgeAsserted records a fact: subject predicate object, valid from
// ValidFrom. An edge extracted from a memory is sealed under the memory's
// key (forgetting the memory makes it unreadable); one recorded with relate
// is sealed under its subject's key. With Ends, the statement is that the
// fact had stopped holding by ValidFrom ("Ana left Globex", "no longer
// lives in Oslo"): such an edge is never current itself, and it ends the
// subject's edges with the same predicate and object that began before it.
type EdgeAsserted struct {
	EdgeID     string        `json:"edge_id"`
	UserID     string        `json:"user_id"`
	SubjectID  string        `json:"subject_id"`
	ObjectID   string        `json:"object_id"`
	Confidence float64       `json:"confidence"`
	Exclusive  bool          `json:"exclusive"` // single-valued: a different object supersedes it
	Ends       bool          `json:"ends,omitempty"`
	MemoryID   string        `json:"memory_id,omitempty"`
	ValidFrom  time.Time     `json:"valid_from"`
	Secret     kernel.Sealed `json:"secret"`
	At         time.Time     `json:"at"`
	Text       *EdgeText     `json:"-"`
}

// EdgeSuperseded records that a fact stopped being true at ValidUntil
// because another fact (ByEdgeID) replaced it. It is recorded again with a
// new ValidUntil when an earlier replacement arrives later.
type EdgeSuperseded struct {
	EdgeID     string    `json:"edge_id"`
	UserID     string    `json:"user_id"`
	ByEdgeID   string    `json:"by_edge_id"`
	ValidUntil time.Time `json:"valid_until"`
	At         time.Time `json:"at"`
}

// EdgeReinstated records that a superseded fact is current again because
// the fact that replaced it was removed.
type EdgeReinstated struct {
	EdgeID string    `json:"edge_id"`
	UserID string    `json:"user_id"`
	At     time.Time `json:"at"`
}

// EdgeRetracted records that an edge was removed from the graph (its memory
// was forgotten or one of its entities deleted).
type EdgeRetracted struct {
	EdgeID string    `json:"edge_id"`
	UserID string    `json:"user_id"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// EntitiesMerged records that the caller merged one entity into another:
// from then on the survivor answers for both. The merged entity's name and
// aliases become the survivor's aliases, its memories (about it or
// mentioning it) and its edges (as subject or object) are the survivor's,
// and its id resolves to the survivor. The event carries ids only: the
// merged entity's names stay sealed under its own key in the events that
// recorded them, and deleting the survivor destroys that key too. Edges
// between the two are retracted before it (ReasonMerged); the survivor's
// timelines are settled after it, in the same append.
type EntitiesMerged struct {
	UserID     string    `json:"user_id"`
	SurvivorID string    `json:"survivor_id"`
	MergedID   string    `json:"merged_id"`
	At         time.Time `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (MemoryRemembered) EventType() string { return "memory.remembered" }
func (MemoryMerged) EventType() string     { return "memory.merged" }
func (MemoryForgotten) EventType() string  { return "memory.forgotten" }
func (EntityRecognized) EventType() string { return "memory.entity_recognized" }
func (EntityAliased) EventType() string    { return "memory.entity_aliased" }
func (EntityDeleted) EventType() string    { return "memory.entity_deleted" }
func (EdgeAsserted) EventType() string     { return "memory.edge_asserted" }
func (EdgeSuperseded) EventType() string   { return "memory.edge_superseded" }
func (EdgeReinstated) EventType() string   { return "memory.edge_reinstated" }
func (EdgeRetracted) EventType() string    { return "memory.edge_retracted" }
func (EntitiesMerged) EventType() string   { return "memory.entities_merged" }

// OccurredAt makes a memory's business time the event's occurred_at, so the
// store's "as of" reads follow when things were stated.
func (e MemoryRemembered) OccurredAt() time.Time { return e.At }

// Events lists constructors of every memory event, for registration.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &MemoryRemembered{} },
		func() kernel.Event { return &MemoryMerged{} },
		func() kernel.Event { return &MemoryForgotten{} },
		func() kernel.Event { return &EntityRecognized{} },
		func() kernel.Event { return &EntityAliased{} },
		func() kernel.Event { return &EntityDeleted{} },
		func() kernel.Event { return &EdgeAsserted{} },
		func() kernel.Event { return &EdgeSuperseded{} },
		func() kernel.Event { return &EdgeReinstated{} },
		func() kernel.Event { return &EdgeRetracted{} },
		func() kernel.Event { return &EntitiesMerged{} },
		func() kernel.Event { return &ActionPerformed{} },
	}
}
