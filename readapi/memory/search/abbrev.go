package search

import (
	"regexp"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/memory/text"
)

// BuiltinAbbreviations is the documented list of short forms recall
// matches with their expansions both ways (a query "ARR" finds "annual
// recurring revenue", and the reverse): founders' business, product and
// engineering vocabulary. A user's memories add their own definitions
// ("customer effort score (CES)").
func BuiltinAbbreviations() map[string]string {
	return map[string]string{
		"ARR": "annual recurring revenue", "MRR": "monthly recurring revenue", "CAC": "customer acquisition cost",
		"LTV": "lifetime value", "CLV": "customer lifetime value", "KPI": "key performance indicator",
		"SLA": "service level agreement", "NPS": "net promoter score", "QA": "quality assurance",
		"OKR": "objectives and key results", "ROI": "return on investment", "GTM": "go to market",
		"PMF": "product market fit", "MVP": "minimum viable product", "ARPU": "average revenue per user",
		"DAU": "daily active users", "MAU": "monthly active users", "TAM": "total addressable market",
		"CRM": "customer relationship management", "SEO": "search engine optimization", "UX": "user experience",
		"UI": "user interface", "HR": "human resources", "PR": "pull request", "CI": "continuous integration",
		"CD": "continuous delivery", "ML": "machine learning", "AI": "artificial intelligence",
		"API": "application programming interface", "SDK": "software development kit", "SaaS": "software as a service",
		"B2B": "business to business", "B2C": "business to consumer", "CEO": "chief executive officer",
		"CTO": "chief technology officer", "CFO": "chief financial officer", "COO": "chief operating officer",
		"CPO": "chief product officer", "VP": "vice president", "IPO": "initial public offering", "VC": "venture capital",
		"YoY": "year over year", "MoM": "month over month", "EOD": "end of day", "ETA": "estimated time of arrival",
		"P&L": "profit and loss", "COGS": "cost of goods sold", "EBITDA": "earnings before interest taxes depreciation and amortization",
		"PRD": "product requirements document", "RFC": "request for comments", "SOC": "security operations center",
		"GDPR": "general data protection regulation", "PII": "personally identifiable information",
		"SRE": "site reliability engineering", "RCA": "root cause analysis", "NDA": "non disclosure agreement",
	}
}

// abbreviations maps short forms to their expansions by index form: the
// short form's stem → each expansion's stems (two words or more).
type abbreviations map[string][][]string

// newAbbreviations indexes pairs of short form and expansion.
func newAbbreviations(an *text.Analyzer, pairs map[string]string) abbreviations {
	out := abbreviations{}
	for short, long := range pairs {
		out.add(an, short, long)
	}
	return out
}

// add records that short stands for long; a one-word short form and an
// expansion of at least two words are kept, once.
func (a abbreviations) add(an *text.Analyzer, short, long string) {
	st, lt := an.Analyze(short), an.Analyze(long)
	if len(st) != 1 || len(lt) < 2 {
		return
	}
	stems := make([]string, len(lt))
	for i, t := range lt {
		stems[i] = t.Stem
	}
	key := st[0].Stem
	for _, e := range a[key] {
		if slices.Equal(e, stems) {
			return
		}
	}
	a[key] = append(a[key], stems)
}

// definitionRE finds "words (ABBR)": up to eight words, then a short form
// of capital letters (a lower-case letter or & inside allowed: SaaS, P&L).
var definitionRE = regexp.MustCompile(`((?:[A-Za-z][A-Za-z'-]*[ ]+){1,8})\(([A-Z][A-Za-z&]{1,7})\)`)

// smallWords are left out of an expansion's initials.
var smallWords = map[string]bool{"and": true, "of": true, "the": true, "for": true, "to": true, "a": true, "an": true,
	"in": true, "on": true, "as": true, "&": true}

