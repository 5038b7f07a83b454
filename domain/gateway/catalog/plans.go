package catalog

import "strings"

// PlanTier is one row of the plan mapping: a plan of a product line and
// the catalog tier it gives.
type PlanTier struct {
	Line string // "platform" or "gateway" (domain/plans' line ids)
	Plan string
	Tier Tier
}

// PlanTiers is the one mapping from the platform's plans to the catalog's
// access tiers. The seed speaks two vocabularies: the model catalog's
// tiers, which are the platform line's plans (Free, Basic $9, Professional
// $29, Enterprise $99 a month), and the gateway page's plans (Starter
// free, Pro $49, Business $149, Enterprise $699). A platform plan gives
// the tier of its name. A gateway plan gives the highest tier whose monthly
// price it covers: Starter → free, Pro → professional (so the routers'
// "plan Pro+" and the catalog's "Professional+" agree), Business and
// Enterprise → enterprise. Nothing gives less than free.
func PlanTiers() []PlanTier {
	return []PlanTier{
		{"platform", "free", TierFree},
		{"platform", "basic", TierBasic},
		{"platform", "professional", TierProfessional},
		{"platform", "enterprise", TierEnterprise},
		{"gateway", "starter", TierFree},
		{"gateway", "pro", TierProfessional},
		{"gateway", "business", TierEnterprise},
		{"gateway", "enterprise", TierEnterprise},
	}
}

// TierOf is the catalog tier of an account on platformPlan and gatewayPlan
// (the plans that apply: a cancelled subscription's line is on its free
// plan): the higher of the two plans' tiers. An unknown or empty plan gives
// free.
func TierOf(platformPlan, gatewayPlan string) Tier {
	best := TierFree
	for _, pt := range PlanTiers() {
		if (pt.Line == "platform" && strings.EqualFold(pt.Plan, platformPlan) ||
			pt.Line == "gateway" && strings.EqualFold(pt.Plan, gatewayPlan)) && pt.Tier.Rank() > best.Rank() {
			best = pt.Tier
		}
	}
	return best
}
