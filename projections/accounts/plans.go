package accounts

import (
	"github.com/strata-platform/strata/domain/plans"
)

// applyPlan folds a plans event (d.mu held). The platform line's plan is
// also the user's Plan, which key verification, /auth/me and the userinfo
// claims read: the later of a plans event and a (legacy) identity
// plan_changed decides, in log order.
func (d *Directory) applyPlan(ev *plans.PlanChanged) {
	a := d.plans[ev.AccountID]
	if a == nil {
		a = &plans.Account{}
		d.plans[ev.AccountID] = a
	}
	a.Apply(ev)
	if ev.Line != plans.LinePlatform {
		return
	}
	if u := d.users[ev.AccountID]; u != nil {
		if p, ok := plans.Effective(ev.Line, a.Lines[ev.Line]); ok {
			u.Plan = p.ID
		}
	}
}

// Plan returns the account's recorded plan in a product line and the plan
// that applies (a canceled subscription leaves the line's free plan); ok
// is false when nothing was recorded for that account and line. For the
// platform line, an account without a plans event is on its user's Plan
// (set at registration, or by identity events from before plans existed).
func (d *Directory) Plan(accountID, line string) (plans.State, plans.Plan, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if a := d.plans[accountID]; a != nil {
		if s, ok := a.Lines[line]; ok {
			p, _ := plans.Effective(line, s)
			return s, p, true
		}
	}
	if line == plans.LinePlatform {
		if u := d.users[accountID]; u != nil && u.Plan != "" {
			if p, ok := plans.Find(line, u.Plan); ok {
				return plans.State{Plan: p.ID, Status: plans.StatusActive}, p, true
			}
		}
	}
	return plans.State{}, plans.Plan{}, false
}

// Plans returns every line's recorded plan of an account (a copy).
func (d *Directory) Plans(accountID string) map[string]plans.State {
	d.mu.RLock()
	defer d.mu.RUnlock()
	out := map[string]plans.State{}
	if a := d.plans[accountID]; a != nil {
		for l, s := range a.Lines {
			out[l] = s
		}
	}
	return out
}
