package reports

import (
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// recompute runs the tracker over the applied entries and returns every
// contribution, the lapses of the as-of day last.
func recompute(applied []Entry, asOf time.Time) []contribution {
	t := &tracker{asOf: asOf, classes: map[string]*trackedClass{}, grants: map[string]*trackedGrant{},
		stock: map[string]map[string]num.Num{}, holders: map[string][]string{}}
	for _, e := range applied {
		t.cur = e
		t.apply(e)
	}
	t.finish()
	return t.contribs
}

// apply records one entry's contributions.
func (t *tracker) apply(e Entry) {
	switch ev := e.Event.(type) {
	case *captable.ShareClassCreated:
		t.classes[ev.ID] = &trackedClass{typ: ev.Type, ratio: num.Int(1)}
		t.authorize(ev.ID, ev.TotalShares, ev.Name+" created, authorized "+qty(ev.TotalShares))
		t.convert(ev.ID, ratioOf(ev.ShareClass), ev.Name+" conversion ratio "+qty(ratioOf(ev.ShareClass)))
	case *captable.ShareClassUpdated:
		if cl := t.classes[ev.ID]; cl != nil {
			t.authorize(ev.ID, ev.TotalShares.Sub(cl.total), ev.Name+" authorized now "+qty(ev.TotalShares))
			t.convert(ev.ID, ratioOf(ev.ShareClass), ev.Name+" conversion ratio now "+qty(ratioOf(ev.ShareClass)))
		}
	case *captable.SharesAuthorized:
		if t.classes[ev.ShareClassID] != nil {
			t.authorize(ev.ShareClassID, ev.Increase, "authorized "+qty(ev.Increase)+" more")
		}
	case *captable.ConversionAdjusted:
		if cl := t.classes[ev.ShareClassID]; cl != nil {
			r := ratioOf(captable.ShareClass{Type: cl.typ, ConversionRatio: ev.NewConversionRatio})
			t.convert(ev.ShareClassID, r, "anti-dilution: conversion ratio now "+qty(r))
		}
	case *captable.GrantIssued:
		g := &trackedGrant{Grant: ev.Grant, termsEntry: e}
		t.grants[ev.ID] = g
		t.order = append(t.order, ev.ID)
		t.place(g, ev.Quantity, g.GrantNumber+" issued")
	case *captable.GrantUpdated:
		if g := t.grants[ev.ID]; g != nil {
			t.place(g, g.Quantity.Neg(), g.GrantNumber+" terms replaced")
			g.Grant, g.termsEntry = ev.Grant, e
			t.place(g, g.Quantity, g.GrantNumber+" new terms")
		}
	case *captable.GrantExercised:
		if g := t.grants[ev.GrantID]; g != nil {
			g.removed = g.removed.Add(ev.Quantity)
			t.exercise(g, ev.ShareClassID, ev.Quantity, g.GrantNumber+" exercised "+qty(ev.Quantity))
		}
	case *captable.GrantTerminated:
		if g := t.grants[ev.GrantID]; g != nil {
			w := ev.WindowEnds
			g.removed, g.windowEnds, g.terminEntry = g.removed.Add(ev.Forfeited), &w, e
			t.place(g, ev.Forfeited.Neg(), g.GrantNumber+" terminated, forfeited "+qty(ev.Forfeited))
		}
	case *captable.GrantExpired:
		t.remove(ev.GrantID, ev.Quantity, " expired ")
	case *captable.GrantCancelled:
		t.remove(ev.GrantID, ev.Quantity, " cancelled ")
	}
}

// remove takes q units out of a grant (an expiry or a cancellation).
func (t *tracker) remove(id string, q num.Num, verb string) {
	if g := t.grants[id]; g != nil {
		g.removed = g.removed.Add(q)
		t.place(g, q.Neg(), g.GrantNumber+verb+qty(q))
	}
}

// place adds q of a grant's units to its class and holder: issued shares
// for stock, outstanding awards otherwise.
func (t *tracker) place(g *trackedGrant, q num.Num, what string) {
	if t.classes[g.ShareClassID] == nil {
		return
	}
	if captable.IsStock(g.GrantType) {
		t.issue(g.ShareClassID, g.StakeholderID, q, what)
		return
	}
	t.award(g.ShareClassID, g.StakeholderID, q, what)
}
