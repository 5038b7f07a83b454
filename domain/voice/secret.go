package voice

import (
	"encoding/json"

	"github.com/strata-platform/strata/domain/kernel"
)

// Secret is an event's sealed part, for the layers that seal and open it.
type Secret struct {
	Sealed *kernel.Sealed // the event's Secret field
	Plain  any            // the plain value to seal (nil when not known)
	Open   func(raw []byte) error
}

// SecretOf returns ev's sealed part; ok is false for events without one.
func SecretOf(ev kernel.Event) (Secret, bool) {
	switch e := ev.(type) {
	case *CallRequested:
		return Secret{&e.Secret, plain(e.Remote), func(raw []byte) error {
			e.Remote = &Remote{}
			return json.Unmarshal(raw, e.Remote)
		}}, true
	case *CallTransferred:
		return Secret{&e.Secret, plain(e.Target), func(raw []byte) error {
			e.Target = &Remote{}
			return json.Unmarshal(raw, e.Target)
		}}, true
	case *CallRouted:
		return Secret{&e.Secret, plain(e.Remote), func(raw []byte) error {
			e.Remote = &Remote{}
			return json.Unmarshal(raw, e.Remote)
		}}, true
	case *TranscriptStored:
		return Secret{&e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &TranscriptText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *CallNoteAdded:
		return Secret{&e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &NoteText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *MessageRequested:
		return Secret{&e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &MessageText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *ContactCreated:
		return Secret{&e.Secret, plain(e.Text), func(raw []byte) error {
			e.Text = &ContactText{}
			return json.Unmarshal(raw, e.Text)
		}}, true
	case *DNCAdded:
		return Secret{&e.Secret, plain(e.Remote), func(raw []byte) error {
			e.Remote = &Remote{}
			return json.Unmarshal(raw, e.Remote)
		}}, true
	}
	return Secret{}, false
}

// plain turns a typed nil pointer into a nil interface, so "not known" is
// nil whatever the type.
func plain[T any](p *T) any {
	if p == nil {
		return nil
	}
	return p
}
