package corpus

import (
	"strings"
	"testing"
	"time"
)

// corpusStripper strips every entity name and every person's first name.
func corpusStripper(c Corpus) *nameStripper {
	var names []string
	for _, e := range c.Entities {
		names = append(names, e.Name)
		if e.Kind == KindPerson {
			names = append(names, strings.Fields(e.Name)[0])
		}
	}
	return newNameStripper(names)
}

func TestStemAndOverlap(t *testing.T) {
	stop := stopSet()
	ns := newNameStripper([]string{"Priya Raman", "Northwind Analytics", "Go"})
	for _, pair := range [][2]string{{"works", "working"}, {"lives", "living"}, {"tools", "tooling"}, {"employer", "employed"}, {"studies", "study"}} {
		if stem(pair[0]) != stem(pair[1]) {
			t.Errorf("stem(%q)=%q, stem(%q)=%q", pair[0], stem(pair[0]), pair[1], stem(pair[1]))
		}
	}
	got := sharedContent("Where does Priya Raman work at Northwind Analytics?", "Priya Raman works at Northwind Analytics and Go is fun.", ns, stop)
	if len(got) != 1 || got[0] != "work" {
		t.Fatalf("shared = %v", got)
	}
	if got := sharedContent("Google Go", "Google", ns, stop); len(got) != 1 {
		t.Fatalf("names must strip whole tokens only: %v", got)
	}
}

func TestParaphraseRule(t *testing.T) {
	c, _ := defaultCorpus(t)
	ns, stop := corpusStripper(c), stopSet()
	text := map[string]string{}
	for _, m := range c.Memories {
		text[m.ID] = m.Content
	}
	n := 0
	for _, q := range c.Queries {
		if q.Kind != QueryParaphrased {
			continue
		}
		n++
		for _, id := range q.Relevant {
			if s := sharedContent(q.Text, text[id], ns, stop); len(s) > 1 {
				t.Errorf("%s %q shares %v with %s %q", q.ID, q.Text, s, id, text[id])
			}
		}
		for _, p := range dupLexicon() {
			if strings.Contains(" "+strings.ToLower(q.Text)+" ", " "+p[1]+" ") {
				t.Errorf("%s reuses duplicate wording %q: %q", q.ID, p[1], q.Text)
			}
		}
	}
	if n == 0 {
		t.Fatal("no paraphrased queries")
	}
}

// TestTemplates fills every template many times and checks lengths and the
// paraphrase rule against the text, the authored duplicate and the lexicon
// duplicate, so that generation never has to reject a target.
func TestTemplates(t *testing.T) {
	g := newGenerator(Config{Seed: 3}.withDefaults())
	g.makeEntities()
	at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	if n := len(g.tmpls) + 5*4; n < 60 {
		t.Fatalf("only %d memory templates", n)
	}
	for ti := range g.tmpls {
		tp := &g.tmpls[ti]
		var ents []int
		for e := -1; e < len(g.ents); e++ {
			if g.allowedFor(tp, e) {
				ents = append(ents, e)
			}
		}
		if len(ents) == 0 {
			t.Fatalf("template %d (%s) fits no entity", ti, tp.topic)
		}
		bad := false
		for k := 0; k < 300 && !bad; k++ {
			ent := ents[k%len(ents)]
			vals, _ := g.drawSlots(tp.slots, ent, at)
			txt, dup := fill(tp.text, tp.slots, vals), fill(tp.dup, tp.slots, vals)
			lex, _ := applyLexicon(txt, g.lex)
			para := fill(tp.para, tp.slots, vals)
			for _, s := range []string{txt, dup, lex} {
				if n := wordCount(s); n < 10 || n > 40 {
					t.Errorf("template %d: %d words: %q", ti, n, s)
					bad = true
				}
				if sh := sharedContent(para, s, g.strip, g.stop); len(sh) > 1 {
					t.Errorf("template %d: %q shares %v with %q", ti, para, sh, s)
					bad = true
				}
			}
		}
	}
	for _, f := range g.forms {
		for i := range f.texts {
			for _, c := range g.byKind[KindPerson][:20] {
				e := g.ents[c]
				for _, v := range []string{"Acme Robotics", "Lisbon", "site reliability engineer", "Senior Director", "on parental leave", "a contractor"} {
					vals := []string{e.Name, e.short, v}
					txt, dup := fill(f.texts[i], []string{"S", "F", "V"}, vals), fill(f.dups[i], []string{"S", "F", "V"}, vals)
					lex, _ := applyLexicon(txt, g.lex)
					for _, s := range []string{txt, dup, lex} {
						if n := wordCount(s); n < 10 || n > 40 {
							t.Fatalf("%s form %d: %d words: %q", f.pred, i, n, s)
						}
						for _, p := range f.para {
							pq := fill(p, []string{"S", "F"}, vals[:2])
							if sh := sharedContent(pq, s, g.strip, g.stop); len(sh) > 1 {
								t.Fatalf("%s: %q shares %v with %q", f.pred, pq, sh, s)
							}
						}
					}
				}
			}
		}
	}
}
