package extract

import (
	"slices"
	"strings"
)

// commit turns a resolved argument into a mention (or re-types one).
func (d *doc) commit(a *arg) {
	if a.self || a.value {
		return
	}
	if a.m < 0 {
		a.m = d.addPhrase(mention{i: a.i, j: a.j, name: a.name, kind: a.kind, place: a.place})
		return
	}
	x := &d.ments[a.m]
	if x.kind != a.kind {
		x.kind, x.place = a.kind, a.place
	}
}

// addPhrase adds a mention that may contain others: concepts strictly
// inside it are dropped ("databases" in "distributed databases"), other
// entities inside stay ("Kubernetes" in "Kubernetes migration").
func (d *doc) addPhrase(m mention) int {
	for k := m.i; k < m.j; k++ {
		if d.cover[k] == 0 {
			continue
		}
		x := &d.ments[d.cover[k]-1]
		if x.kind == Concept && !x.place && x.i >= m.i && x.j <= m.j && x.j-x.i < m.j-m.i {
			for y := x.i; y < x.j; y++ {
				d.cover[y] = 0
			}
			x.name = ""
		}
	}
	d.ments = append(d.ments, m)
	n := len(d.ments)
	for k := m.i; k < m.j; k++ {
		if d.cover[k] == 0 {
			d.cover[k] = n
		}
	}
	return n - 1
}

// same reports whether two relations state the same fact (names compared
// case-insensitively).
func (r Relation) same(o Relation) bool {
	return r.Predicate == o.Predicate && strings.EqualFold(r.Subject, o.Subject) && strings.EqualFold(r.Object, o.Object)
}

// add appends r unless the same fact is already recorded. Short lists
// are scanned; long ones (big texts) use an index.
func (d *doc) add(r Relation, ended bool) {
	list := &d.res.Relations
	if ended {
		list = &d.res.Ended
	}
	if len(*list) < 16 {
		if !slices.ContainsFunc(*list, r.same) {
			*list = append(*list, r)
		}
		return
	}
	if d.relSeen == nil {
		d.relSeen = make(map[string]int)
		for i, x := range d.res.Relations {
			d.relSeen[x.key(false)] = i
		}
		for i, x := range d.res.Ended {
			d.relSeen[x.key(true)] = i
		}
	}
	k := r.key(ended)
	if _, ok := d.relSeen[k]; ok {
		return
	}
	d.relSeen[k] = len(*list)
	*list = append(*list, r)
}

func (r Relation) key(ended bool) string {
	k := strings.ToLower(r.Subject + "\x00" + r.Predicate + "\x00" + r.Object)
	if ended {
		return "-" + k
	}
	return k
}

// emit records subject-predicate-object facts in the given state.
func (d *doc) emit(subs []arg, pred string, objs []arg, st state) {
	if st == stNone {
		return
	}
	selfKind := d.opt.SelfKind
	if selfKind == "" {
		selfKind = Person
	}
	for _, s := range subs {
		sname, skind := s.name, s.kind
		if s.self {
			if d.opt.Self == "" {
				continue
			}
			sname, skind = d.opt.Self, selfKind
		}
		p := pred
		switch {
		case p == "lives_in" && skind == Org:
			p = "located_in"
		case p == "located_in" && skind == Person:
			p = "lives_in"
		}
		for _, o := range objs {
			oname, okind := o.name, o.kind
			if o.self {
				if d.opt.Self == "" {
					continue
				}
				oname, okind = d.opt.Self, selfKind
			}
			if oname == "" || strings.EqualFold(oname, sname) {
				continue
			}
			r := Relation{Subject: sname, SubjectKind: skind, Predicate: p, Object: oname, ObjectKind: okind}
			d.add(r, st == stEnded)
		}
	}
}
