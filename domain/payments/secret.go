package payments

import (
	"encoding/json"

	"github.com/strata-platform/strata/domain/kernel"
)

// Secret is an event's sealed part, for the layers that seal and open it:
// Sealed is the event's field, Plain the value to seal (nil when not known)
// and Open fills the plain value back from the opened bytes.
type Secret struct {
	Sealed *kernel.Sealed
	Plain  any
	Open   func(raw []byte) error
}

// SecretOf returns ev's sealed part; ok is false for events without one.
// Which key a value is sealed under is the commands' choice (recorded in
// Sealed.Key): CheckoutKey for a session we created, WebhookKey for what a
// provider event said.
func SecretOf(ev kernel.Event) (Secret, bool) {
	payer := func(dst **Payer) func(raw []byte) error {
		return func(raw []byte) error {
			*dst = &Payer{}
			return json.Unmarshal(raw, *dst)
		}
	}
	switch e := ev.(type) {
	case *CheckoutSessionCreated:
		return Secret{&e.Secret, plain(e.Payer), payer(&e.Payer)}, true
	case *CheckoutSessionCompleted:
		return Secret{&e.Secret, plain(e.Payer), payer(&e.Payer)}, true
	case *InvoicePaid:
		return Secret{&e.Secret, plain(e.Payer), payer(&e.Payer)}, true
	case *InvoicePaymentFailed:
		return Secret{&e.Secret, plain(e.Payer), payer(&e.Payer)}, true
	case *WebhookReceived:
		var p any
		if e.Payload != nil {
			p = e.Payload
		}
		return Secret{&e.Secret, p, func(raw []byte) error {
			var payload json.RawMessage
			if err := json.Unmarshal(raw, &payload); err != nil {
				return err
			}
			e.Payload = payload
			return nil
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
