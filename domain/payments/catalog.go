// Package payments is the payments domain: the catalog of product lines and
// their plans, the events that record checkouts, subscriptions, invoices,
// billing-portal sessions, usage reports and the provider's webhooks, and
// the decisions taken on them (an older subscription update never
// overwrites a newer one; an invoice once paid stays paid; a checkout is
// completed once).
//
// Nothing here knows the payment provider's protocol: the commands layer
// turns the provider's objects into the values these decisions take.
package payments

import (
	"fmt"
	"sort"
	"strings"
)

// Billing intervals of a plan, as the API names them ("billing").
const (
	Monthly = "monthly"
	Yearly  = "yearly"
)

// Product lines: each sells its own plans.
const (
	LinePlatform = "platform" // the platform plans (identity's free, basic, professional, enterprise), priced as the model catalog's access tiers
	LineGateway  = "gateway"  // the inference gateway's plans (starter, pro, business, enterprise)
	LineVoice    = "voice"    // the voice product (pro, business, enterprise)
	LineAudit    = "audit"    // the agent-readiness audit (pro, business, agency; monthly or yearly)
	LineCaptable = "captable" // the cap table (free, starter, professional, enterprise)
)

// Money is an amount in the currency's minor unit (cents) and the
// currency's lower-case ISO 4217 code.
type Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// Price is what a plan costs at one interval: a provider price id (the
// provider's own catalog), or an amount sent inline with the checkout, or
// both (the price id is used). A zero Price is not priced.
type Price struct {
	PriceID string `json:"price_id,omitempty"`
	Money
}

// Priced reports whether the price can be checked out.
func (p Price) Priced() bool { return p.PriceID != "" || p.Amount > 0 }

// PlanDef is one plan of a product line. Free plans need no checkout.
// Intervals lists the billing intervals it is sold at, and Seed the prices
// the seed documents give (nothing is invented where they give none).
type PlanDef struct {
	ID        string
	Name      string
	Free      bool
	Intervals []string
	Seed      map[string]Money // interval -> price from the seed
}

// LineDef is one product line.
type LineDef struct {
	ID    string
	Name  string
	Plans []PlanDef
}

func usd(dollars int64) Money { return Money{Amount: dollars * 100, Currency: "usd"} }

func monthly(id, name string, dollars int64) PlanDef {
	p := PlanDef{ID: id, Name: name, Intervals: []string{Monthly}}
	if dollars > 0 {
		p.Seed = map[string]Money{Monthly: usd(dollars)}
	}
	return p
}

// Lines is the built-in catalog, taken from the seed documents: the model
// catalog's access tiers Basic $9, Professional $29, Enterprise $99 a
// month (the platform plans); the gateway's plan table Starter free, Pro
// $49, Business $149, Enterprise $699 a month; voice pro $49, business
// $149, enterprise $499 a month; the audit's pro, business and agency,
// monthly or yearly, and the cap table's Starter, Professional and
// Enterprise, whose prices the seeds do not give (they are sold only once
// the operator configures a price). Each call returns a fresh value.
func Lines() []LineDef {
	unpriced := func(id, name string, intervals ...string) PlanDef {
		return PlanDef{ID: id, Name: name, Intervals: intervals}
	}
	return []LineDef{
		{ID: LinePlatform, Name: "Strata platform", Plans: []PlanDef{
			{ID: "free", Name: "Free", Free: true},
			monthly("basic", "Basic", 9), monthly("professional", "Professional", 29), monthly("enterprise", "Enterprise", 99)}},
		{ID: LineGateway, Name: "Strata inference gateway", Plans: []PlanDef{
			{ID: "starter", Name: "Starter", Free: true},
			monthly("pro", "Pro", 49), monthly("business", "Business", 149), monthly("enterprise", "Enterprise", 699)}},
		{ID: LineVoice, Name: "Strata voice", Plans: []PlanDef{
			monthly("pro", "Pro", 49), monthly("business", "Business", 149), monthly("enterprise", "Enterprise", 499)}},
		{ID: LineAudit, Name: "Strata agent-readiness audit", Plans: []PlanDef{
			{ID: "free", Name: "Free", Free: true},
			unpriced("pro", "Pro", Monthly, Yearly), unpriced("business", "Business", Monthly, Yearly),
			unpriced("agency", "Agency", Monthly, Yearly)}},
		{ID: LineCaptable, Name: "Strata cap table", Plans: []PlanDef{
			{ID: "free", Name: "Free", Free: true},
			unpriced("starter", "Starter", Monthly), unpriced("professional", "Professional", Monthly),
			unpriced("enterprise", "Enterprise", Monthly)}},
	}
}

