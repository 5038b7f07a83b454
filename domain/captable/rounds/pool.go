package rounds

import "github.com/strata-platform/strata/domain/captable/num"

// poolRow fills row (length size()+1) with the pool equation of regime g:
//
//	target, not clamped: (1 - t)*P - t*(S_1+...+S_n) - t*N = t*F - A
//	target, clamped:     P = 0
//	no target:           P = PoolIncrease (0 when none)
//
// where t is the target as a fraction and A the available pool.
func (m model) poolRow(g regime, row []num.Num) []num.Num {
	n := m.size()
	if !m.hasTarget || g.clamped {
		row[iP] = num.Int(1)
		if !m.hasTarget {
			row[n] = m.fixedPool
		}
		return row
	}
	t := m.tau
	row[iP] = num.Int(1).Sub(t)
	row[iN] = t.Neg()
	for i := range m.safes {
		row[iS0+i] = t.Neg()
	}
	row[n] = t.Mul(m.f).Sub(m.avail)
	return row
}

// poolClamps reports whether, at sol, the pool target's max(0, ...) takes 0:
// the existing pool already reaches the target on the shares outside the
// increase (t*(F + S + N) - A <= 0 with P = 0), or, unclamped, the increase
// came out negative. Without a target it is always false.
func (m model) poolClamps(sol solution) bool {
	if !m.hasTarget {
		return false
	}
	if !sol.pool.IsZero() {
		return sol.pool.Sign() < 0
	}
	gap := m.tau.Mul(m.f.Add(sol.safeTotal()).Add(sol.newShares)).Sub(m.avail)
	return gap.Sign() <= 0
}
