package waterfall

import (
	"sort"

	"github.com/strata-platform/strata/domain/captable/num"
)

// RoundCents rounds each amount to 2 decimals so that the rounded amounts sum
// exactly to the exact sum rounded to 2 decimals (halves away from zero).
// It uses the largest-remainder method: every amount is first rounded down
// (toward minus infinity), then the cents still missing go one each to the
// amounts with the largest remainders, ties to the earliest index. No amount
// moves by a cent or more. The result has the same length and order as
// amounts; amounts is not changed.
func RoundCents(amounts []num.Num) []num.Num {
	out := make([]num.Num, len(amounts))
	rems := make([]num.Num, len(amounts))
	sum, floors := num.Zero, num.Zero
	for i, a := range amounts {
		out[i] = a.RoundDown(2)
		rems[i] = a.Sub(out[i])
		sum = sum.Add(a)
		floors = floors.Add(out[i])
	}
	missing, _ := sum.Round(2).Sub(floors).Mul(num.Int(100)).Int64()
	if missing <= 0 {
		return out
	}
	order := make([]int, len(amounts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return rems[order[y]].Less(rems[order[x]]) })
	cent := num.Ratio(1, 100)
	for _, i := range order[:missing] {
		out[i] = out[i].Add(cent)
	}
	return out
}