// Catalog is the built-in catalog with the operator's prices laid over it.
type Catalog struct {
	lines  []LineDef
	prices map[string]Price // PriceKey -> configured price
}

// PriceKey is the catalog key of a plan at an interval.
func PriceKey(line, plan, interval string) string { return line + "/" + plan + "/" + interval }

// NewCatalog returns the built-in catalog with prices (PriceKey -> price)
// configured by the operator; a configured price replaces the seed's.
func NewCatalog(prices map[string]Price) Catalog {
	c := Catalog{lines: Lines(), prices: map[string]Price{}}
	for k, p := range prices {
		c.prices[k] = p
	}
	return c
}

// LineIDs lists the product lines' ids, in catalog order.
func (c Catalog) LineIDs() []string {
	out := make([]string, 0, len(c.lines))
	for _, l := range c.lines {
		out = append(out, l.ID)
	}
	return out
}

// Line returns the product line id.
func (c Catalog) Line(id string) (LineDef, bool) {
	for _, l := range c.lines {
		if l.ID == id {
			return l, true
		}
	}
	return LineDef{}, false
}

// Plan returns plan id of line.
func (l LineDef) Plan(id string) (PlanDef, bool) {
	for _, p := range l.Plans {
		if p.ID == id {
			return p, true
		}
	}
	return PlanDef{}, false
}

// PaidPlanIDs lists the ids of the line's plans that are sold (not free).
func (l LineDef) PaidPlanIDs() []string {
	var out []string
	for _, p := range l.Plans {
		if !p.Free {
			out = append(out, p.ID)
		}
	}
	return out
}

// Offers reports whether the plan is sold at interval.
func (p PlanDef) Offers(interval string) bool {
	for _, i := range p.Intervals {
		if i == interval {
			return true
		}
	}
	return false
}

// Price returns the price of plan at interval: the configured one, else
// the seed's, else a zero Price (not priced).
func (c Catalog) Price(line, plan, interval string) Price {
	if p, ok := c.prices[PriceKey(line, plan, interval)]; ok {
		return p
	}
	if l, ok := c.Line(line); ok {
		if p, ok := l.Plan(plan); ok {
			if m, ok := p.Seed[interval]; ok {
				return Price{Money: m}
			}
		}
	}
	return Price{}
}

// PlanOfPrice finds the plan a provider price id was configured for
// (subscriptions created outside Strata's checkout carry only the price).
func (c Catalog) PlanOfPrice(priceID string) (line, plan, interval string, ok bool) {
	if priceID == "" {
		return "", "", "", false
	}
	keys := make([]string, 0, len(c.prices))
	for k := range c.prices {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if c.prices[k].PriceID == priceID {
			parts := strings.SplitN(k, "/", 3)
			return parts[0], parts[1], parts[2], true
		}
	}
	return "", "", "", false
}

// Sellable lists every (line, plan, interval) the catalog sells, priced or
// not, in catalog order: the keys an operator may configure.
func (c Catalog) Sellable() [][3]string {
	var out [][3]string
	for _, l := range c.lines {
		for _, p := range l.Plans {
			if p.Free {
				continue
			}
			for _, i := range p.Intervals {
				out = append(out, [3]string{l.ID, p.ID, i})
			}
		}
	}
	return out
}

// String shows a price for logs, never secret.
func (p Price) String() string {
	if p.PriceID != "" {
		return p.PriceID
	}
	if p.Amount > 0 {
		return fmt.Sprintf("%d.%02d %s", p.Amount/100, p.Amount%100, p.Currency)
	}
	return "not priced"
}
