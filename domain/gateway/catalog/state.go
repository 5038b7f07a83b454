package catalog

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// State is the fold of the catalog stream: the decisions (Import, Upsert,
// Retire) are made on it, and Snapshot freezes it for readers.
type State struct {
	Version  int64     // the stream version folded (set by Fold)
	Modified time.Time // the time of the last change
	Imports  int       // catalog.imported events folded
	LastHash string    // the content hash the last import recorded
	// Managed is true once an operator changed the catalog (an import of
	// their file, an upsert, a retirement): from then on the built-in
	// catalog is never imported again.
	Managed  bool
	models   map[string]Model
	routers  []Router
	defaults map[Tier]string
}

// Fold applies an event read at version.
func (s *State) Fold(ev kernel.Event, version int64) {
	s.Apply(ev)
	s.Version = version
}

// Apply folds one event (Version is left to the caller).
func (s *State) Apply(ev kernel.Event) {
	if s.models == nil {
		s.models = map[string]Model{}
	}
	switch e := ev.(type) {
	case *ModelUpserted:
		s.models[e.Model.ID] = e.Model.clone()
		s.touch(e.Source, e.At)
	case *ModelRetired:
		m := s.models[e.ModelID]
		m.ID, m.Status, m.ReplacedBy = e.ModelID, StatusRetired, e.ReplacedBy
		s.models[e.ModelID] = m
		s.touch(e.Source, e.At)
	case *Imported:
		s.routers = cloneRouters(e.Routers)
		s.defaults = maps.Clone(e.Defaults)
		s.Imports++
		s.LastHash = e.Hash
		s.touch(e.Source, e.At)
	}
}

func (s *State) touch(source string, at time.Time) {
	s.Modified = at
	if source != SourceBuiltin {
		s.Managed = true
	}
}

func cloneRouters(rs []Router) []Router {
	out := make([]Router, len(rs))
	for i, r := range rs {
		r.Routes = maps.Clone(r.Routes)
		out[i] = r
	}
	return out
}

// File is the catalog's current content as a catalog file (canonical).
func (s *State) File() File {
	f := File{Routers: cloneRouters(s.routers), Defaults: maps.Clone(s.defaults)}
	for _, m := range s.models {
		f.Models = append(f.Models, m.clone())
	}
	return f.canonical()
}

// Hash is the content hash of the catalog's current content.
func (s *State) Hash() string { return s.File().Hash() }

// Snapshot freezes the state for readers: a Catalog never changes.
func (s *State) Snapshot() *Catalog {
	f := s.File()
	c := &Catalog{Version: s.Version, Modified: s.Modified, Hash: f.Hash(), file: f,
		models: map[string]Model{}, routers: map[string]Router{}}
	for _, m := range f.Models {
		c.models[m.ID] = m
	}
	for _, r := range f.Routers {
		c.routers[r.ID] = r
	}
	return c
}

// Catalog is an immutable snapshot of the catalog, safe for concurrent
// readers: the listing, the routers and Resolve read it.
type Catalog struct {
	Version  int64     // the catalog stream's version
	Modified time.Time // the time of its last change (zero: never imported)
	Hash     string    // its content hash (File.Hash)
	file     File
	models   map[string]Model
	routers  map[string]Router
}

// Empty reports whether nothing was ever imported.
func (c *Catalog) Empty() bool { return c.Version == 0 }

// File returns the catalog as a catalog file (canonical, importable).
func (c *Catalog) File() File {
	return File{Models: c.Models(), Routers: cloneRouters(c.file.Routers), Defaults: maps.Clone(c.file.Defaults)}
}

// Model returns an entry, live or retired.
func (c *Catalog) Model(id string) (Model, bool) {
	m, ok := c.models[id]
	return m.clone(), ok
}

// Models returns every entry (retired ones too), ordered by id.
func (c *Catalog) Models() []Model {
	out := make([]Model, 0, len(c.file.Models))
	for _, m := range c.file.Models {
		out = append(out, m.clone())
	}
	return out
}

// Listed returns the live models a caller on tier up to may use (every
// live model when up is ""), ordered by tier, then id: the public listing.
func (c *Catalog) Listed(up Tier) []Model {
	var out []Model
	for _, m := range c.file.Models {
		if m.Live() && (up == "" || up.Allows(m.Tier)) {
			out = append(out, m.clone())
		}
	}
	slices.SortStableFunc(out, func(a, b Model) int { return cmp.Compare(a.Tier.Rank(), b.Tier.Rank()) })
	return out
}

// Routers returns the routers a caller on tier up may use (all when up is
// ""), ordered by id.
func (c *Catalog) Routers(up Tier) []Router {
	var out []Router
	for _, r := range c.file.Routers {
		if up == "" || up.Allows(r.Tier) {
			r.Routes = maps.Clone(r.Routes)
			out = append(out, r)
		}
	}
	return out
}

// Default returns the default model of tier t (catalog data).
func (c *Catalog) Default(t Tier) (Model, bool) {
	m, ok := c.models[c.file.Defaults[t]]
	return m.clone(), ok && m.Live()
}
