package payments

// CheckoutPaid reports whether a completed checkout's payment_status means
// the buyer has paid: "paid", or "no_payment_required" (a free trial, a
// full discount). "unpaid" (a delayed payment method still pending) is
// not.
func CheckoutPaid(paymentStatus string) bool {
	return paymentStatus == "paid" || paymentStatus == "no_payment_required"
}
