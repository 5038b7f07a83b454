package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore/shred"
)

// open fills an event's plain part from its sealed part; an event whose key
// was destroyed keeps a nil plain part.
func open(ctx context.Context, keys *shred.KeyRing, q shred.Querier, ev kernel.Event) error {
	sec, ok := memory.SecretOf(ev)
	if !ok || sec.Sealed.Key == "" {
		return nil
	}
	raw, err := keys.Open(ctx, q, *sec.Sealed)
	if errors.Is(err, shred.ErrShredded) {
		return nil
	}
	if err != nil {
		return err
	}
	return sec.Open(raw)
}

// sealer seals the events of one batch: new subjects get fresh keys, which
// are stored in the batch's transaction; existing subjects' keys are read
// from the key ring.
type sealer struct {
	keys  *shred.KeyRing
	q     shred.Querier
	owner string
	fresh map[string]*shred.NewKey
	order []*shred.NewKey
}

func newSealer(keys *shred.KeyRing, q shred.Querier, owner string) *sealer {
	return &sealer{keys: keys, q: q, owner: owner, fresh: map[string]*shred.NewKey{}}
}

// seal encrypts every sealed part of events.
func (sl *sealer) seal(ctx context.Context, events []kernel.Event) error {
	for _, ev := range events {
		sec, ok := memory.SecretOf(ev)
		if !ok {
			continue
		}
		if sec.Plain == nil {
			return fmt.Errorf("seal %s: no plain value", ev.EventType())
		}
		raw, err := json.Marshal(sec.Plain)
		if err != nil {
			return fmt.Errorf("seal %s: %w", ev.EventType(), err)
		}
		if nk := sl.fresh[sec.Key]; nk != nil {
			*sec.Sealed = nk.Seal(raw)
			continue
		}
		if isNewSubject(ev) {
			nk, err := sl.keys.Fresh(sec.Key, sl.owner)
			if err != nil {
				return err
			}
			sl.fresh[sec.Key], sl.order = nk, append(sl.order, nk)
			*sec.Sealed = nk.Seal(raw)
			continue
		}
		sealed, err := sl.keys.Seal(ctx, sl.q, sec.Key, raw)
		if err != nil {
			return fmt.Errorf("seal %s under %s: %w", ev.EventType(), sec.Key, err)
		}
		*sec.Sealed = sealed
	}
	return nil
}

// isNewSubject reports whether ev creates the subject its key belongs to.
func isNewSubject(ev kernel.Event) bool {
	switch ev.(type) {
	case *memory.MemoryRemembered, *memory.EntityRecognized:
		return true
	}
	return false
}
