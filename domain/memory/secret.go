package memory

import (
	"encoding/json"

	"github.com/strata-platform/strata/domain/kernel"
)

// Secret is an event's sealed part, for the layers that seal and open it.
type Secret struct {
	Key    string         // the data key it is sealed under
	Sealed *kernel.Sealed // the event's Sealed field
	Plain  any            // the plain value to seal (nil when not known)
	Open   func(raw []byte) error
}

// SecretOf returns ev's sealed part; ok is false for events without one.
func SecretOf(ev kernel.Event) (Secret, bool) {
	switch e := ev.(type) {
	case *MemoryRemembered:
		return Secret{MemoryKey(e.MemoryID), &e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &MemoryText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *MemoryMerged:
		return Secret{MemoryKey(e.MemoryID), &e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &MergedText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *EntityRecognized:
		return Secret{EntityKey(e.EntityID), &e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &EntityText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *EntityAliased:
		return Secret{EntityKey(e.EntityID), &e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &EntityText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *EdgeAsserted:
		key := EntityKey(e.SubjectID)
		if e.MemoryID != "" {
			key = MemoryKey(e.MemoryID)
		}
		return Secret{key, &e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &EdgeText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	}
	return Secret{}, false
}

// plain returns p as an interface, nil for a nil pointer.
func plain[T any](p *T) any {
	if p == nil {
		return nil
	}
	return p
}