// definitions returns the short forms a text defines, short → expansion:
// "annual recurring revenue (ARR)" when the initials of the words before the
// parenthesis (small words aside) spell the short form.
func definitions(s string) map[string]string {
	if !strings.Contains(s, "(") { // most memories: no regular expression to run
		return nil
	}
	var out map[string]string
	for _, m := range definitionRE.FindAllStringSubmatch(s, -1) {
		words, short := strings.Fields(m[1]), m[2]
		letters := []rune(strings.ToLower(strings.ReplaceAll(short, "&", "")))
		// Take words from the end until every letter is matched.
		i, j := len(words)-1, len(letters)-1
		for i >= 0 && j >= 0 {
			w := strings.ToLower(words[i])
			switch {
			case rune(w[0]) == letters[j]: // small words count when they match (SaaS)
				i, j = i-1, j-1
				continue
			case smallWords[w] && i < len(words)-1: // else they are passed over (OKR)
				i--
				continue
			}
			break
		}
		if j >= 0 || len(words)-1-i < 2 {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[short] = strings.ToLower(strings.Join(words[i+1:], " "))
	}
	return out
}

// abbreviate widens a query's groups by the short forms it knows, built in
// or defined in the user's memories: a short form's group also takes its
// expansions' bigrams (a memory saying "annual recurring revenue" holds
// both), and an expansion written out in the query adds a group for its
// short form (a memory saying "ARR" holds that stem). Callers hold the
// read lock.
func (ix *Index) abbreviate(sp spec, toks []text.Token) spec {
	known := func(stem string) [][]string {
		return append(slices.Clip(ix.set.abbrevs[stem]), ix.learnedExpansions(stem)...)
	}
	for i := range sp.groups {
		g := &sp.groups[i]
		if isBigram(g.alts[0]) {
			continue
		}
		for _, stems := range known(g.alts[0]) {
			for k := 0; k+1 < len(stems); k++ {
				if b := stems[k] + "_" + stems[k+1]; !slices.Contains(g.alts, b) {
					g.alts = append(g.alts, b)
				}
			}
		}
	}
	stems := make([]string, len(toks))
	for i, t := range toks {
		stems[i] = t.Stem
	}
	have := map[string]bool{}
	for _, g := range sp.groups {
		have[g.alts[0]] = true
	}
	add := func(short string, exp []string) {
		if !have[short] && containsRun(stems, exp) {
			have[short] = true
			// The short form stands for the whole phrase: weigh it as its words.
			sp.groups = append(sp.groups, group{alts: []string{short}, w: float64(len(exp))})
		}
	}
	for short, exps := range ix.set.abbrevs {
		for _, exp := range exps {
			add(short, exp)
		}
	}
	for short, exps := range ix.learned {
		for exp := range exps {
			add(short, strings.Fields(exp))
		}
	}
	return sp
}

// learnedExpansions returns the expansions of a short form that the user's
// live memories define.
func (ix *Index) learnedExpansions(stem string) [][]string {
	var out [][]string
	for exp := range ix.learned[stem] {
		out = append(out, strings.Fields(exp))
	}
	return out
}

// learn counts (delta +1 on insert, −1 on removal) the definitions a
// document makes, by index form. Callers hold the write lock.
func (ix *Index) learn(defs [][2]string, delta int) {
	for _, d := range defs {
		set := ix.learned[d[0]]
		if set == nil {
			if delta < 0 {
				continue
			}
			set = map[string]int{}
			ix.learned[d[0]] = set
		}
		if set[d[1]] += delta; set[d[1]] <= 0 {
			delete(set, d[1])
		}
		if len(set) == 0 {
			delete(ix.learned, d[0])
		}
	}
}

// analyseDefinitions returns a document's definitions by index form:
// [short form stem, expansion stems joined by spaces].
func analyseDefinitions(an *text.Analyzer, d Doc) [][2]string {
	var out [][2]string
	for _, s := range append([]string{d.Text}, d.Variants...) {
		for short, long := range definitions(s) {
			a := abbreviations{}
			a.add(an, short, long)
			for key, exps := range a {
				for _, e := range exps {
					out = append(out, [2]string{key, strings.Join(e, " ")})
				}
			}
		}
	}
	return out
}

// containsRun reports whether run occurs in s as consecutive items.
func containsRun(s, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(s); i++ {
		if slices.Equal(s[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
