package reports

import (
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// contribution is what one event added to (or took from) one figure.
type contribution struct {
	figure string
	entry  Entry
	delta  num.Num
	what   string
}

// tracker recomputes the cap table's figures on its own, event by event,
// recording each event's contribution to each figure. It follows the
// domain's rules (captable.Company.Apply and Summary) but shares no code
// with them, so that the reconciliation is a real second computation.
type tracker struct {
	asOf     time.Time
	cur      Entry
	classes  map[string]*trackedClass
	grants   map[string]*trackedGrant
	order    []string                      // grant ids in issue order
	stock    map[string]map[string]num.Num // class -> holder -> stock shares (before conversion)
	holders  map[string][]string           // class -> holders with stock, first seen first
	contribs []contribution
}

// trackedClass is a class's type, authorized shares, conversion ratio and
// issued shares as the tracker has seen them.
type trackedClass struct {
	typ    string
	total  num.Num
	ratio  num.Num // conversion ratio into common (1 unless preferred)
	issued num.Num
}

// trackedGrant is a grant's terms and what the tracker has seen of it.
type trackedGrant struct {
	captable.Grant
	removed     num.Num // exercised, forfeited, expired or cancelled
	windowEnds  *time.Time
	termsEntry  Entry // the entry that last set the terms
	terminEntry Entry // the termination's entry
}

// Figure keys.
func classKey(id, f string) string  { return "class." + id + "." + f }
func holderKey(id, f string) string { return "holder." + id + "." + f }
func totalKey(f string) string      { return "total." + f }

// emit records the current entry's contribution to a figure (none when
// it is zero).
func (t *tracker) emit(key string, delta num.Num, what string) {
	if !delta.IsZero() {
		t.contribs = append(t.contribs, contribution{figure: key, entry: t.cur, delta: delta, what: what})
	}
}

// ratioOf is the domain's rule: a preferred class's conversion ratio, 1
// when unset or for any other class.
func ratioOf(cl captable.ShareClass) num.Num {
	if cl.Type != captable.ClassPreferred || cl.ConversionRatio.IsZero() {
		return num.Int(1)
	}
	return cl.ConversionRatio
}

func isStockClass(typ string) bool {
	return typ == captable.ClassCommon || typ == captable.ClassPreferred
}

// authorize changes a class's authorized shares by d.
func (t *tracker) authorize(id string, d num.Num, what string) {
	cl := t.classes[id]
	typ := cl.typ
	cl.total = cl.total.Add(d)
	t.emit(classKey(id, "authorized"), d, what)
	t.emit(classKey(id, "available"), d, what)
	if isStockClass(typ) {
		t.emit(totalKey("authorized"), d, what)
	}
	if typ == captable.ClassPool {
		t.emit(classKey(id, "fullyDiluted"), d, what)
		t.emit(totalKey("unallocatedPool"), d, what)
		t.emit(totalKey("fullyDiluted"), d, what)
	}
}

// convert changes a class's conversion ratio: every share already issued
// counts for the difference.
func (t *tracker) convert(id string, ratio num.Num, what string) {
	cl := t.classes[id]
	d := ratio.Sub(cl.ratio)
	cl.ratio = ratio
	if d.IsZero() || !isStockClass(cl.typ) {
		return
	}
	t.emit(classKey(id, "fullyDiluted"), cl.issued.Mul(d), what)
	t.emit(totalKey("fullyDiluted"), cl.issued.Mul(d), what)
	for _, h := range t.holders[id] {
		n := t.stock[id][h].Mul(d)
		t.emit(holderKey(h, "issued"), n, what)
		t.emit(holderKey(h, "fullyDiluted"), n, what)
	}
}

// issue adds q shares of a stock class to a holder (q < 0 takes them back).
func (t *tracker) issue(id, holder string, q num.Num, what string) {
	cl := t.classes[id]
	if t.stock[id] == nil {
		t.stock[id] = map[string]num.Num{}
	}
	if _, seen := t.stock[id][holder]; !seen {
		t.holders[id] = append(t.holders[id], holder)
	}
	t.stock[id][holder] = t.stock[id][holder].Add(q)
	t.shares(id, q, what)
	t.emit(holderKey(holder, "issued"), q.Mul(cl.ratio), what)
	t.emit(holderKey(holder, "fullyDiluted"), q.Mul(cl.ratio), what)
}

// shares adds q issued shares to a class and its totals.
func (t *tracker) shares(id string, q num.Num, what string) {
	cl := t.classes[id]
	cl.issued = cl.issued.Add(q)
	t.emit(classKey(id, "issued"), q, what)
	t.emit(classKey(id, "available"), q.Neg(), what)
	if isStockClass(cl.typ) {
		t.emit(totalKey("issued"), q, what)
		t.emit(classKey(id, "fullyDiluted"), q.Mul(cl.ratio), what)
		t.emit(totalKey("fullyDiluted"), q.Mul(cl.ratio), what)
	}
}

// award grants q units from a reserve to a holder (q < 0 returns them:
// forfeited, expired, cancelled or lapsed).
func (t *tracker) award(id, holder string, q num.Num, what string) {
	typ := t.classes[id].typ
	t.emit(classKey(id, "outstanding"), q, what)
	t.emit(classKey(id, "available"), q.Neg(), what)
	t.emit(totalKey("outstandingAwards"), q, what)
	switch typ {
	case captable.ClassPool:
		t.emit(totalKey("unallocatedPool"), q.Neg(), what)
	case captable.ClassWarrant:
		t.emit(classKey(id, "fullyDiluted"), q, what)
		t.emit(totalKey("fullyDiluted"), q, what)
	}
	t.emit(holderKey(holder, "awards"), q, what)
	t.emit(holderKey(holder, "fullyDiluted"), q, what)
}

// exercise turns q award units of a reserve into q shares of a common class.
func (t *tracker) exercise(g *trackedGrant, into string, q num.Num, what string) {
	if cl := t.classes[g.ShareClassID]; cl != nil {
		t.emit(classKey(g.ShareClassID, "outstanding"), q.Neg(), what)
		t.emit(totalKey("outstandingAwards"), q.Neg(), what)
		if cl.typ == captable.ClassPool || cl.typ == captable.ClassWarrant {
			t.emit(classKey(g.ShareClassID, "fullyDiluted"), q.Neg(), what)
			t.emit(totalKey("fullyDiluted"), q.Neg(), what)
		}
		t.emit(holderKey(g.StakeholderID, "awards"), q.Neg(), what)
		t.emit(holderKey(g.StakeholderID, "issued"), q, what)
	}
	if t.classes[into] != nil {
		t.shares(into, q, what)
	}
}

// lapsed is what of an award's outstanding units lapsed by the as-of day
// without an expiry recorded, and the entry whose terms made it lapse.
func (t *tracker) lapsed(g *trackedGrant) (num.Num, Entry, string) {
	out := g.Quantity.Sub(g.removed)
	if captable.IsStock(g.GrantType) || out.IsZero() {
		return num.Zero, Entry{}, ""
	}
	if g.windowEnds != nil && t.asOf.After(*g.windowEnds) {
		return out, g.terminEntry, "exercise window closed " + day(*g.windowEnds)
	}
	if g.ExpirationDate != nil && t.asOf.After(*g.ExpirationDate) {
		return out, g.termsEntry, "expired " + day(*g.ExpirationDate)
	}
	return num.Zero, Entry{}, ""
}

// finish counts the awards that lapsed by the as-of day, each against the
// event that set the window or the expiration date.
func (t *tracker) finish() {
	for _, id := range t.order {
		g := t.grants[id]
		if t.classes[g.ShareClassID] == nil {
			continue
		}
		if l, e, why := t.lapsed(g); !l.IsZero() {
			t.cur = e
			t.award(g.ShareClassID, g.StakeholderID, l.Neg(), g.GrantNumber+" lapsed: "+why+", no expiry recorded")
		}
	}
}
