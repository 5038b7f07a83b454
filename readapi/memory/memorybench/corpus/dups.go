package corpus

import "strings"

// dupLexicon is the substitution lexicon for paraphrased duplicates. Query
// paraphrases use different wording (see the templates' para texts).
func dupLexicon() [][2]string {
	return [][2]string{
		{"works at", "is employed by"}, {"lives in", "resides in"},
		{"can't stand", "really dislikes"}, {"loves", "adores"}, {"likes", "enjoys"},
		{"recommended", "suggested"}, {"recently", "not long ago"}, {"lately", "of late"},
		{"wants", "would like"}, {"asked for", "requested"}, {"ordered", "purchased"},
		{"says", "claims"}, {"mentioned", "noted"}, {"is planning to", "intends to"},
		{"scheduled", "planned"}, {"decided", "chose"}, {"wrote", "authored"},
		{"got back from", "returned from"}, {"is flying to", "is heading to"},
		{"is leading", "is heading up"}, {"joined", "became a member of"},
		{"passed", "cleared"}, {"volunteers at", "helps out at"}, {"plays", "performs on"},
		{"is building", "is developing"}, {"thinks", "believes"}, {"argued", "contended"},
		{"jumped", "spiked"}, {"went down", "crashed"}, {"migrated", "moved"},
		{"switched to", "moved over to"}, {"opened", "launched"}, {"announced", "declared"},
		{"signed up for", "registered for"}, {"signed", "inked"}, {"promised", "pledged"},
		{"expect", "anticipate"}, {"every", "each"}, {"team lunches", "group lunches"},
		{"tiny", "very small"}, {"near", "close to"}, {"usually", "typically"},
		{"currently", "at present"}, {"talk", "presentation"}, {"starting", "beginning"},
		{"problem", "issue"}, {"bill", "invoice"}, {"hiring", "recruiting"},
		{"is hosting", "is organizing"}, {"is launching", "is rolling out"},
		{"raising", "increasing"}, {"raised", "secured"}, {"blocked on", "stuck on"},
		{"waiting on", "waiting for"}, {"enthusiastic", "excited"}, {"finished", "completed"},
		{"adopted", "took in"}, {"lent", "loaned"}, {"booked", "reserved"},
		{"comparing", "weighing up"}, {"found", "detected"}, {"explained", "clarified"},
		{"confirmed", "verified"}, {"outdated", "out-of-date"}, {"adopt", "take up"},
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

// applyLexicon rewrites whole-word matches of lex in one left-to-right pass
// (a replacement is never rewritten again) and counts the substitutions.
func applyLexicon(text string, lex [][2]string) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		if i == 0 || !isWordByte(text[i-1]) {
			matched := false
			for _, p := range lex {
				end := i + len(p[0])
				if strings.HasPrefix(text[i:], p[0]) && (end == len(text) || !isWordByte(text[end])) {
					b.WriteString(p[1])
					i, n, matched = end, n+1, true
					break
				}
			}
			if matched {
				continue
			}
		}
		b.WriteByte(text[i])
		i++
	}
	return fixArticles(b.String()), n
}

// makeDuplicates adds paraphrased duplicates (10% of all memories) of random
// originals, at most two per original.
func (g *generator) makeDuplicates() {
	nOrig := len(g.drafts)
	if nOrig == 0 {
		return
	}
	made := 0
	for attempts := 0; made < g.nDup && attempts < g.nDup*30; attempts++ {
		o := g.intn(nOrig)
		if len(g.drafts[o].dups) >= 2 {
			continue
		}
		text, ok := g.dupText(o)
		if !ok {
			continue
		}
		d := g.drafts[o]
		d.text, d.dupOf, d.dups = text, o, nil
		d.at = g.dupTime(d.at)
		d.imp = g.importance(d.imp)
		if !g.chance(0.7) {
			d.ns = "global"
		}
		g.drafts[o].dups = append(g.drafts[o].dups, len(g.drafts))
		g.drafts = append(g.drafts, d)
		made++
	}
}

// dupText paraphrases original o: either the authored restructured form or
// lexicon substitution (when it changes at least two phrases), never a text
// already used by o or its duplicates.
func (g *generator) dupText(o int) (string, bool) {
	d := &g.drafts[o]
	var authored string
	if d.tmpl >= 0 {
		authored = fill(g.tmpls[d.tmpl].dup, d.names, d.vals)
	} else {
		authored = fill(g.formsOf(g.chains[d.chain].pred).dups[d.form], d.names, d.vals)
	}
	type option struct {
		text    string
		lexical bool
	}
	var opts []option
	if lex, n := applyLexicon(d.text, g.lex); n >= 2 {
		opts = append(opts, option{lex, true})
	}
	opts = append(opts, option{authored, false})
	var fresh []option
	for _, op := range opts {
		taken := op.text == d.text
		for _, x := range d.dups {
			taken = taken || g.drafts[x].text == op.text
		}
		if !taken {
			fresh = append(fresh, op)
		}
	}
	if len(fresh) == 0 {
		return "", false
	}
	op := fresh[g.intn(len(fresh))]
	if op.lexical {
		g.stats.dupStyleLexico++
	} else {
		g.stats.dupStyleAuthor++
	}
	return op.text, true
}
