// Package plans is the platform's one source of truth for the plan an
// account is on in each product line, and what each plan entitles it to.
// Every context reads plans from here (through the account directory, see
// projections/accounts): identity's key verification and /auth/me, the cap
// table's limits, and the gateway, builder, voice and audit as they come.
//
// A plan changes by one event, plans.plan_changed, on the account's plans
// stream, whoever changes it: an operator (`strata users set-plan`,
// `strata captable set-plan`), a paid checkout or a subscription's change
// reported by the payment provider. A change reported by the provider
// carries the provider's time, and an older report never overwrites a newer
// one.
package plans

import (
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Product lines (the same ids as the payments catalog's).
const (
	LinePlatform = "platform"
	LineGateway  = "gateway"
	LineVoice    = "voice"
	LineAudit    = "audit"
	LineCaptable = "captable"
)

// Statuses of an account's plan in a line.
const (
	StatusActive   = "active"
	StatusTrialing = "trialing"
	StatusPastDue  = "past_due" // a payment failed; the provider retries, the plan still applies
	StatusCanceled = "canceled" // the subscription ended: the line's free plan (or none) applies
)

// Sources of a change.
const (
	SourceOperator     = "operator"
	SourceCheckout     = "checkout"
	SourceSubscription = "subscription"
)

// StreamType is the type of an account's plans stream.
const StreamType = "plans.account"

// Stream is the stream id of an account's plans.
func Stream(accountID string) string { return "plans-account:" + accountID }

// Entitlements are what a plan gives. Zero means none, Unlimited no limit.
type Entitlements struct {
	Paid            bool  `json:"paid"`              // a paid plan (chat completions, the builder's deck)
	MonthlyCredits  int64 `json:"monthly_credits"`   // gateway credits granted each period
	RequestsPerHour int64 `json:"requests_per_hour"` // gateway requests an hour
	MonthlyCalls    int64 `json:"monthly_calls"`     // cap-table API calls a month
	CallsPerMinute  int64 `json:"calls_per_minute"`  // cap-table burst
	PagesPerCrawl   int64 `json:"pages_per_crawl"`   // audit pages a crawl
}

// Unlimited marks a limit that does not apply.
const Unlimited int64 = -1

// Plan is one plan of a line.
type Plan struct {
	ID   string
	Name string
	Free bool // the line's default: what an account without a paid plan is on
	Entitlements
}

// Line is a product line and its plans, the free one (if any) first.
type Line struct {
	ID    string
	Plans []Plan
}

// Lines is the catalog of entitlements, from the seed documents: the model
// catalog's access tiers (Free, Basic, Professional, Enterprise; chat
// completions need a paid plan), the gateway plan table (credits a month,
// requests an hour: Starter 1,000 / 60, Pro 50,000 / 300, Business
// 150,000 / 1,000, Enterprise 200,000 / 5,000), voice (Pro, Business,
// Enterprise; no free plan, no limits given), the audit tiers (Free 1 page a
// crawl, Pro 500, Business and Agency unlimited) and the cap-table plans
// (calls a month and a minute: Free 1,000 / 10, Starter 10,000 / 60,
// Professional 100,000 / 300, Enterprise unlimited / 1,000).
func Lines() []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = l.clone()
	}
	return out
}

// lines is the catalog, built once: every request reads plans (a gateway
// request several times), and building the table on each read was a
// tenth of the gateway's CPU under load (strata bench gateway). Lines and
// FindLine hand out copies, so no caller can change it.
var lines = catalogLines()

func (l Line) clone() Line {
	l.Plans = append([]Plan(nil), l.Plans...)
	return l
}

