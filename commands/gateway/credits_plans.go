package gateway

import (
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/plans"
)

// PlanReader is what the credits need of the platform's plans: the plan
// an account holds in a product line (projections/accounts.Directory).
type PlanReader interface {
	Plan(accountID, line string) (plans.State, plans.Plan, bool)
}

// Entitlements returns the function that reads an account's gateway
// entitlement from the plans (the plan that applies in the gateway line;
// an account with none is on the line's free plan, Starter), with its
// subscription's period end as the periods' anchor while the subscription
// is not cancelled. legacy, if not nil, gives identity's credit balance
// from before the ledger (carried over once).
func Entitlements(dir PlanReader, legacy func(accountID string) int64) func(accountID string) credits.Entitlement {
	return func(accountID string) credits.Entitlement {
		st, p, ok := dir.Plan(accountID, plans.LineGateway)
		if !ok {
			l, _ := plans.FindLine(plans.LineGateway)
			p, _ = l.Default()
		}
		e := credits.Entitlement{Plan: p.ID, PlanName: p.Name, Paid: p.Paid, MonthlyCredits: p.MonthlyCredits,
			RequestsPerHour: p.RequestsPerHour}
		if ok && st.Status != plans.StatusCanceled && st.SubscriptionID != "" && st.PeriodEnd != nil && st.Plan == p.ID {
			end := st.PeriodEnd.UTC()
			e.Anchor = &end
		}
		if legacy != nil {
			e.LegacyCredits = legacy(accountID)
		}
		return e
	}
}
