package accounts

import (
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
)

// applyCheckout folds the events of accounts provisioned from checkouts
// (d.mu held) and reports whether e was one. A completed account's
// set-password link stops working; the checkout streams' own events
// (provisioned, linked) change nothing the directory answers.
func (d *Directory) applyCheckout(e eventstore.Envelope) bool {
	switch ev := e.Event.(type) {
	case *identity.AccountCompleted:
		if u := d.users[ev.UserID]; u != nil && u.Reset.TokenHash != "" {
			delete(d.resets, u.Reset.TokenHash)
		}
		d.applyUser(ev.UserID, ev)
	case *identity.CheckoutProvisioned, *identity.CheckoutLinked:
	default:
		return false
	}
	return true
}
