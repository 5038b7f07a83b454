package payments

import "testing"

func TestCheckoutPaid(t *testing.T) {
	for status, want := range map[string]bool{"paid": true, "no_payment_required": true, "unpaid": false, "": false, "PAID": false} {
		if got := CheckoutPaid(status); got != want {
			t.Errorf("CheckoutPaid(%q) = %v, want %v", status, got, want)
		}
	}
}
