package rounds

import (
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Indices of the unknowns in the linear system; S_i is at iS0+i.
const (
	ix  = 0 // x = 1/p
	iP  = 1 // pool increase
	iN  = 2 // new-money shares
	iS0 = 3 // first SAFE's shares
)

// Bounds of the regime search.
const (
	maxIterations = 64      // fixed-point steps before the exhaustive search
	maxRegimes    = 1 << 12 // largest regime space searched exhaustively
)

// model is a validated Round in the terms of the equations.
type model struct {
	f, preMoney, roundSize, avail num.Num
	convention                    string
	hasTarget                     bool
	tau                           num.Num // pool target as a fraction, when hasTarget
	fixedPool                     num.Num // P when there is no target
	safes                         []SAFE
}

// regime fixes the branch of every max/min in the model: the basis each SAFE
// converts at, and whether the pool target's max(0, ...) clamps at zero.
type regime struct {
	basis   []string
	clamped bool
}

func (g regime) key() string {
	return strings.Join(g.basis, ",") + "|" + strconv.FormatBool(g.clamped)
}

// solution is the exact solution of one regime's linear system.
type solution struct {
	x, pool, newShares num.Num
	safes              []num.Num
}

func (s solution) price() num.Num { return num.Int(1).Div(s.x) }

func (s solution) safeTotal() num.Num { return num.Sum(s.safes...) }

func newModel(r Round) model {
	m := model{
		preMoney:   r.PreMoneyValuation,
		roundSize:  r.RoundSize,
		avail:      r.AvailablePool,
		convention: r.convention(),
		safes:      r.SAFEs,
	}
	for _, h := range r.PreFD {
		m.f = m.f.Add(h.Shares)
	}
	switch {
	case r.PoolTargetPercent != nil:
		m.hasTarget = true
		m.tau = r.PoolTargetPercent.Div(num.Int(100))
	case r.PoolIncrease != nil:
		m.fixedPool = *r.PoolIncrease
	}
	return m
}

// size is the number of unknowns.
func (m model) size() int { return iS0 + len(m.safes) }

// equations returns the augmented matrix (coefficients, then the right-hand
// side) of the regime's linear system.
func (m model) equations(g regime) [][]num.Num {
	n := m.size()
	row := func() []num.Num { return make([]num.Num, n+1) }
	// Price: PreMoney' * x - P - [S] = F.
	price := row()
	price[ix] = m.preMoney
	price[iP] = num.Int(-1)
	price[n] = m.f
	if m.convention != ConventionPreMoney {
		for i := range m.safes {
			price[iS0+i] = num.Int(-1)
		}
	}
	if m.convention == ConventionDollarsInvested {
		for _, s := range m.safes {
			price[ix] = price[ix].Add(s.Amount)
		}
	}
	// New money: N - RoundSize * x = 0.
	money := row()
	money[iN] = num.Int(1)
	money[ix] = m.roundSize.Neg()
	rows := [][]num.Num{price, money, m.poolRow(g, row())}
	for i, s := range m.safes {
		rows = append(rows, m.safeRow(i, s, g.basis[i], row()))
	}
	return rows
}

// solveRegime solves g's system; ok is false when it is singular.
func (m model) solveRegime(g regime) (solution, bool) {
	v, ok := solveLinear(m.equations(g))
	if !ok {
		return solution{}, false
	}
	return solution{x: v[ix], pool: v[iP], newShares: v[iN], safes: v[iS0:]}, true
}

// solveLinear solves the square system in the augmented matrix a exactly by
// Gauss-Jordan elimination, overwriting a. ok is false when it is singular.
func solveLinear(a [][]num.Num) ([]num.Num, bool) {
	n := len(a)
	for col := 0; col < n; col++ {
		pivot := -1
		for r := col; r < n; r++ {
			if !a[r][col].IsZero() {
				pivot = r
				break
			}
		}
		if pivot < 0 {
			return nil, false
		}
		a[col], a[pivot] = a[pivot], a[col]
		for r := 0; r < n; r++ {
			if r == col || a[r][col].IsZero() {
				continue
			}
			k := a[r][col].Div(a[col][col])
			for c := col; c <= n; c++ {
				a[r][c] = a[r][c].Sub(k.Mul(a[col][c]))
			}
		}
	}
	v := make([]num.Num, n)
	for i := range v {
		v[i] = a[i][n].Div(a[i][i])
	}
	return v, true
}

// check reports whether sol agrees with the regime g that produced it, and
// returns the regime its values point to (g with every disagreeing choice
// switched; a negative pool increase switches the pool to clamped). A
// solution with a non-positive price or SAFE shares agrees with no regime and
// points back to g.
func (m model) check(g regime, sol solution) (regime, bool) {
	if sol.x.Sign() <= 0 || sol.newShares.Sign() <= 0 {
		return g, false
	}
	for _, s := range sol.safes {
		if s.Sign() <= 0 {
			return g, false
		}
	}
	next := regime{basis: make([]string, len(g.basis)), clamped: m.poolClamps(sol)}
	ok := next.clamped == g.clamped
	for i, s := range m.safes {
		next.basis[i] = m.bestBasis(s, g.basis[i], sol)
		ok = ok && next.basis[i] == g.basis[i]
	}
	return next, ok
}

// solve finds the regime whose solution agrees with it: first by fixed-point
// iteration from the initial regime, then, if that cycles or stalls, by
// trying every regime in a fixed order (see enumerate for its errors).
func (m model) solve() (solution, regime, error) {
	g := m.initialRegime()
	seen := make(map[string]bool)
	for range maxIterations {
		if seen[g.key()] {
			break
		}
		seen[g.key()] = true
		sol, ok := m.solveRegime(g)
		if !ok {
			break
		}
		next, consistent := m.check(g, sol)
		if consistent {
			return sol, g, nil
		}
		g = next
	}
	return m.enumerate()
}

func (m model) initialRegime() regime {
	g := regime{basis: make([]string, len(m.safes))}
	for i, s := range m.safes {
		g.basis[i] = candidates(s)[0]
	}
	return g
}

// enumerate tries every regime (mixed radix over the SAFEs' candidate bases
// and the pool clamp) and returns the first consistent one. Every solution of
// the model lies in some regime, whose (nonsingular) system then yields it,
// so when no regime is consistent the terms have no solution: that is bad
// input. A regime space too large to search is an internal error.
func (m model) enumerate() (solution, regime, error) {
	cands := make([][]string, len(m.safes))
	total := 1
	for i, s := range m.safes {
		cands[i] = candidates(s)
		total *= len(cands[i])
		if total > maxRegimes {
			return solution{}, regime{}, kernel.E(kernel.KindInternal,
				"the round model found no consistent solution and has too many SAFEs to search every case")
		}
	}
	clamps := []bool{false}
	if m.hasTarget {
		clamps = append(clamps, true)
	}
	for _, clamped := range clamps {
		for k := range total {
			g := regime{basis: make([]string, len(m.safes)), clamped: clamped}
			rest := k
			for i := range cands {
				g.basis[i] = cands[i][rest%len(cands[i])]
				rest /= len(cands[i])
			}
			if sol, ok := m.solveRegime(g); ok {
				if _, consistent := m.check(g, sol); consistent {
					return sol, g, nil
				}
			}
		}
	}
	return solution{}, regime{}, kernel.Invalid("preMoneyValuation", "feasible",
		"preMoneyValuation cannot hold these terms: no positive round price exists because the SAFE conversions, "+
			"the option pool and the new money would take 100% or more of the company")
}
