package rounds

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// randomRound draws a valid round: 1-5 holders, maybe a pool row, one of the
// three pool options, a random convention and 0-6 SAFEs of mixed types.
func randomRound(rng *rand.Rand) Round {
	between := func(lo, hi int64) num.Num { return num.Int(lo + rng.Int64N(hi-lo+1)) }
	r := Round{
		RoundSize:         between(500_000, 20_000_000),
		PreMoneyValuation: between(2_000_000, 100_000_000),
		NewShareClassName: "Series A",
		Convention:        []string{"", ConventionPreMoney, ConventionPercentOwnership, ConventionDollarsInvested}[rng.IntN(4)],
	}
	for i := range 1 + rng.IntN(5) {
		r.PreFD = append(r.PreFD, Holder{ID: fmt.Sprintf("h%d", i), Name: "holder", Shares: between(100_000, 10_000_000)})
	}
	if rng.IntN(2) == 0 {
		r.AvailablePool = between(1, 3_000_000)
		r.PreFD = append(r.PreFD, Holder{ID: PoolID, Name: "Unallocated pool", Shares: r.AvailablePool})
	}
	switch rng.IntN(3) {
	case 0:
		r.PoolTargetPercent = ptr(num.Ratio(1+rng.Int64N(300), 10)) // 0.1% to 30%
	case 1:
		r.PoolIncrease = ptr(between(0, 2_000_000))
	}
	for i := range rng.IntN(7) {
		amount := between(25_000, 2_000_000)
		s := SAFE{ID: fmt.Sprintf("s%d", i), InvestorID: fmt.Sprintf("inv%d", rng.IntN(4)), Amount: amount,
			Type: []string{TypePreMoney, TypePostMoney, TypeMFN}[rng.IntN(3)]}
		elected := s.Type != TypeMFN || rng.IntN(2) == 0
		if s.Type == TypeMFN && elected {
			s.ElectedType = []string{TypePreMoney, TypePostMoney}[rng.IntN(2)]
		}
		if elected && rng.IntN(4) != 0 {
			s.Cap = amount.Mul(between(10, 150)) // post-money SAFEs then own at most 6 * 10%
		}
		if elected && rng.IntN(2) == 0 {
			s.Discount = num.Ratio(1+rng.Int64N(40), 100)
		}
		r.SAFEs = append(r.SAFEs, s)
	}
	return r
}

// offered lists every price s's terms offer, recomputed from the result.
func offered(s SAFE, res Result) map[string]num.Num {
	out := map[string]num.Num{}
	if s.Cap.Sign() > 0 {
		t := s.Type
		if t == TypeMFN {
			t = s.ElectedType
		}
		if t == TypePostMoney {
			out[BasisCap] = s.Cap.Div(res.CompanyCapitalization)
		} else {
			out[BasisCap] = s.Cap.Div(res.PreMoneyShares.Add(res.PoolIncreaseExact))
		}
	}
	if s.Discount.Sign() > 0 {
		out[BasisDiscount] = num.Int(1).Sub(s.Discount).Mul(res.Price)
	}
	out[BasisRoundPrice] = res.Price
	return out
}

func TestPropertiesRandomRounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 7))
	bases := map[string]int{}
	clamped := 0
	solved, infeasible := 0, 0
	for k := 0; solved < 400; k++ {
		r := randomRound(rng)
		res, err := Model(r)
		var ke *kernel.Error
		if errors.As(err, &ke) && ke.Kind == kernel.KindInvalid && ke.Rule == "feasible" {
			infeasible++
			if infeasible > solved/4+10 {
				t.Fatalf("too many infeasible rounds: %d of %d", infeasible, k+1)
			}
			continue
		}
		if err != nil {
			t.Fatalf("round %d: %v\n%+v", k, err, r)
		}
		solved++
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("round %d: "+format+"\n%+v", append([]any{k}, append(args, r)...)...)
		}
		one, hundred := num.Int(1), num.Int(100)
		F, P, N, p := res.PreMoneyShares, res.PoolIncreaseExact, res.NewSharesExact, res.Price
		S, money := num.Zero, num.Zero
		for i, c := range res.Conversions {
			s := r.SAFEs[i]
			S, money = S.Add(c.SharesExact), money.Add(s.Amount)
			if !c.SharesExact.Mul(c.Price).Equal(s.Amount) || !c.Shares.Equal(c.SharesExact.Floor()) {
				fail("SAFE %d: shares %s at %s for %s", i, c.SharesExact, c.Price, s.Amount)
			}
			prices := offered(s, res)
			if s.Discount.Sign() > 0 {
				delete(prices, BasisRoundPrice) // a discount is always better than p
			}
			if got, ok := prices[c.Basis]; !ok || !got.Equal(c.Price) {
				fail("SAFE %d: basis %s price %s, offered %v", i, c.Basis, c.Price, prices)
			}
			for b, price := range prices {
				if s.Amount.Div(price).Cmp(c.SharesExact) > 0 {
					fail("SAFE %d: basis %s gives more shares than %s", i, b, c.Basis)
				}
			}
			bases[c.Basis]++
		}
		var lhs, rhs num.Num // the price equation, multiplied out: p * shares = valuation
		switch r.convention() {
		case ConventionPercentOwnership:
			lhs, rhs = p.Mul(num.Sum(F, P, S)), r.PreMoneyValuation
			if !res.NewClassOwnership.Equal(r.RoundSize.Div(r.RoundSize.Add(r.PreMoneyValuation))) {
				fail("new class ownership %s", res.NewClassOwnership)
			}
		case ConventionPreMoney:
			lhs, rhs = p.Mul(F.Add(P)), r.PreMoneyValuation
		case ConventionDollarsInvested:
			lhs, rhs = p.Mul(num.Sum(F, P, S)), r.PreMoneyValuation.Add(money)
			if !res.PostMoneyValuation.Equal(num.Sum(r.PreMoneyValuation, money, r.RoundSize)) {
				fail("post-money valuation %s", res.PostMoneyValuation)
			}
		}
		if !lhs.Equal(rhs) {
			fail("price equation %s != %s", lhs, rhs)
		}
		if !N.Mul(p).Equal(r.RoundSize) {
			fail("N*p = %s", N.Mul(p))
		}
		post := num.Sum(F, P, S, N)
		wantP := num.Zero
		switch {
		case r.PoolTargetPercent != nil:
			wantP = num.Max(num.Zero, r.PoolTargetPercent.Div(hundred).Mul(post).Sub(r.AvailablePool))
			if P.IsZero() {
				clamped++
			}
		case r.PoolIncrease != nil:
			wantP = *r.PoolIncrease
		}
		if !P.Equal(wantP) {
			fail("pool %s, want %s", P, wantP)
		}
		if !res.PostMoneySharesExact.Equal(post) || !res.CompanyCapitalization.Equal(F.Add(S)) ||
			!res.PostMoneyValuation.Equal(p.Mul(post)) || !res.NewClassOwnership.Equal(N.Div(post)) {
			fail("derived figures")
		}
		sum, shares := num.Zero, num.Zero
		for _, h := range res.Holders {
			sum, shares = sum.Add(h.OwnershipAfter), shares.Add(h.SharesAfter)
		}
		if !sum.Equal(one) || !shares.Equal(res.PostMoneyShares) {
			fail("ownership sums to %s, shares %s vs %s", sum, shares, res.PostMoneyShares)
		}
		pieces := num.Int(int64(2 + len(r.SAFEs)))
		if res.PostMoneyShares.Cmp(post) > 0 || !res.PostMoneyShares.Sub(post.Sub(pieces)).Less(pieces.Add(one)) ||
			res.PostMoneyShares.Cmp(post.Sub(pieces)) <= 0 {
			fail("rounded post %s vs exact %s", res.PostMoneyShares, post)
		}
		// The exhaustive search agrees with the fixed-point search.
		sol, _, err := newModel(r).enumerate()
		if err != nil || !sol.x.Equal(num.Int(1).Div(p)) {
			fail("enumerate: %v, price %s vs %s", err, sol.price(), p)
		}
	}
	for _, b := range []string{BasisCap, BasisDiscount, BasisRoundPrice} {
		if bases[b] == 0 {
			t.Errorf("no SAFE converted on %s: %v", b, bases)
		}
	}
	if clamped == 0 {
		t.Error("no pool target was already met")
	}
	t.Logf("solved %d, infeasible %d, bases %v, clamped pools %d", solved, infeasible, bases, clamped)
}
