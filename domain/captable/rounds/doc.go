// Package rounds models a priced equity round on a fully diluted cap table:
// the round price, the new-money shares, the conversion of SAFEs, the
// option-pool top-up, and anti-dilution adjustments of protected preferred.
// Every figure is an exact rational (num.Num); nothing is ever a float.
//
// # Notation
//
//	F  = sum of the pre-round fully diluted shares (Round.PreFD, pool row included)
//	A  = Round.AvailablePool, the unallocated pool already in F
//	P  = pool increase of this round
//	S  = total SAFE conversion shares, S = S_1 + ... + S_n
//	N  = new-money shares
//	p  = round price per share, x = 1/p
//
// # The model
//
// Round price, by Round.Convention (where converting SAFEs sit):
//
//	PERCENT_OWNERSHIP (default): p = PreMoney / (F + P + S)
//	    the percentage-ownership method: SAFEs and the pool increase sit in
//	    the pre-money; new investors own exactly RoundSize / (PreMoney +
//	    RoundSize) (YC's post-money SAFE guide prices rounds this way).
//	PRE_MONEY:                   p = PreMoney / (F + P)
//	    the pre-money method: the price is the pre-money valuation over the
//	    pre-round fully diluted shares (with the pool increase); SAFE shares
//	    are issued on top and dilute the new investors too.
//	DOLLARS_INVESTED:            p = (PreMoney + sum of SAFE amounts) / (F + P + S)
//	    SAFE money counts at face value in the valuation.
//
// Cooley's worked example (1,000,000 common; a $1M post-money SAFE with a
// 30% discount; $2M at $8M pre-money): PRE_MONEY prices at $8.00, the SAFE
// converts at $5.60 and the founders keep 70%; PERCENT_OWNERSHIP solves
// p * (1,000,000 + S) = $8M, p = 46/7 ($6.571429), and the founders keep
// 23/35 (65.71%); DOLLARS_INVESTED gives p = 53/7 ($7.571429).
//
// New money:  N = RoundSize / p.
//
// Pool:
//
//	with PoolTargetPercent t: P = max(0, t/100 * (F + P + S + N) - A)
//	    (the unallocated pool A + P is t% of the post-money fully diluted shares,
//	    unless the existing pool already reaches it, then P = 0);
//	with PoolIncrease:        P = PoolIncrease;
//	neither:                  P = 0.
//
// SAFE i (amount a_i, cap c_i, discount d_i) converts at the lowest of the
// prices its terms offer, which is the one giving the most shares:
//
//	discount price     = (1 - d_i) * p                  (when d_i > 0)
//	POST_MONEY cap     = c_i / (F + S)                  (when c_i > 0; YC "Company
//	    Capitalization": every pre-round share, option, promised option and the
//	    unissued pool, plus all converting securities, but not this round's P)
//	PRE_MONEY cap      = c_i / (F + P)                  (when c_i > 0; pre-money
//	    capitalization with the new pool, without converting securities)
//	round price        = p                              (when d_i = 0: a cap-only
//	    SAFE never converts above the round price; a SAFE with neither converts at p)
//	S_i = a_i / conversion price.
//
// An MFN SAFE converts with the terms it elected (passed in Cap, Discount and
// ElectedType, whose type decides the cap formula); with no election it
// converts at p.
//
// # Solving
//
// p, P, N and every S_i depend on one another, so they are solved together.
// With x = 1/p and a fixed regime (which price each SAFE takes, whether the
// pool's max clamps at 0) every equation above is linear in (x, P, N, S_1..S_n):
//
//	PERCENT_OWNERSHIP:  PreMoney*x - P - S = F
//	PRE_MONEY:          PreMoney*x - P = F
//	DOLLARS_INVESTED:   (PreMoney + sum a_i)*x - P - S = F
//	N - RoundSize*x = 0
//	(1 - t/100)*P - t/100*(S + N) = t/100*F - A     (or P = 0, or P = PoolIncrease)
//	S_i - a_i*x = 0                  (round price)
//	S_i - a_i/(1-d_i)*x = 0          (discount)
//	S_i - a_i/c_i*S = a_i/c_i*F      (POST_MONEY cap)
//	S_i - a_i/c_i*P = a_i/c_i*F      (PRE_MONEY cap)
//
// Model solves the system exactly by Gaussian elimination over rationals,
// checks that the regime agrees with the solution (each SAFE took its lowest
// price, the pool clamp matches the sign of the unclamped increase), switches
// the choices that disagree and solves again. The search is deterministic and
// bounded: if the iteration cycles it tries every regime in a fixed order.
// When no regime is consistent the terms have no solution (the SAFEs, the
// pool and the new money would take 100% or more), which Model refuses as
// invalid input; an internal error remains only for a regime space too large
// to search.
//
// # Rounding
//
// Shares are rounded down once, at the end, per piece: the new-money shares,
// each SAFE's shares, and the pool increase. Exact values are returned
// alongside. The price is returned exactly and rounded to 6 decimals (halves
// away from zero).
//
// # Anti-dilution
//
// AdjustConversionPrice applies broad-based or narrow-based weighted average,
// or full-ratchet, protection when a new round is priced below a class's
// conversion price; see its documentation for the formulas.
package rounds
