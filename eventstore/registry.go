package eventstore

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"github.com/strata-platform/strata/domain/kernel"
)

// validName is "<context>.<past_tense>": lower snake case on both sides.
var validName = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$`)

// EventDef registers one event type: its stable name, its current schema
// version, a constructor for its Go value, and the upcasters that bring older
// stored versions up to the current one.
type EventDef struct {
	Name      string              // "<context>.<past_tense>", stable forever
	Version   int                 // current schema version, >= 1
	New       func() kernel.Event // returns a pointer to a zero value
	Upcasters []kernel.Upcaster   // one per step From -> From+1, for 1..Version-1
}

// Registry maps event type names to their definitions. Registration is
// explicit (cmd/strata calls Register); Seal checks that every definition has
// all its upcaster steps. A Registry is safe for concurrent reads once sealed.
type Registry struct {
	defs   map[string]*registered
	sealed bool
}

type registered struct {
	def   EventDef
	steps map[int]kernel.Upcaster
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{defs: map[string]*registered{}} }

// Register adds an event type. It fails on a duplicate name, an invalid
// version, a constructor whose value's EventType disagrees with Name, an
// upcaster for another type, or a duplicate upcaster step.
func (r *Registry) Register(defs ...EventDef) error {
	if r.sealed {
		return fmt.Errorf("register: registry is sealed")
	}
	for _, d := range defs {
		if d.Name == "" || d.New == nil || d.Version < 1 {
			return fmt.Errorf("register %q: name, constructor and version >= 1 are required", d.Name)
		}
		if !validName.MatchString(d.Name) {
			return fmt.Errorf("register %q: name must be \"<context>.<past_tense>\" in lower snake case", d.Name)
		}
		if _, dup := r.defs[d.Name]; dup {
			return fmt.Errorf("register %q: duplicate event type name", d.Name)
		}
		v := d.New()
		if v == nil || reflect.ValueOf(v).Kind() != reflect.Pointer {
			return fmt.Errorf("register %q: constructor must return a non-nil pointer", d.Name)
		}
		if got := v.EventType(); got != d.Name {
			return fmt.Errorf("register %q: constructor's EventType() is %q", d.Name, got)
		}
		reg := &registered{def: d, steps: map[int]kernel.Upcaster{}}
		for _, u := range d.Upcasters {
			if u.Type != d.Name {
				return fmt.Errorf("register %q: upcaster is for %q", d.Name, u.Type)
			}
			if _, dup := reg.steps[u.From]; dup {
				return fmt.Errorf("register %q: two upcasters from version %d", d.Name, u.From)
			}
			if u.Up == nil || u.From < 1 || u.From >= d.Version {
				return fmt.Errorf("register %q: upcaster from version %d is outside 1..%d", d.Name, u.From, d.Version-1)
			}
			reg.steps[u.From] = u
		}
		r.defs[d.Name] = reg
	}
	return nil
}

// Seal finishes registration: it fails when some type lacks an upcaster step
// between version 1 and its current version. Start-up must stop on that error.
func (r *Registry) Seal() error {
	for _, name := range r.Names() {
		reg := r.defs[name]
		for v := 1; v < reg.def.Version; v++ {
			if _, ok := reg.steps[v]; !ok {
				return fmt.Errorf("event type %q: missing upcaster from version %d to %d", name, v, v+1)
			}
		}
	}
	r.sealed = true
	return nil
}

// Names lists the registered type names in sorted order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.defs))
	for n := range r.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Version returns the current schema version of a registered type.
func (r *Registry) Version(name string) (int, bool) {
	reg, ok := r.defs[name]
	if !ok {
		return 0, false
	}
	return reg.def.Version, true
}

// Upcast brings a stored payload of the given version to the current schema
// version, one step at a time. Unknown types and versions from the future are
// errors: the store never guesses.
func (r *Registry) Upcast(name string, version int, payload json.RawMessage) (json.RawMessage, int, error) {
	reg, ok := r.defs[name]
	if !ok {
		return nil, 0, fmt.Errorf("upcast: unknown event type %q", name)
	}
	if version > reg.def.Version {
		return nil, 0, fmt.Errorf("upcast %q: stored version %d is newer than current %d", name, version, reg.def.Version)
	}
	for v := version; v < reg.def.Version; v++ {
		out, err := reg.steps[v].Up(payload)
		if err != nil {
			return nil, 0, fmt.Errorf("upcast %q from version %d: %w", name, v, err)
		}
		payload = out
	}
	return payload, reg.def.Version, nil
}

// Decode turns a current-version payload into the registered Go value.
func (r *Registry) Decode(name string, payload json.RawMessage) (kernel.Event, error) {
	reg, ok := r.defs[name]
	if !ok {
		return nil, fmt.Errorf("decode: unknown event type %q", name)
	}
	v := reg.def.New()
	if err := json.Unmarshal(payload, v); err != nil {
		return nil, fmt.Errorf("decode %q: %w", name, err)
	}
	return v, nil
}
