package corpus

import (
	"fmt"
	"strings"
	"time"
)

// drawSlots draws a value for every slot name for a memory about ent
// (-1 for none) stated at time at. It returns the values and the indices of
// other entities the values name.
func (g *generator) drawSlots(names []string, ent int, at time.Time) ([]string, []int) {
	vals := make([]string, len(names))
	var mentions []int
	for i, name := range names {
		base := slotBase(name)
		v, m := g.slotValue(base, ent, at)
		for try := 0; try < 8 && clashes(v, base, names[:i], vals[:i]); try++ {
			v, m = g.slotValue(base, ent, at)
		}
		vals[i] = v
		if m >= 0 && m != ent && !containsInt(mentions, m) {
			mentions = append(mentions, m)
		}
	}
	return vals, mentions
}

// clashes reports whether v repeats an earlier value of the same vocabulary.
func clashes(v, base string, names, vals []string) bool {
	for j, n := range names {
		if slotBase(n) == base && vals[j] == v {
			return true
		}
	}
	return false
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// slotValue draws one value; the int is the entity index it names, or -1.
func (g *generator) slotValue(base string, ent int, at time.Time) (string, int) {
	switch base {
	case "E":
		return g.ents[ent].Name, -1
	case "F":
		return g.ents[ent].short, -1
	case "P":
		if p := g.otherEntity(KindPerson, ent); p >= 0 {
			return g.ents[p].Name, p
		}
		return g.contactName(), -1
	case "Contact":
		return g.contactName(), -1
	case "Org", "O":
		if o := g.otherEntity(KindOrg, ent); o >= 0 && (base == "Org" || g.chance(0.5) || len(g.orgPool) == 0) {
			return g.ents[o].Name, o
		}
		if len(g.orgPool) > 0 {
			return g.pick(g.orgPool), -1
		}
		return "Acme Consulting", -1
	case "C", "CE":
		if c := g.otherEntity(KindConcept, ent); c >= 0 && (base == "CE" || g.chance(0.7)) {
			return g.ents[c].Name, c
		}
		return g.pick(g.voc["Concept"]), -1
	case "Date":
		return at.AddDate(0, 0, 2+g.intn(44)).Format("January 2"), -1
	case "Month":
		return at.AddDate(0, 1+g.intn(4), 0).Format("January"), -1
	case "Quarter":
		t := at.AddDate(0, 3+3*g.intn(2), 0)
		return fmt.Sprintf("Q%d", (int(t.Month())-1)/3+1), -1
	case "N":
		return fmt.Sprint(2 + g.intn(59)), -1
	case "Pct":
		return fmt.Sprint(5 + g.intn(36)), -1
	case "Days":
		return fmt.Sprint(3 + g.intn(12)), -1
	case "Version":
		return fmt.Sprintf("%d.%d", 2+g.intn(16), g.intn(10)), -1
	case "Ticket":
		return fmt.Sprintf("#%05d", 10000+g.intn(90000)), -1
	}
	list, ok := g.voc[base]
	if !ok {
		panic("corpus: unknown slot " + base)
	}
	v := g.pick(list)
	if _, tech := techCategories()[base]; tech {
		if i, ok := g.byName[v]; ok {
			return v, i
		}
	}
	return v, -1
}

// otherEntity picks a random entity of kind other than ent, or -1.
func (g *generator) otherEntity(kind string, ent int) int {
	list := g.byKind[kind]
	if len(list) == 0 || (len(list) == 1 && list[0] == ent) {
		return -1
	}
	for {
		if i := list[g.intn(len(list))]; i != ent {
			return i
		}
	}
}

// contactName invents a person name that is not an entity's name.
func (g *generator) contactName() string {
	for {
		n := g.pick(g.voc["First"]) + " " + g.pick(g.voc["Writer"])
		if _, taken := g.byName[n]; !taken {
			return n
		}
	}
}

// allowedFor reports whether template t may describe entity ent.
func (g *generator) allowedFor(t *template, ent int) bool {
	if ent < 0 {
		return t.kind == ""
	}
	e := g.ents[ent]
	if t.kind != e.Kind {
		return false
	}
	return t.cats == "" || e.Kind != KindTech || strings.Contains(" "+t.cats+" ", " "+e.cat+" ")
}