func catalogLines() []Line {
	return []Line{
		{ID: LinePlatform, Plans: []Plan{
			{ID: "free", Name: "Free", Free: true},
			{ID: "basic", Name: "Basic", Entitlements: Entitlements{Paid: true}},
			{ID: "professional", Name: "Professional", Entitlements: Entitlements{Paid: true}},
			{ID: "enterprise", Name: "Enterprise", Entitlements: Entitlements{Paid: true}}}},
		{ID: LineGateway, Plans: []Plan{
			{ID: "starter", Name: "Starter", Free: true, Entitlements: Entitlements{MonthlyCredits: 1000, RequestsPerHour: 60}},
			{ID: "pro", Name: "Pro", Entitlements: Entitlements{Paid: true, MonthlyCredits: 50000, RequestsPerHour: 300}},
			{ID: "business", Name: "Business", Entitlements: Entitlements{Paid: true, MonthlyCredits: 150000, RequestsPerHour: 1000}},
			{ID: "enterprise", Name: "Enterprise", Entitlements: Entitlements{Paid: true, MonthlyCredits: 200000, RequestsPerHour: 5000}}}},
		{ID: LineVoice, Plans: []Plan{
			{ID: "pro", Name: "Pro", Entitlements: Entitlements{Paid: true}},
			{ID: "business", Name: "Business", Entitlements: Entitlements{Paid: true}},
			{ID: "enterprise", Name: "Enterprise", Entitlements: Entitlements{Paid: true}}}},
		{ID: LineAudit, Plans: []Plan{
			{ID: "free", Name: "Free", Free: true, Entitlements: Entitlements{PagesPerCrawl: 1}},
			{ID: "pro", Name: "Pro", Entitlements: Entitlements{Paid: true, PagesPerCrawl: 500}},
			{ID: "business", Name: "Business", Entitlements: Entitlements{Paid: true, PagesPerCrawl: Unlimited}},
			{ID: "agency", Name: "Agency", Entitlements: Entitlements{Paid: true, PagesPerCrawl: Unlimited}}}},
		{ID: LineCaptable, Plans: []Plan{
			{ID: "free", Name: "Free", Free: true, Entitlements: Entitlements{MonthlyCalls: 1000, CallsPerMinute: 10}},
			{ID: "starter", Name: "Starter", Entitlements: Entitlements{Paid: true, MonthlyCalls: 10000, CallsPerMinute: 60}},
			{ID: "professional", Name: "Professional", Entitlements: Entitlements{Paid: true, MonthlyCalls: 100000, CallsPerMinute: 300}},
			{ID: "enterprise", Name: "Enterprise", Entitlements: Entitlements{Paid: true, MonthlyCalls: Unlimited, CallsPerMinute: 1000}}}},
	}
}

// FindLine returns the line with id.
func FindLine(id string) (Line, bool) {
	if l, ok := findLine(id); ok {
		return l.clone(), true
	}
	return Line{}, false
}

// findLine is FindLine without the copy, for reads within the package.
func findLine(id string) (Line, bool) {
	for _, l := range lines {
		if l.ID == id {
			return l, true
		}
	}
	return Line{}, false
}

// Find returns a line's plan; plan ids are compared case-insensitively
// ("STARTER" is the cap table's spelling of starter).
func Find(line, plan string) (Plan, bool) {
	l, ok := findLine(line)
	if !ok {
		return Plan{}, false
	}
	for _, p := range l.Plans {
		if strings.EqualFold(p.ID, plan) {
			return p, true
		}
	}
	return Plan{}, false
}

// Default returns a line's free plan, if it has one.
func (l Line) Default() (Plan, bool) {
	for _, p := range l.Plans {
		if p.Free {
			return p, true
		}
	}
	return Plan{}, false
}

// IDs lists a line's plan ids.
func (l Line) IDs() []string {
	out := make([]string, len(l.Plans))
	for i, p := range l.Plans {
		out[i] = p.ID
	}
	return out
}

// LineIDs lists the lines' ids.
func LineIDs() []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.ID)
	}
	return out
}

