package vesting

import "github.com/strata-platform/strata/domain/captable/num"

// split turns total whole units and the fractions weights (non-negative,
// summing to 1) into whole, non-negative amounts, one per weight, that sum
// exactly to total, by the rounding rule r ("" is CumulativeRoundDown).
func split(total num.Num, weights []num.Num, r Rounding) []num.Num {
	switch r {
	case FrontLoaded, BackLoaded:
		return spread(total, weights, r == FrontLoaded)
	default:
		return cumulative(total, weights, r == CumulativeRounding)
	}
}

// cumulative rounds the running total after each weight (down, or to the
// nearest unit with halves up when nearest is set) and returns the
// differences; the last amount takes whatever remains of total. Rounding is
// monotone, so every amount is >= 0.
func cumulative(total num.Num, weights []num.Num, nearest bool) []num.Num {
	out := make([]num.Num, len(weights))
	half := num.Ratio(1, 2)
	frac, prev := num.Zero, num.Zero
	for i, w := range weights {
		var cum num.Num
		if i == len(weights)-1 {
			cum = total
		} else {
			frac = frac.Add(w)
			exact := total.Mul(frac)
			if nearest {
				exact = exact.Add(half)
			}
			cum = exact.Floor()
		}
		out[i] = cum.Sub(prev)
		prev = cum
	}
	return out
}

// spread gives each weight floor(total × weight) and then one more unit to
// each of the first (front) or last (!front) weights until total is reached.
// The units left over are fewer than len(weights), since each floor loses
// less than one unit, so every weight gets at most one extra.
func spread(total num.Num, weights []num.Num, front bool) []num.Num {
	out := make([]num.Num, len(weights))
	given := num.Zero
	for i, w := range weights {
		out[i] = total.Mul(w).Floor()
		given = given.Add(out[i])
	}
	left, _ := total.Sub(given).Int64()
	one := num.Int(1)
	for j := 0; j < int(left) && j < len(out); j++ {
		i := j
		if !front {
			i = len(out) - 1 - j
		}
		out[i] = out[i].Add(one)
	}
	return out
}

// equalCumulative returns the whole units vested after k of n equal portions
// of total under rule r; it equals the running sum of split(total, n × 1/n,
// r) after k portions, computed with a constant number of operations: 0 for
// k <= 0, total for k >= n, otherwise floor(total·k/n) (round down),
// floor(total·k/n + 1/2) (rounding), or k·floor(total/n) plus the leftover
// units given to the first k portions (front) or to the last k-(n-left) of
// them (back).
func equalCumulative(total num.Num, k, n int, r Rounding) num.Num {
	switch {
	case k <= 0:
		return num.Zero
	case k >= n:
		return total
	}
	switch r {
	case FrontLoaded, BackLoaded:
		nn := num.Int(int64(n))
		base := total.Div(nn).Floor()
		left64, _ := total.Sub(base.Mul(nn)).Int64() // 0 <= left < n
		left := int(left64)
		extra := min(k, left)
		if r == BackLoaded {
			extra = max(0, k-(n-left))
		}
		return base.Mul(num.Int(int64(k))).Add(num.Int(int64(extra)))
	case CumulativeRounding:
		return total.Mul(num.Ratio(int64(k), int64(n))).Add(num.Ratio(1, 2)).Floor()
	default:
		return total.Mul(num.Ratio(int64(k), int64(n))).Floor()
	}
}
