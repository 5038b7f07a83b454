package extract

// orgSuffixes end an organisation's name ("Acme Robotics", "Initrode LLC").
var orgSuffixes = setOf(`inc corp corporation llc llp ltd limited gmbh ag plc bv nv labs lab
technologies technology systems group holdings bank university college institute foundation
capital ventures partners robotics health healthcare analytics ai software solutions networks
industries enterprises consulting studios games pharmaceuticals pharma therapeutics biosciences
logistics motors airlines airways insurance hospital clinic school academy society association
agency fund trust dynamics semiconductor electronics biotech fintech bancorp energy power media
mobility materials security aerospace communications telecom entertainment publishing financial
foods brands retail markets`)

// orgOfHeads start "X of Y" organisation names ("University of Lagos").
var orgOfHeads = setOf(`university institute bank school college academy museum ministry
department society association federation council foundation centre center league`)

// orgCands proposes organisation candidates ending in a suffix at token
// k, or of the form "[Caps] Head of Caps".
func (d *doc) orgCands(k int) {
	t := d.toks[k]
	if !t.capital || d.lower {
		return
	}
	if orgSuffixes[t.low] && (t.low != "ai" || t.text == "AI") {
		i := d.orgLeft(k)
		if i < k {
			j := k + 1
			for j < len(d.toks) && d.toks[j].capital && orgSuffixes[d.toks[j].low] {
				j++
			}
			if j < len(d.toks) && d.toks[j].word && d.toks[j].capital && !d.toks[j].sentStart {
				return // "Staff Software Engineer": the suffix does not end the name
			}
			d.cands = append(d.cands, cand{i: i, j: j, name: d.span(i, j), kind: Org, prio: prioOrgPattern})
		}
	}
	if orgOfHeads[t.low] && k+2 < len(d.toks) && d.toks[k+1].low == "of" {
		j := k + 2
		for j < len(d.toks) && j < k+6 && d.toks[j].word && d.toks[j].capital && !common[d.toks[j].low] {
			j++
		}
		if j > k+2 {
			i := d.orgLeft(k)
			d.cands = append(d.cands, cand{i: i, j: j, name: d.span(i, j), kind: Org, prio: prioOrgPattern})
		}
	}
}

// orgLeft extends an organisation name left from token k over up to four
// capitalised words ("Mount Sinai Hospital", "Procter & Gamble").
func (d *doc) orgLeft(k int) int {
	i := k
	for n := 0; n < 4 && i-1 >= 0 && d.toks[i-1].sent == d.toks[k].sent; n++ {
		p := d.toks[i-1]
		if p.text == "&" && i-2 >= 0 && d.toks[i-2].capital && d.toks[i-2].word {
			i -= 2
			continue
		}
		if !p.word || !p.capital || common[p.low] || honorifics[p.low] || months[p.low] ||
			weekdays[p.low] || p.low == "i" {
			break
		}
		i--
	}
	return i
}
