package rounds

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestValidateRefuses(t *testing.T) {
	safe := func(mod func(*SAFE)) func(*Round) {
		return func(r *Round) {
			s := SAFE{ID: "s", InvestorID: "inv", Type: TypePostMoney, Amount: n("100000"), Cap: n("5000000")}
			mod(&s)
			r.SAFEs = []SAFE{{ID: "ok", InvestorID: "x", Type: TypePreMoney, Amount: n("1")}, s}
		}
	}
	for _, tc := range []struct {
		name, field, rule string
		mod               func(*Round)
	}{
		{"round size zero", "roundSize", "positive", func(r *Round) { r.RoundSize = num.Zero }},
		{"round size negative", "roundSize", "positive", func(r *Round) { r.RoundSize = n("-1") }},
		{"pre-money zero", "preMoneyValuation", "positive", func(r *Round) { r.PreMoneyValuation = num.Zero }},
		{"pre-money negative", "preMoneyValuation", "positive", func(r *Round) { r.PreMoneyValuation = n("-5") }},
		{"empty table", "preFullyDiluted", "required", func(r *Round) { r.PreFD = nil }},
		{"holder shares zero", "preFullyDiluted[0].shares", "positive", func(r *Round) { r.PreFD[0].Shares = num.Zero }},
		{"holder id duplicate", "preFullyDiluted[1].id", "unique", func(r *Round) { r.PreFD = append(r.PreFD, r.PreFD[0]) }},
		{"pool row mismatch", "availablePool", "matches_pool_row", func(r *Round) { r.AvailablePool = n("5") }},
		{"both pool options", "optionPoolIncrease", "mutually_exclusive", func(r *Round) {
			r.PoolTargetPercent, r.PoolIncrease = ptr(n("10")), ptr(n("1000"))
		}},
		{"target zero", "optionPoolTargetPercent", "range", func(r *Round) { r.PoolTargetPercent = ptr(num.Zero) }},
		{"target 100", "optionPoolTargetPercent", "range", func(r *Round) { r.PoolTargetPercent = ptr(n("100")) }},
		{"target negative", "optionPoolTargetPercent", "range", func(r *Round) { r.PoolTargetPercent = ptr(n("-3")) }},
		{"pool increase negative", "optionPoolIncrease", "non_negative", func(r *Round) { r.PoolIncrease = ptr(n("-3")) }},
		{"unknown convention", "pricingConvention", "one_of", func(r *Round) { r.Convention = "POST_MONEY" }},
		{"unknown SAFE type", "safes[1].safeType", "one_of", safe(func(s *SAFE) { s.Type = "KISS" })},
		{"SAFE amount zero", "safes[1].investmentAmount", "positive", safe(func(s *SAFE) { s.Amount = num.Zero })},
		{"SAFE amount negative", "safes[1].investmentAmount", "positive", safe(func(s *SAFE) { s.Amount = n("-1") })},
		{"discount 1", "safes[1].discountRate", "range", safe(func(s *SAFE) { s.Discount = n("1") })},
		{"discount above 1", "safes[1].discountRate", "range", safe(func(s *SAFE) { s.Discount = n("1.5") })},
		{"discount negative", "safes[1].discountRate", "range", safe(func(s *SAFE) { s.Discount = n("-0.1") })},
		{"cap negative", "safes[1].valuationCap", "non_negative", safe(func(s *SAFE) { s.Cap = n("-1") })},
		{"investor missing", "safes[1].investorId", "required", safe(func(s *SAFE) { s.InvestorID = "" })},
		{"investor reserved", "safes[1].investorId", "reserved", safe(func(s *SAFE) { s.InvestorID = NewMoneyID })},
		{"post-money caps sum to 100%", "safes[1].valuationCap", "range", safe(func(s *SAFE) { s.Amount, s.Cap = n("1"), n("1") })},
		{"MFN terms without election", "safes[1].electedType", "required", safe(func(s *SAFE) { s.Type = TypeMFN })},
		{"MFN unknown election", "safes[1].electedType", "one_of", safe(func(s *SAFE) { s.Type, s.ElectedType = TypeMFN, "MFN" })},
		{"election on a non-MFN", "safes[1].electedType", "not_allowed", safe(func(s *SAFE) { s.ElectedType = TypePreMoney })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := simple()
			tc.mod(&r)
			for _, err := range []error{r.Validate(), modelErr(r)} {
				var ke *kernel.Error
				if !errors.As(err, &ke) {
					t.Fatalf("error %v is not a *kernel.Error", err)
				}
				if ke.Kind != kernel.KindInvalid || ke.Field != tc.field || ke.Rule != tc.rule {
					t.Fatalf("got kind %s field %q rule %q, want invalid %q %q", ke.Kind, ke.Field, ke.Rule, tc.field, tc.rule)
				}
				if ke.Message == "" {
					t.Fatal("empty message")
				}
			}
		})
	}
}

func modelErr(r Round) error {
	_, err := Model(r)
	return err
}

func TestValidateAccepts(t *testing.T) {
	r := simple(SAFE{InvestorID: "i", Type: TypeMFN, ElectedType: TypePreMoney, Amount: n("10"), Cap: n("100")})
	r.PoolIncrease = ptr(num.Zero)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
}
