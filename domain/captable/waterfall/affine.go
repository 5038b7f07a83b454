package waterfall

// aff is the affine form a + b*E of the exit value E.
type aff struct{ a, b q }

func constant(c q) aff { return aff{a: c} }

func (f aff) add(g aff) aff    { return aff{f.a.add(g.a), f.b.add(g.b)} }
func (f aff) sub(g aff) aff    { return aff{f.a.sub(g.a), f.b.sub(g.b)} }
func (f aff) mul(c q) aff      { return aff{f.a.mul(c), f.b.mul(c)} }
func (f aff) isZero() bool     { return f.a.isZero() && f.b.isZero() }
func (f aff) equal(g aff) bool { return f.a.equal(g.a) && f.b.equal(g.b) }

// div returns f/c; c must not be 0.
func (f aff) div(c q) aff { return aff{f.a.quo(c), f.b.quo(c)} }

// at returns the value of f at e.
func (f aff) at(e q) q { return f.a.add(f.b.mul(e)) }

// bound is an exit value up to which something holds; unset is +infinity.
type bound struct {
	v   q
	set bool
}

// lower makes b the smaller of b and v.
func (b *bound) lower(v bound) {
	if v.set && (!b.set || v.v.cmp(b.v) < 0) {
		*b = v
	}
}

// above reports e < b.
func (b bound) above(e q) bool { return !b.set || e.cmp(b.v) < 0 }

// evaluator decides the sign of forms at one exit value e0: exactly there
// (right false: Run), or just above it (right true: a zero value takes the
// slope's sign, which is the sign on the whole regime that starts at e0).
// It remembers in next the smallest root above e0 of every form it was
// asked about: up to there, every sign it gave stays the same.
type evaluator struct {
	e0    q
	right bool
	next  bound
}

// sign returns the sign of f.
func (ev *evaluator) sign(f aff) int { return ev.signDiff(f, aff{}) }

// signMinus returns the sign of f - c.
func (ev *evaluator) signMinus(f aff, c q) int { return ev.signDiff(f, aff{a: c}) }

// signDiff returns the sign of f - g.
func (ev *evaluator) signDiff(f, g aff) int {
	a := f.a.sub(g.a)
	if f.b.isZero() && g.b.isZero() {
		return a.sign()
	}
	b := f.b.sub(g.b)
	bs := b.sign()
	if bs == 0 {
		return a.sign()
	}
	s := a.add(b.mul(ev.e0)).sign()
	if s == 0 {
		if ev.right {
			return bs
		}
		return 0
	}
	if s != bs { // f - g crosses zero above e0, at -a/b
		ev.next.lower(bound{v: a.quo(b).neg(), set: true})
	}
	return s
}
