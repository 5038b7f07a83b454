package rounds

import (
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

// cooley is Cooley's worked example of SAFE conversion methods: 1,000,000
// common shares (no pool), one $1M post-money SAFE with a 30% discount and
// no cap, and $2M of new money at an $8M pre-money valuation.
func cooley(convention string) Round {
	return Round{
		RoundSize: n("2000000"), PreMoneyValuation: n("8000000"), NewShareClassName: "Series A",
		PreFD:      []Holder{{ID: "founders", Name: "Founders", Shares: n("1000000")}},
		Convention: convention,
		SAFEs:      []SAFE{{ID: "safe", InvestorID: "angel", InvestorName: "Angel", Type: TypePostMoney, Amount: n("1000000"), Discount: n("0.3")}},
	}
}

// TestCooleyExample checks the three conventions on Cooley's example with
// figures recomputed by hand as exact fractions (F = 1,000,000 pre-round
// shares; the SAFE converts at 0.7p, so S = 1,000,000 / (0.7p); N = 2,000,000 / p):
//
//	PRE_MONEY (pre-money method): p = 8,000,000 / F = 8; SAFE price 0.7 * 8 =
//	5.6; S = 1,000,000 / 5.6 = 1,250,000/7; N = 250,000; post = F + S + N =
//	10,000,000/7. Founders own F / post = 7/10 (70.00%), new money
//	250,000 / post = 7/40 (17.5%: the SAFE dilutes it below 2/(8+2) = 20%),
//	the SAFE 1/8. Post-money valuation p * post = 80,000,000/7.
//
//	PERCENT_OWNERSHIP (percentage-ownership method): p * (F + S) = 8,000,000,
//	i.e. 1,000,000p + 1,000,000/0.7 = 8,000,000, so p = 8 - 10/7 = 46/7
//	(6.571429); SAFE price 0.7 * 46/7 = 23/5 = 4.6; S = 1,000,000 / 4.6 =
//	5,000,000/23; N = 2,000,000 * 7/46 = 7,000,000/23; post = 35,000,000/23.
//	Founders own 23/35 (65.71%), new money exactly 7/35 = 1/5 = 2/(8+2), the
//	SAFE 1/7. Post-money valuation 46/7 * 35,000,000/23 = 10,000,000.
//
//	DOLLARS_INVESTED: p * (F + S) = 8,000,000 + 1,000,000, so p = 9 - 10/7 =
//	53/7 (7.571429); SAFE price 0.7 * 53/7 = 53/10 = 5.3; S = 10,000,000/53;
//	N = 14,000,000/53; post = 77,000,000/53. Founders own 53/77 (68.83%), new
//	money 14/77 = 2/11, the SAFE 10/77. Post-money valuation 11,000,000.
func TestCooleyExample(t *testing.T) {
	for _, tc := range []struct {
		convention               string
		priceRounded, safePrice  string
		price                    [2]string // numerator, denominator
		safeShares, newShares    [2]string
		post                     [2]string
		founders, newMoney, safe [2]string
		postValuation            [2]string
		founders2dp              string
	}{
		{convention: ConventionPreMoney, price: [2]string{"8", "1"}, priceRounded: "8", safePrice: "5.6",
			safeShares: [2]string{"1250000", "7"}, newShares: [2]string{"250000", "1"}, post: [2]string{"10000000", "7"},
			founders: [2]string{"7", "10"}, newMoney: [2]string{"7", "40"}, safe: [2]string{"1", "8"},
			postValuation: [2]string{"80000000", "7"}, founders2dp: "0.7"},
		{convention: ConventionPercentOwnership, price: [2]string{"46", "7"}, priceRounded: "6.571429", safePrice: "4.6",
			safeShares: [2]string{"5000000", "23"}, newShares: [2]string{"7000000", "23"}, post: [2]string{"35000000", "23"},
			founders: [2]string{"23", "35"}, newMoney: [2]string{"1", "5"}, safe: [2]string{"1", "7"},
			postValuation: [2]string{"10000000", "1"}, founders2dp: "0.6571"},
		{convention: ConventionDollarsInvested, price: [2]string{"53", "7"}, priceRounded: "7.571429", safePrice: "5.3",
			safeShares: [2]string{"10000000", "53"}, newShares: [2]string{"14000000", "53"}, post: [2]string{"77000000", "53"},
			founders: [2]string{"53", "77"}, newMoney: [2]string{"2", "11"}, safe: [2]string{"10", "77"},
			postValuation: [2]string{"11000000", "1"}, founders2dp: "0.6883"},
	} {
		t.Run(tc.convention, func(t *testing.T) {
			frac := func(f [2]string) num.Num { return n(f[0]).Div(n(f[1])) }
			res := mustModel(t, cooley(tc.convention))
			eq(t, "Price", res.Price, (frac(tc.price)))
			eq(t, "PriceRounded", res.PriceRounded, n(tc.priceRounded))
			c := res.Conversions[0]
			if c.Basis != BasisDiscount {
				t.Errorf("SAFE basis %s, want DISCOUNT", c.Basis)
			}
			eq(t, "SAFE price", c.Price, n(tc.safePrice))
			eq(t, "SAFE shares", c.SharesExact, (frac(tc.safeShares)))
			eq(t, "new shares", res.NewSharesExact, (frac(tc.newShares)))
			eq(t, "post-money shares", res.PostMoneySharesExact, (frac(tc.post)))
			eq(t, "post-money valuation", res.PostMoneyValuation, (frac(tc.postValuation)))
			eq(t, "new money ownership", res.NewClassOwnership, (frac(tc.newMoney)))
			own := map[string]Ownership{}
			for _, h := range res.Holders {
				own[h.ID] = h
			}
			eq(t, "founders ownership", own["founders"].OwnershipAfter, (frac(tc.founders)))
			eq(t, "founders to 4 places", own["founders"].OwnershipAfter.Round(4), n(tc.founders2dp))
			eq(t, "SAFE ownership", own["angel"].OwnershipAfter, (frac(tc.safe)))
			if a := own["angel"]; a.Name != "Angel" || a.StakeholderID != "angel" {
				t.Errorf("SAFE investor row named %q (stakeholder %q), want Angel (angel)", a.Name, a.StakeholderID)
			}
			if nm := own[NewMoneyID]; nm.StakeholderID != "" {
				t.Errorf("new money row has stakeholder %q", nm.StakeholderID)
			}
			eq(t, "new-money ownership row", own[NewMoneyID].OwnershipAfter, (frac(tc.newMoney)))
		})
	}
	// The default (no pricingConvention) is the percentage-ownership method:
	// the YC behaviour Strata has always had, under its correct name.
	def := mustModel(t, cooley(""))
	eq(t, "default price", def.Price, n("46").Div(n("7")))
	if got := cooley("").convention(); got != ConventionPercentOwnership {
		t.Errorf("default convention %s, want %s", got, ConventionPercentOwnership)
	}
}
