package memory

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Memory is a live memory in the fold.
type Memory struct {
	ID         string
	Namespace  string
	MemoryType string
	Importance float64
	EntityID   string
	Mentions   []string
	Edges      []string // edges extracted from this memory
	At         time.Time
	Text       string // "" when its key was destroyed before the fold read it
	Variants   []string
	Tags       []string
	stems      []string // analysed text, for near-duplicate candidates
}

// Entity is a live entity in the fold.
type Entity struct {
	ID        string
	Type      string
	Name      string // "" when unreadable
	Aliases   []string
	Explicit  bool
	FirstSeen time.Time
	LastSeen  time.Time
	Merged    []string // ids of the entities merged into it (EntitiesMerged), oldest first
	mentions  int      // live memories mentioning it or about it
}

// Edge is a live edge in the fold.
type Edge struct {
	ID           string
	SubjectID    string
	ObjectID     string
	Predicate    string // "" when unreadable
	Confidence   float64
	Exclusive    bool
	Ends         bool // states that the fact ended (EdgeAsserted.Ends): never current
	MemoryID     string
	ValidFrom    time.Time
	ValidUntil   *time.Time
	SupersededBy string
	seq          int64
}

// Current reports whether the edge has not been superseded.
func (e *Edge) Current() bool { return e.ValidUntil == nil }

// Store is one user's memory store folded from its stream.
type Store struct {
	UserID   string
	Version  int64
	Memories map[string]*Memory
	Entities map[string]*Entity
	Edges    map[string]*Edge
	names    map[string]string              // lower-case name or alias -> entity id
	postings map[string]map[string][]string // namespace -> stem -> memory ids
	adj      map[string]map[string]struct{} // entity id -> ids of live edges it is subject or object of
	grams    map[string]map[string]struct{} // name trigram -> entity ids (fuzzy resolution)
	merged   map[string]string              // merged entity id -> its survivor's id
	seq      int64
}

// NewStore returns an empty store for user.
func NewStore(user string) *Store {
	return &Store{UserID: user, Memories: map[string]*Memory{}, Entities: map[string]*Entity{},
		Edges: map[string]*Edge{}, names: map[string]string{}, postings: map[string]map[string][]string{},
		adj: map[string]map[string]struct{}{}, grams: map[string]map[string]struct{}{}, merged: map[string]string{}}
}

// Apply folds one event. Events whose sealed part could not be opened
// (their key was destroyed) are folded without it.
func (s *Store) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *MemoryRemembered:
		m := &Memory{ID: e.MemoryID, Namespace: e.Namespace, MemoryType: e.MemoryType, Importance: e.Importance,
			EntityID: e.EntityID, Mentions: e.Mentions, At: e.At}
		if e.Text != nil {
			m.Text, m.Tags = e.Text.Content, e.Text.Tags
		}
		s.Memories[m.ID] = m
		s.index(m)
		for _, id := range m.entities() {
			if ent := s.Entities[id]; ent != nil {
				ent.mentions++
				if e.At.After(ent.LastSeen) {
					ent.LastSeen = e.At
				}
				if e.At.Before(ent.FirstSeen) {
					ent.FirstSeen = e.At
				}
			}
		}
	case *MemoryMerged:
		if m := s.Memories[e.MemoryID]; m != nil {
			m.Importance = e.Importance
			if e.Text != nil {
				m.Variants = append(m.Variants, e.Text.Variant)
				m.Tags = mergeTags(m.Tags, e.Text.Tags)
			}
		}
	case *MemoryForgotten:
		s.dropMemory(e.MemoryID)
	case *EntityRecognized:
		ent := &Entity{ID: e.EntityID, Type: e.EntityType, Explicit: e.Explicit, FirstSeen: e.At, LastSeen: e.At}
		s.Entities[ent.ID] = ent
		if e.Text != nil {
			ent.Name = e.Text.Name
			s.addName(ent.ID, ent.Name)
		}
	case *EntityAliased:
		if ent := s.Entities[e.EntityID]; ent != nil && e.Text != nil {
			ent.Aliases = append(ent.Aliases, e.Text.Name)
			s.addName(ent.ID, e.Text.Name)
		}
	case *EntityDeleted:
		s.dropEntity(e.EntityID)
	case *EdgeAsserted:
		s.seq++
		ed := &Edge{ID: e.EdgeID, SubjectID: e.SubjectID, ObjectID: e.ObjectID, Confidence: e.Confidence,
			Exclusive: e.Exclusive, Ends: e.Ends, MemoryID: e.MemoryID, ValidFrom: e.ValidFrom, seq: s.seq}
		if e.Text != nil {
			ed.Predicate = e.Text.Predicate
		}
		s.Edges[ed.ID] = ed
		s.link(ed.SubjectID, ed.ID)
		s.link(ed.ObjectID, ed.ID)
		if m := s.Memories[e.MemoryID]; m != nil {
			m.Edges = append(m.Edges, ed.ID)
		}
	case *EdgeSuperseded:
		if ed := s.Edges[e.EdgeID]; ed != nil {
			until := e.ValidUntil
			ed.ValidUntil, ed.SupersededBy = &until, e.ByEdgeID
		}
	case *EdgeReinstated:
		if ed := s.Edges[e.EdgeID]; ed != nil {
			ed.ValidUntil, ed.SupersededBy = nil, ""
		}
	case *EdgeRetracted:
		s.dropEdge(e.EdgeID)
	case *EntitiesMerged:
		s.merge(e.SurvivorID, e.MergedID)
	}
}

// entities lists the entities a memory is about or mentions, once each.
func (m *Memory) entities() []string {
	out := make([]string, 0, len(m.Mentions)+1)
	if m.EntityID != "" {
		out = append(out, m.EntityID)
	}
	for _, id := range m.Mentions {
		if id != m.EntityID {
			out = append(out, id)
		}
	}
	return out
}

func (s *Store) dropMemory(id string) {
	m := s.Memories[id]
	if m == nil {
		return
	}
	delete(s.Memories, id)
	s.unindex(m)
	for _, eid := range m.entities() {
		if ent := s.Entities[eid]; ent != nil && ent.mentions > 0 {
			ent.mentions--
		}
	}
}

func (s *Store) dropEntity(id string) {
	ent := s.Entities[id]
	if ent == nil {
		return
	}
	delete(s.Entities, id)
	for _, name := range append([]string{ent.Name}, ent.Aliases...) {
		s.dropName(id, name)
	}
	for _, m := range ent.Merged {
		delete(s.merged, m)
	}
}

func (s *Store) dropEdge(id string) {
	ed := s.Edges[id]
	if ed == nil {
		return
	}
	delete(s.Edges, id)
	delete(s.adj[ed.SubjectID], id)
	delete(s.adj[ed.ObjectID], id)
	if m := s.Memories[ed.MemoryID]; m != nil {
		m.Edges = remove(m.Edges, id)
	}
}

func remove(list []string, v string) []string {
	out := list[:0]
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

func mergeTags(have, add []string) []string {
	seen := map[string]bool{}
	for _, t := range have {
		seen[t] = true
	}
	for _, t := range add {
		if !seen[t] {
			seen[t] = true
			have = append(have, t)
		}
	}
	return have
}

func (s *Store) link(entity, edge string) {
	set := s.adj[entity]
	if set == nil {
		set = map[string]struct{}{}
		s.adj[entity] = set
	}
	set[edge] = struct{}{}
}