// PlanChanged puts an account on a plan in one product line.
type PlanChanged struct {
	AccountID      string     `json:"account_id"`
	Line           string     `json:"product_line"`
	Plan           string     `json:"plan"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	SubscriptionID string     `json:"subscription_id,omitempty"`
	PeriodEnd      *time.Time `json:"period_end,omitempty"`
	// ProviderTime is when the payment provider reported the change (its
	// event's created time): a report older than the last one applied
	// changes nothing. Zero for operators' changes.
	ProviderTime time.Time `json:"provider_time,omitzero"`
	At           time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (PlanChanged) EventType() string { return "plans.plan_changed" }

// Events lists the plans events for the registry.
func Events() []func() kernel.Event {
	return []func() kernel.Event{func() kernel.Event { return &PlanChanged{} }}
}

// State is an account's plan in one line.
type State struct {
	Plan           string     `json:"plan"`
	Status         string     `json:"status"`
	Source         string     `json:"source,omitempty"`
	SubscriptionID string     `json:"subscription_id,omitempty"`
	PeriodEnd      *time.Time `json:"period_end,omitempty"`
	Since          time.Time  `json:"since,omitzero"`
	providerTime   time.Time
}

// Account is an account's plans, by line (the fold of its stream).
type Account struct {
	Lines map[string]State
}

// Apply folds one event.
func (a *Account) Apply(ev kernel.Event) {
	e, ok := ev.(*PlanChanged)
	if !ok {
		return
	}
	if a.Lines == nil {
		a.Lines = map[string]State{}
	}
	prev := a.Lines[e.Line]
	pt := e.ProviderTime
	if pt.IsZero() {
		pt = prev.providerTime
	}
	a.Lines[e.Line] = State{Plan: e.Plan, Status: e.Status, Source: e.Source, SubscriptionID: e.SubscriptionID,
		PeriodEnd: e.PeriodEnd, Since: e.At, providerTime: pt}
}

// Change is a requested change.
type Change struct {
	AccountID      string
	Line           string
	Plan           string
	Status         string // StatusActive when empty
	Source         string
	SubscriptionID string
	PeriodEnd      *time.Time
	ProviderTime   time.Time
}

// Check validates a change: a known line, a plan of it, a known status and
// source, an account id.
func (c *Change) Check() error {
	if strings.TrimSpace(c.AccountID) == "" {
		return kernel.Invalid("account_id", "required", "account_id is required")
	}
	l, ok := FindLine(c.Line)
	if !ok {
		return kernel.Invalid("product_line", "enum:"+strings.Join(LineIDs(), ","),
			"product_line must be one of "+strings.Join(LineIDs(), ", "))
	}
	p, ok := Find(c.Line, c.Plan)
	if !ok {
		return kernel.Invalid("plan", "enum:"+strings.Join(l.IDs(), ","),
			"plan must be one of "+strings.Join(l.IDs(), ", ")+" for "+c.Line)
	}
	c.Plan = p.ID
	if c.Status == "" {
		c.Status = StatusActive
	}
	if !slices.Contains([]string{StatusActive, StatusTrialing, StatusPastDue, StatusCanceled}, c.Status) {
		return kernel.Invalid("status", "enum:active,trialing,past_due,canceled", "status must be active, trialing, past_due or canceled")
	}
	if !slices.Contains([]string{SourceOperator, SourceCheckout, SourceSubscription}, c.Source) {
		return kernel.Invalid("source", "enum:operator,checkout,subscription", "source must be operator, checkout or subscription")
	}
	return nil
}

// Decide returns the event a checked change records on a, or nil when it
// changes nothing: the same plan, status, subscription and period again, or
// a provider's report older than the last one applied in that line.
func (a Account) Decide(c Change, now time.Time) *PlanChanged {
	if c.Status == "" {
		c.Status = StatusActive
	}
	cur, had := a.Lines[c.Line]
	if had && !c.ProviderTime.IsZero() && c.ProviderTime.Before(cur.providerTime) {
		return nil // stale: a newer report was applied
	}
	if had && cur.Plan == c.Plan && cur.Status == c.Status && cur.SubscriptionID == c.SubscriptionID &&
		samePeriod(cur.PeriodEnd, c.PeriodEnd) {
		return nil
	}
	return &PlanChanged{AccountID: c.AccountID, Line: c.Line, Plan: c.Plan, Status: c.Status, Source: c.Source,
		SubscriptionID: c.SubscriptionID, PeriodEnd: c.PeriodEnd, ProviderTime: c.ProviderTime, At: now}
}

func samePeriod(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// Effective is the plan that applies: a canceled subscription leaves the
// line's free plan (ok false when the line has none: no plan applies).
func Effective(line string, s State) (Plan, bool) {
	l, ok := findLine(line)
	if !ok {
		return Plan{}, false
	}
	if s.Plan == "" || s.Status == StatusCanceled {
		return l.Default()
	}
	return Find(line, s.Plan)
}
