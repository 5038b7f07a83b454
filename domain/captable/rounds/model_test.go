package rounds

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

func n(s string) num.Num { return num.MustParse(s) }

func ptr(x num.Num) *num.Num { return &x }

// ycTable is the YC post-money SAFE guide's pre-round table (10,000,000).
func ycTable() []Holder {
	return []Holder{
		{ID: "founders", Name: "Founders", Shares: n("9250000")},
		{ID: "options", Name: "Options outstanding", Shares: n("300000")},
		{ID: "promised", Name: "Promised options", Shares: n("350000")},
		{ID: PoolID, Name: "Unallocated pool", Shares: n("100000")},
	}
}

// simple is a 10,000,000-share table with no pool: $5M on $15M pre.
func simple(safes ...SAFE) Round {
	return Round{
		RoundSize: n("5000000"), PreMoneyValuation: n("15000000"), NewShareClassName: "Series A",
		PreFD: []Holder{{ID: "founders", Name: "Founders", Shares: n("10000000")}},
		SAFEs: safes,
	}
}

func mustModel(t *testing.T, r Round) Result {
	t.Helper()
	res, err := Model(r)
	if err != nil {
		t.Fatalf("Model: %v", err)
	}
	return res
}

func eq(t *testing.T, what string, got, want num.Num) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func TestYCPostMoneyGuide(t *testing.T) {
	r := Round{
		RoundSize: n("5000000"), PreMoneyValuation: n("15000000"), NewShareClassName: "Series A",
		PreFD: ycTable(), AvailablePool: n("100000"), PoolIncrease: ptr(n("1695000")),
		Convention: ConventionPercentOwnership,
		SAFEs: []SAFE{
			{ID: "safe-a", InvestorID: "inv-a", Type: TypePostMoney, Amount: n("200000"), Cap: n("4000000")},
			{ID: "safe-b", InvestorID: "inv-b", Type: TypePostMoney, Amount: n("800000"), Cap: n("8000000")},
		},
	}
	res := mustModel(t, r)
	eq(t, "CompanyCapitalization", res.CompanyCapitalization, n("10000000").Div(n("0.85")))
	eq(t, "CompanyCapitalization.RoundDown(2)", res.CompanyCapitalization.RoundDown(2), n("11764705.88"))
	for i, want := range []struct{ price, shares string }{{"0.34", "588235"}, {"0.68", "1176470"}} {
		c := res.Conversions[i]
		if c.Basis != BasisCap {
			t.Errorf("SAFE %d basis %s, want CAP", i, c.Basis)
		}
		eq(t, c.SAFEID+" price", c.Price, n(want.price))
		eq(t, c.SAFEID+" shares", c.Shares, n(want.shares))
	}
	eq(t, "PriceRounded", res.PriceRounded, n("1.114437"))
	eq(t, "PostMoneySharesExact.Round(1)", res.PostMoneySharesExact.Round(1), n("17946274.5"))
	eq(t, "PoolIncrease", res.PoolIncrease, n("1695000"))
	eq(t, "NewClassOwnership", res.NewClassOwnership, n("0.25"))
	eq(t, "PostMoneyValuation", res.PostMoneyValuation, n("20000000"))
	var pool Ownership
	for _, h := range res.Holders {
		if h.ID == PoolID {
			pool = h
		}
	}
	eq(t, "pool SharesAfter", pool.SharesAfter, n("1795000"))
}

