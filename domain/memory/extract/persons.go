package extract

import "strings"

// nameParticles may sit inside a surname ("Ludwig van Beethoven").
var nameParticles = setOf("van von de da del della di bin binti al le la du dos das der ten ter")

// personCands proposes person candidates starting at token i.
func (d *doc) personCands(i int) {
	t := d.toks[i]
	if honorifics[t.low] && t.capital {
		d.honorificCand(i)
		return
	}
	first, isFirst := lex.get(t.low, clsFirst)
	if !d.nameLike(i) || (common[t.low] && !isFirst) || weekdays[t.low] {
		return
	}
	cue := d.personCue(i)
	if isFirst {
		if d.lower && first.flags&fAmbig != 0 {
			return
		}
		j := d.surnameEnd(i+1, first.flags&fAmbig != 0)
		if j > i+1 {
			d.cands = append(d.cands, cand{i: i, j: j, name: d.personName(i, j), kind: Person, prio: prioFullName})
		}
		prio := prioFirstName
		if cue {
			prio = prioPersonCue
		}
		switch {
		case cue:
		case first.flags&fAmbig != 0 && (t.sentStart || months[t.low] || d.lower):
			return
		}
		d.cands = append(d.cands, cand{i: i, j: i + 1, name: d.personName(i, i+1), kind: Person, prio: prio})
		return
	}
	// An unknown capitalised word followed by a known surname.
	if i+1 < len(d.toks) && d.nameLike(i+1) && !d.lower {
		if s, ok := lex.get(d.toks[i+1].low, clsSurname); ok && (s.flags&fAmbig == 0 || hyphenName(t.text)) &&
			!d.otherClass(t.low) && !months[t.low] && !d.toks[i+1].sentStart {
			j := d.surnameEnd(i+2, false)
			d.cands = append(d.cands, cand{i: i, j: j, name: d.span(i, j), kind: Person, prio: prioSurname})
			return
		}
	}
	if cue {
		d.cueCand(i)
	}
}

// personName is the name on tokens [i, j), title-cased when the whole
// text is lower case ("alice chen" -> "Alice Chen").
func (d *doc) personName(i, j int) string {
	s := d.span(i, j)
	if !d.lower {
		return s
	}
	b := []byte(s)
	for k := range b {
		if b[k] >= 'a' && b[k] <= 'z' && (k == 0 || b[k-1] == ' ' || b[k-1] == '-') {
			b[k] -= 'a' - 'A'
		}
	}
	return string(b)
}

// hyphenName reports whether w looks like a hyphenated given name
// ("Jin-woo", "Min-jun").
func hyphenName(w string) bool {
	k := strings.IndexByte(w, '-')
	return k > 0 && k < len(w)-1 && w[k+1] >= 'a' && w[k+1] <= 'z'
}

// otherClass reports whether the single word low is a known technology,
// organisation, place or concept.
func (d *doc) otherClass(low string) bool {
	for _, e := range lex.lookupWord(low) {
		switch e.cls {
		case clsTech, clsOrg, clsPlace, clsConcept, clsLang:
			return true
		}
	}
	return false
}

// surnameEnd extends a name from token k over up to two surname words.
func (d *doc) surnameEnd(k int, ambiguousFirst bool) int {
	n := 0
	for k < len(d.toks) && n < 2 {
		t := d.toks[k]
		if nameParticles[t.low] && !t.capital && k+1 < len(d.toks) && d.toks[k+1].capital && !d.lower {
			if !d.surnameWord(k + 1) {
				break
			}
			k, n = k+2, n+1
			continue
		}
		if !d.surnameWord(k) {
			break
		}
		if d.lower {
			if _, ok := lex.get(t.low, clsSurname); !ok {
				break
			}
		}
		if lex.has(t.low, clsFirst) && !lex.has(t.low, clsSurname) && (ambiguousFirst || n > 0) {
			break // "Will Alice ..."
		}
		k, n = k+1, n+1
	}
	return k
}

// surnameWord reports whether token k can be part of a surname.
func (d *doc) surnameWord(k int) bool {
	t := d.toks[k]
	if !d.nameLike(k) || t.sentStart || common[t.low] || months[t.low] || weekdays[t.low] ||
		honorifics[t.low] || orgSuffixes[t.low] || t.low == "i" {
		return false
	}
	if lex.has(t.low, clsSurname) || lex.has(t.low, clsFirst) {
		return true
	}
	for _, e := range lex.lookupWord(t.low) {
		if e.cls != clsFirst && e.cls != clsSurname && e.flags&fAmbig == 0 {
			return false // "told Alice Google is ..."
		}
	}
	return true
}

// personCue reports whether token i follows a word that introduces a
// person: "met X", "told X", "my wife X", "Alice's manager X".
func (d *doc) personCue(i int) bool {
	p := d.prevWord(i)
	if p == "," && i >= 2 {
		p = d.prevWord(i - 1)
		i--
	}
	if p == "called" || p == "named" {
		// "called Bob" (phoned) but not "a company called Brightpath"
		switch d.prevWord(i - 1) {
		case "", "i", "we", "he", "she", "they", "just", "also", "finally", "and":
			return p == "called"
		}
		return false
	}
	if personCues[p] {
		return true
	}
	if relationNouns[p] {
		switch d.prevWord(i - 1) {
		case "my", "his", "her", "our", "their", "your", "'s":
			return true
		}
	}
	return false
}

// cueCand proposes 1-3 capitalised words after a person cue as a name.
func (d *doc) cueCand(i int) {
	j := i
	for j < len(d.toks) && j < i+3 && d.toks[j].capital && d.toks[j].word && !common[d.toks[j].low] &&
		!months[d.toks[j].low] && !weekdays[d.toks[j].low] && !d.otherClass(d.toks[j].low) {
		j++
	}
	if j > i {
		d.cands = append(d.cands, cand{i: i, j: j, name: d.span(i, j), kind: Person, prio: prioPersonCue})
	}
}

// honorificCand handles "Dr. Amara Okafor", "Ms. Alvarez", "Professor Ng".
func (d *doc) honorificCand(i int) {
	k := i + 1
	if k < len(d.toks) && d.toks[k].text == "." {
		k++
	}
	j := k
	for j < len(d.toks) && j < k+3 && d.toks[j].word && d.toks[j].capital && !common[d.toks[j].low] &&
		!months[d.toks[j].low] && !weekdays[d.toks[j].low] && !orgSuffixes[d.toks[j].low] {
		j++
	}
	switch {
	case j-k >= 2:
		d.cands = append(d.cands, cand{i: k, j: j, name: d.span(k, j), kind: Person, prio: prioHonorific})
	case j-k == 1:
		d.cands = append(d.cands, cand{i: i, j: j, name: d.span(i, j), kind: Person, prio: prioHonorific})
	}
}
