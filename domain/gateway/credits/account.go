package credits

import (
	"slices"
	"time"
)

// MaxPeriods is how many of an account's latest periods its state keeps
// (by start): the current one, and those a late debit or refund may still
// name.
const MaxPeriods = 3

// PeriodUse is what happened in one of an account's periods.
type PeriodUse struct {
	Period
	Plan        string `json:"plan,omitempty"` // the plan of its last plan_period grant
	PlanGranted Micro  `json:"plan_granted_micro"`
	Granted     Micro  `json:"granted_micro"` // every grant in the period, the plan's included
	Used        Micro  `json:"used_micro"`    // debits less refunds of requests in the period
}

// Account is an account's ledger folded: the balance and its parts, and the
// latest periods. Apply is commutative (the same events in any order give
// the same state), so every reader may fold in its own order: a stream's
// version order, the store's consumption order, or a table's state plus
// the events after it.
type Account struct {
	AccountID string `json:"account_id"`
	Balance   Micro  `json:"balance_micro"`
	Granted   Micro  `json:"granted_micro"`
	Debited   Micro  `json:"debited_micro"`
	Refunded  Micro  `json:"refunded_micro"`
	Adjusted  Micro  `json:"adjusted_micro"`
	Requests  int64  `json:"requests"`
	// Periods are the latest MaxPeriods periods, by start.
	Periods []PeriodUse `json:"periods,omitempty"`
	// LegacyCarried: identity's balance from before the ledger was carried
	// over (at most once).
	LegacyCarried bool `json:"legacy_carried,omitempty"`
}

// Apply folds one ledger event (others are ignored).
func (a *Account) Apply(ev any) {
	switch e := ev.(type) {
	case *Granted:
		a.AccountID = e.AccountID
		a.Balance += e.AmountMicro
		a.Granted += e.AmountMicro
		if p := a.period(e.Period); p != nil {
			p.Granted += e.AmountMicro
			if e.Reason == ReasonPlanPeriod {
				p.PlanGranted += e.AmountMicro
				p.Plan = e.Plan
			}
		}
	case *Debited:
		a.AccountID = e.AccountID
		a.Balance -= e.AmountMicro
		a.Debited += e.AmountMicro
		a.Requests++
		if p := a.period(e.Period); p != nil {
			p.Used += e.AmountMicro
		}
	case *Refunded:
		a.AccountID = e.AccountID
		a.Balance += e.AmountMicro
		a.Refunded += e.AmountMicro
		if p := a.period(e.Period); p != nil {
			p.Used -= e.AmountMicro
		}
	case *Adjusted:
		a.AccountID = e.AccountID
		a.Balance += e.AmountMicro
		a.Adjusted += e.AmountMicro
		if e.Reason == ReasonLegacyBalance {
			a.LegacyCarried = true
		}
	default:
		return
	}
	a.prune()
}

// period returns the use of period p, adding it when missing (nil for no
// period). A period older than the kept ones is added and then pruned by
// Apply, so its amounts are dropped whatever the order of events.
func (a *Account) period(p *Period) *PeriodUse {
	if p == nil || p.Key == "" {
		return nil
	}
	for i := range a.Periods {
		if a.Periods[i].Key == p.Key {
			return &a.Periods[i]
		}
	}
	a.Periods = append(a.Periods, PeriodUse{Period: Period{Key: p.Key, Start: p.Start.UTC(), End: p.End.UTC()}})
	return &a.Periods[len(a.Periods)-1]
}

// prune keeps the latest MaxPeriods periods, ordered by start (then key).
func (a *Account) prune() {
	slices.SortFunc(a.Periods, func(x, y PeriodUse) int {
		if c := x.Start.Compare(y.Start); c != 0 {
			return c
		}
		switch {
		case x.Key < y.Key:
			return -1
		case x.Key > y.Key:
			return 1
		}
		return 0
	})
	if n := len(a.Periods); n > MaxPeriods {
		a.Periods = slices.Clone(a.Periods[n-MaxPeriods:])
	}
}

// Use returns the use of the period with key, if kept.
func (a Account) Use(key string) (PeriodUse, bool) {
	for _, p := range a.Periods {
		if p.Key == key {
			return p, true
		}
	}
	return PeriodUse{}, false
}

// PeriodAt returns the kept period that contains t (the latest starting
// one, if several overlap).
func (a Account) PeriodAt(t time.Time) (Period, bool) {
	for i := len(a.Periods) - 1; i >= 0; i-- {
		p := a.Periods[i]
		if !t.Before(p.Start) && t.Before(p.End) {
			return p.Period, true
		}
	}
	return Period{}, false
}

// Clone returns a copy of a that shares nothing with it.
func (a Account) Clone() Account {
	a.Periods = slices.Clone(a.Periods)
	return a
}