func TestExamples(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		round                     Round
		price, newShares, owned   string
		poolExact2, pool          string
		poolIsTargetOfPostFDShare string
	}{
		{name: "dilution", round: simple(), price: "1.5", newShares: "3333333", owned: "0.25", poolExact2: "0", pool: "0"},
		{name: "pool target 10%", round: func() Round { r := simple(); r.PoolTargetPercent = ptr(n("10")); return r }(),
			price: "1.3", newShares: "3846153", owned: "0.25", poolExact2: "1538461.54", pool: "1538461", poolIsTargetOfPostFDShare: "0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustModel(t, tc.round)
			eq(t, "Price", res.Price, n(tc.price))
			eq(t, "NewShares", res.NewShares, n(tc.newShares))
			eq(t, "NewClassOwnership", res.NewClassOwnership, n(tc.owned))
			eq(t, "PoolIncreaseExact.Round(2)", res.PoolIncreaseExact.Round(2), n(tc.poolExact2))
			eq(t, "PoolIncrease", res.PoolIncrease, n(tc.pool))
			if tc.poolIsTargetOfPostFDShare != "" {
				eq(t, "pool share", res.PoolIncreaseExact.Div(res.PostMoneySharesExact), n(tc.poolIsTargetOfPostFDShare))
			}
		})
	}
}

func TestSAFEConversions(t *testing.T) {
	m := n("1000000")
	for _, tc := range []struct {
		name         string
		safe         SAFE
		basis, price string
		initial      string // the search's first guess, to show a flip
	}{
		{name: "discount only", safe: SAFE{Type: TypePostMoney, Amount: m, Discount: n("0.2")},
			basis: BasisDiscount, price: "1.1"}, // p = 1.375
		{name: "cap beats discount", safe: SAFE{Type: TypePostMoney, Amount: m, Cap: n("8000000"), Discount: n("0.2")},
			basis: BasisCap, price: "0.7", initial: BasisCap},
		{name: "discount beats cap: regime flips", safe: SAFE{Type: TypePostMoney, Amount: m, Cap: n("20000000"), Discount: n("0.2")},
			basis: BasisDiscount, price: "1.1", initial: BasisCap},
		{name: "pre-money cap", safe: SAFE{Type: TypePreMoney, Amount: m, Cap: n("8000000")},
			basis: BasisCap, price: "0.8"},
		{name: "cap above round price converts at p", safe: SAFE{Type: TypePreMoney, Amount: m, Cap: n("20000000")},
			basis: BasisRoundPrice, price: "1.4", initial: BasisCap},
		{name: "MFN without election", safe: SAFE{Type: TypeMFN, Amount: m},
			basis: BasisRoundPrice, price: "1.4"},
		{name: "MFN elected post-money cap", safe: SAFE{Type: TypeMFN, ElectedType: TypePostMoney, Amount: m, Cap: n("8000000"), Discount: n("0.2")},
			basis: BasisCap, price: "0.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.safe.ID, tc.safe.InvestorID = "s1", "inv"
			r := simple(tc.safe)
			res := mustModel(t, r)
			c := res.Conversions[0]
			if c.Basis != tc.basis {
				t.Fatalf("basis %s, want %s", c.Basis, tc.basis)
			}
			eq(t, "conversion price", c.Price, n(tc.price))
			eq(t, "shares exact", c.SharesExact, m.Div(n(tc.price)))
			if tc.initial != "" {
				if got := newModel(r).initialRegime().basis[0]; got != tc.initial {
					t.Errorf("initial regime %s, want %s", got, tc.initial)
				}
			}
			if c.Basis == BasisDiscount {
				eq(t, "discount price", c.Price, n("0.8").Mul(res.Price))
			}
		})
	}
}

func TestConventions(t *testing.T) {
	safe := SAFE{ID: "s1", InvestorID: "inv", Type: TypePostMoney, Amount: n("1000000"), Discount: n("0.2")}
	for _, tc := range []struct {
		convention, price, postValuation string
	}{
		{"", "1.375", "20000000"},                         // 15M/(10M+S), S = 1.25M/p
		{ConventionPercentOwnership, "1.375", "20000000"}, // = PreMoney + RoundSize
		{ConventionPreMoney, "1.5", "21250000"},           // 15M/10M; SAFE shares on top
		{ConventionDollarsInvested, "1.475", "21000000"},  // 16M/(10M+S) and PreMoney + SAFE money + RoundSize
	} {
		t.Run(tc.convention, func(t *testing.T) {
			r := simple(safe)
			r.Convention = tc.convention
			res := mustModel(t, r)
			eq(t, "Price", res.Price, n(tc.price))
			eq(t, "PostMoneyValuation", res.PostMoneyValuation, n(tc.postValuation))
			eq(t, "SAFE price", res.Conversions[0].Price, n("0.8").Mul(n(tc.price)))
			s := res.Conversions[0].SharesExact
			F := n("10000000")
			switch tc.convention {
			case ConventionPreMoney:
				eq(t, "p*(F+P)", res.Price.Mul(F), n("15000000"))
			case ConventionDollarsInvested:
				eq(t, "p*(F+P+S)", res.Price.Mul(F.Add(s)), n("16000000"))
			default:
				eq(t, "p*(F+P+S)", res.Price.Mul(F.Add(s)), n("15000000"))
			}
		})
	}
}

