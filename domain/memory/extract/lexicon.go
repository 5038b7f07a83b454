package extract

import "strings"

// class is what a gazetteer entry names.
type class uint8

const (
	clsTech class = iota + 1
	clsOrg
	clsPlace
	clsConcept
	clsLang    // a human language (an object of speaks)
	clsFirst   // a given name
	clsSurname // a family name
)

// flag qualifies how an entry may match.
type flag uint8

const (
	// fAmbig: the form is also a common word ("go", "rust", "may"); it
	// needs capitalisation away from a sentence start, or context.
	fAmbig flag = 1 << iota
	// fCue: the form needs context even when capitalised ("R", "C").
	fCue
	// fExact: the form must match case exactly ("US", "SF", "REST").
	fExact
	// fAlsoOrg: a product that is also the name of a company (Figma,
	// Slack); it becomes an org as the object of works_at and the like.
	fAlsoOrg
)

// entry is one gazetteer form.
type entry struct {
	name    string // canonical name
	surface string // the form as written, tokens joined by ' ' (for fExact)
	cls     class
	flags   flag
}

// lexicon maps lower-case token sequences (joined by ' ') to entries.
type lexicon struct {
	entries map[string][]entry
	maxLen  map[string]int // first token -> longest key, in tokens
}

// lex is the package's read-only gazetteer, built once from the data
// constants of the gaz_*.go files.
var lex = buildLexicon()

func buildLexicon() *lexicon {
	l := &lexicon{entries: make(map[string][]entry, 4096), maxLen: make(map[string]int, 4096)}
	l.addEntries(techData, clsTech)
	l.addEntries(orgData, clsOrg)
	l.addEntries(countryData, clsPlace)
	l.addEntries(cityData, clsPlace)
	l.addEntries(conceptData, clsConcept)
	l.addEntries(languageData, clsLang)
	l.addNames(firstNameData, clsFirst)
	l.addNames(surnameData, clsSurname)
	return l
}

// addEntries parses "Canonical|alias|alias; Canonical|alias" (newlines
// also separate entries). A form may end in flag marks: ~ ambiguous,
// ! needs context, = exact case, ^ also an org.
func (l *lexicon) addEntries(data string, cls class) {
	for _, line := range strings.FieldsFunc(data, func(r rune) bool { return r == ';' || r == '\n' }) {
		forms := strings.Split(strings.TrimSpace(line), "|")
		if len(forms) == 0 || forms[0] == "" {
			continue
		}
		canon, _ := parseForm(forms[0])
		for _, f := range forms {
			form, fl := parseForm(f)
			l.add(form, entry{name: canon, cls: cls, flags: fl})
		}
	}
}

// addNames parses whitespace-separated single names with optional marks.
func (l *lexicon) addNames(data string, cls class) {
	for _, f := range strings.Fields(data) {
		form, fl := parseForm(f)
		l.add(form, entry{name: form, cls: cls, flags: fl})
	}
}

func parseForm(f string) (string, flag) {
	f = strings.TrimSpace(f)
	var fl flag
	for len(f) > 1 {
		switch f[len(f)-1] {
		case '~':
			fl |= fAmbig
		case '!':
			fl |= fCue
		case '=':
			fl |= fExact
		case '^':
			fl |= fAlsoOrg
		default:
			return f, fl
		}
		f = f[:len(f)-1]
	}
	return f, fl
}

func (l *lexicon) add(form string, e entry) {
	toks, _ := tokenize(form)
	if len(toks) == 0 {
		return
	}
	lows := make([]string, len(toks))
	surf := make([]string, len(toks))
	for i, t := range toks {
		lows[i], surf[i] = t.low, t.text
	}
	key := strings.Join(lows, " ")
	e.surface = strings.Join(surf, " ")
	for _, old := range l.entries[key] {
		if old.cls == e.cls && old.name == e.name && old.surface == e.surface {
			return
		}
	}
	l.entries[key] = append(l.entries[key], e)
	if len(toks) > l.maxLen[lows[0]] {
		l.maxLen[lows[0]] = len(toks)
	}
}

// match is a gazetteer hit on tokens [i, j).
type match struct {
	i, j int
	e    entry
}

// lookupAt appends every gazetteer hit starting at token i, longest first.
// buf is scratch space for building keys.
func (l *lexicon) lookupAt(toks []token, i int, buf []byte, out []match) ([]match, []byte) {
	n := l.maxLen[toks[i].low]
	if n == 0 {
		return out, buf
	}
	n = min(n, len(toks)-i)
	for ; n >= 1; n-- {
		var es []entry
		if n == 1 {
			es = l.entries[toks[i].low]
		} else {
			buf = buf[:0]
			for k := i; k < i+n; k++ {
				if k > i {
					buf = append(buf, ' ')
				}
				buf = append(buf, toks[k].low...)
			}
			es = l.entries[string(buf)]
		}
		for _, e := range es {
			if e.flags&fExact != 0 && !exactAt(toks, i, i+n, e.surface) {
				continue
			}
			out = append(out, match{i: i, j: i + n, e: e})
		}
	}
	return out, buf
}

// exactAt reports whether tokens [i, j) are spelled exactly like surface.
func exactAt(toks []token, i, j int, surface string) bool {
	for k := i; k < j; k++ {
		w := toks[k].text
		if !strings.HasPrefix(surface, w) {
			return false
		}
		surface = strings.TrimPrefix(surface[len(w):], " ")
	}
	return surface == ""
}

// lookupWord returns the entries of one lower-case key.
func (l *lexicon) lookupWord(low string) []entry { return l.entries[low] }

// has reports whether the single token low has an entry of class cls.
func (l *lexicon) has(low string, cls class) bool {
	for _, e := range l.entries[low] {
		if e.cls == cls {
			return true
		}
	}
	return false
}

// get returns the first entry of class cls for the single token low.
func (l *lexicon) get(low string, cls class) (entry, bool) {
	for _, e := range l.entries[low] {
		if e.cls == cls {
			return e, true
		}
	}
	return entry{}, false
}
