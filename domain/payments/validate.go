package payments

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Limits of a checkout request's fields.
const (
	MaxURL   = 2000 // success and cancel URLs
	MaxEmail = 254
	MaxUTM   = 200 // each UTM field (the provider's metadata values hold 500)
)

// Order asks to sell one plan of a product line at a billing interval.
type Order struct {
	ProductLine string
	Plan        string
	Billing     string
	SuccessURL  string
	CancelURL   string
	Email       string // the payer's; "" lets the provider ask for it
	UTM         UTM
}

// Fields names an order's fields as a route's request calls them, so a
// refusal names the field the client sent ("tier" on the audit checkout).
type Fields struct {
	ProductLine, Plan, Billing, SuccessURL, CancelURL, Email, UTMPrefix string
}

// DefaultFields are the field names of /payments/checkout.
var DefaultFields = Fields{ProductLine: "product_line", Plan: "plan", Billing: "billing", SuccessURL: "success_url",
	CancelURL: "cancel_url", Email: "email", UTMPrefix: "utm_"}

// NotPriced refuses a plan the catalog sells but nobody priced: the seeds
// give no price for it and the operator configured none.
type NotPriced struct{ ProductLine, Plan, Billing string }

// Error implements error.
func (e *NotPriced) Error() string {
	return fmt.Sprintf("%s %s (%s) has no price configured", e.ProductLine, e.Plan, e.Billing)
}

// Unwrap gives the refusal its kind: the service cannot sell it (503).
func (e *NotPriced) Unwrap() error { return kernel.Unavailable(e.Error(), nil) }

// Check validates o against the catalog and returns the normalised order
// (trimmed, email lower-cased) with its price. A plan that is sold but not
// priced is a *NotPriced error; everything else wrong is invalid, naming the
// field (as f calls it) and the rule.
func (c Catalog) Check(o Order, f Fields) (Order, Price, error) {
	o.ProductLine, o.Plan, o.Billing = strings.TrimSpace(o.ProductLine), strings.TrimSpace(o.Plan), strings.TrimSpace(o.Billing)
	line, ok := c.Line(o.ProductLine)
	if !ok {
		return o, Price{}, enum(f.ProductLine, c.LineIDs())
	}
	if o.Plan == "" {
		return o, Price{}, kernel.Invalid(f.Plan, "required", f.Plan+" is required")
	}
	plan, ok := line.Plan(o.Plan)
	if !ok || plan.Free {
		return o, Price{}, enum(f.Plan, line.PaidPlanIDs())
	}
	if o.Billing == "" {
		o.Billing = Monthly
	}
	if !plan.Offers(o.Billing) {
		return o, Price{}, enum(f.Billing, plan.Intervals)
	}
	var err error
	if o.SuccessURL, err = checkURL(f.SuccessURL, o.SuccessURL); err != nil {
		return o, Price{}, err
	}
	if o.CancelURL, err = checkURL(f.CancelURL, o.CancelURL); err != nil {
		return o, Price{}, err
	}
	if o.Email != "" {
		if o.Email, err = NormalizeEmail(f.Email, o.Email); err != nil {
			return o, Price{}, err
		}
	}
	for _, u := range []struct {
		name string
		v    *string
	}{{"source", &o.UTM.Source}, {"medium", &o.UTM.Medium}, {"campaign", &o.UTM.Campaign}, {"term", &o.UTM.Term},
		{"content", &o.UTM.Content}} {
		*u.v = strings.TrimSpace(*u.v)
		if err := checkLabel(f.UTMPrefix+u.name, *u.v, MaxUTM); err != nil {
			return o, Price{}, err
		}
	}
	price := c.Price(line.ID, plan.ID, o.Billing)
	if !price.Priced() {
		return o, Price{}, &NotPriced{ProductLine: line.ID, Plan: plan.ID, Billing: o.Billing}
	}
	return o, price, nil
}

// enum refuses a value that is not one of values.
func enum(field string, values []string) error {
	return kernel.Invalid(field, "enum:"+strings.Join(values, ","), field+" must be one of "+strings.Join(values, ", "))
}

// checkURL accepts an absolute http or https URL (required).
func checkURL(field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", kernel.Invalid(field, "required", field+" is required")
	}
	if len(raw) > MaxURL {
		return "", kernel.Invalid(field, fmt.Sprintf("max_length:%d", MaxURL), fmt.Sprintf("%s must be at most %d characters", field, MaxURL))
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return "", kernel.Invalid(field, "url", field+" must be an absolute http or https URL")
	}
	return raw, nil
}

// CheckURL is checkURL for other routes (a portal's return URL).
func CheckURL(field, raw string) (string, error) { return checkURL(field, raw) }

// checkLabel accepts short printable text.
func checkLabel(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return kernel.Invalid(field, fmt.Sprintf("max_length:%d", max), fmt.Sprintf("%s must be at most %d characters", field, max))
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return kernel.Invalid(field, "printable", field+" must not hold control characters")
		}
	}
	return nil
}

// NormalizeEmail returns the comparison form of an email (trimmed, lower
// case) after checking it is one bare address with a dotted domain.
func NormalizeEmail(field, email string) (string, error) {
	e := strings.TrimSpace(email)
	if e == "" {
		return "", kernel.Invalid(field, "required", field+" is required")
	}
	if len(e) > MaxEmail {
		return "", kernel.Invalid(field, fmt.Sprintf("max_length:%d", MaxEmail), fmt.Sprintf("%s is longer than %d characters", field, MaxEmail))
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndexByte(e, '@')+1:], ".") {
		return "", kernel.Invalid(field, "email", field+" must be an email address like name@example.com")
	}
	return strings.ToLower(e), nil
}