func TestPoolTargetAlreadyMet(t *testing.T) {
	r := simple()
	r.PreFD = []Holder{{ID: "founders", Shares: n("9000000")}, {ID: PoolID, Name: "Unallocated pool", Shares: n("2000000")}}
	r.AvailablePool = n("2000000")
	r.PoolTargetPercent = ptr(n("10"))
	res := mustModel(t, r)
	eq(t, "PoolIncreaseExact", res.PoolIncreaseExact, num.Zero)
	eq(t, "Price", res.Price, n("15000000").Div(n("11000000")))
}

func TestHoldersMergeAndSum(t *testing.T) {
	r := Round{
		RoundSize: n("5000000"), PreMoneyValuation: n("15000000"), NewShareClassName: "Series A",
		PreFD: ycTable(), AvailablePool: n("100000"), PoolTargetPercent: ptr(n("12.5")),
		SAFEs: []SAFE{
			{ID: "a", InvestorID: "angel", Type: TypePostMoney, Amount: n("100000"), Cap: n("5000000")},
			{ID: "b", InvestorID: "angel", Type: TypePreMoney, Amount: n("150000"), Cap: n("6000000"), Discount: n("0.15")},
			{ID: "c", InvestorID: "founders", Type: TypeMFN, Amount: n("50000")},
		},
	}
	res := mustModel(t, r)
	ids := []string{}
	total, after := num.Zero, num.Zero
	for _, h := range res.Holders {
		ids = append(ids, h.ID)
		total = total.Add(h.OwnershipAfter)
		after = after.Add(h.SharesAfter)
	}
	want := []string{"founders", "options", "promised", PoolID, "angel", NewMoneyID}
	if len(ids) != len(want) {
		t.Fatalf("holders %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("holders %v, want %v", ids, want)
		}
	}
	eq(t, "sum OwnershipAfter", total, num.Int(1))
	eq(t, "sum SharesAfter", after, res.PostMoneyShares)
	eq(t, "angel after", res.Holders[4].SharesAfter, res.Conversions[0].Shares.Add(res.Conversions[1].Shares))
	eq(t, "founders after", res.Holders[0].SharesAfter, n("9250000").Add(res.Conversions[2].Shares))
	eq(t, "pool share", n("100000").Add(res.PoolIncreaseExact).Div(res.PostMoneySharesExact), n("0.125"))
	if res.Holders[5].Name != "Series A" {
		t.Errorf("new money name %q", res.Holders[5].Name)
	}
}

func TestInfeasibleTermsAreRefused(t *testing.T) {
	// The default PERCENT_OWNERSHIP convention: SAFEs converting at or below
	// p are worth at least their $2M at p, more than the $1.5M pre-money can
	// hold.
	r := simple(SAFE{ID: "s", InvestorID: "inv", Type: TypeMFN, Amount: n("2000000")})
	r.PreMoneyValuation = n("1500000")
	_, err := Model(r)
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != "preMoneyValuation" || ke.Rule != "feasible" {
		t.Fatalf("err %v, want invalid preMoneyValuation feasible", err)
	}
	// The same SAFE money counted at face value (DOLLARS_INVESTED) is fine.
	r.Convention = ConventionDollarsInvested
	res := mustModel(t, r)
	eq(t, "PostMoneyValuation", res.PostMoneyValuation, n("8500000"))
}
