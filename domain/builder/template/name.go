package template

import (
	"slices"
	"strings"
	"unicode"
)

// nameStopwords are words that never name an app: articles, pronouns,
// prepositions, auxiliaries, generic words for software and common verbs.
func nameStopwords() []string {
	return strings.Fields(`a an the my our your their his her its this that these those i we you they
		me us them for of to in at on with and or by from into about as per via is are be am was were
		been can could will would should may might must do does did app apps application website site
		web platform online tool system simple small little new easy better want need help let lets
		make build create manage keep find send get run use using allow allows also just like some any
		all every each more most other own not sure yet idea something thing things stuff way people
		everyone anyone someone leave give take see hello hi please`)
}

// clauseWords end the part of an idea that names the app: "an online shop
// for my bakery where customers can book..." is named from "online shop for
// my bakery".
func clauseWords() []string {
	return []string{"where", "that", "which", "who", "so", "because", "when", "while"}
}

// MaxNameWords is how many of the idea's own words an app name takes.
const MaxNameWords = 2

// appName names the app: up to MaxNameWords words of the idea followed by
// the archetype's label ("Yoga Class Bookings"). Name words are the idea's
// words before its first clause word (or anywhere, when none come before
// it) that are not stopwords and not part of a Strong or Signs cue found
// in the idea (skip), because the label already says what kind of app it
// is. A word written
// with capitals inside ("SaaS", "CRM") is kept as written; any other word
// is put in the singular (see Singular) and capitalised. With no name
// words the app is "My <Label>". It returns the name and the idea words
// it used.
func appName(toks []token, skip map[int]bool, label string) (string, []string) {
	pick := func(end int) []token {
		var out []token
		for i, t := range toks[:end] {
			if slices.Contains(nameStopwords(), t.Lower) || skip[i] ||
				slices.ContainsFunc(out, func(o token) bool { return o.Stem == t.Stem }) {
				continue
			}
			if out = append(out, t); len(out) == MaxNameWords {
				break
			}
		}
		return out
	}
	cut := slices.IndexFunc(toks, func(t token) bool { return slices.Contains(clauseWords(), t.Lower) })
	var chosen []token
	if cut > 0 {
		chosen = pick(cut)
	}
	if len(chosen) == 0 {
		chosen = pick(len(toks))
	}
	var parts, used []string
	for _, t := range chosen {
		parts = append(parts, displayWord(t))
		used = append(used, t.Lower)
	}
	if len(parts) == 0 {
		return "My " + label, nil
	}
	if !strings.EqualFold(parts[len(parts)-1], label) {
		parts = append(parts, label)
	}
	return strings.Join(parts, " "), used
}

// maxNameWord caps one word of a name, in runes.
const maxNameWord = 20

func displayWord(t token) string {
	r := []rune(t.Word)
	if len(r) > maxNameWord {
		r = r[:maxNameWord]
	}
	for _, c := range r[1:] {
		if unicode.IsUpper(c) {
			return string(r)
		}
	}
	r = []rune(Singular(strings.ToLower(string(r))))
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// slugify lower-cases the name, folds common accented Latin letters to
// ASCII (é -> e, ß -> ss), turns every other character into a dash, joins
// runs of dashes and trims them, and keeps at most MaxSlug bytes, cut at a
// dash. A name with no ASCII letter or digit gives the archetype.
func slugify(name, archetype string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
		case fold(c) != "":
			b.WriteString(fold(c))
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Join(strings.FieldsFunc(b.String(), func(c rune) bool { return c == '-' }), "-")
	for len(s) > MaxSlug {
		i := strings.LastIndexByte(s[:MaxSlug+1], '-')
		if i <= 0 {
			s = strings.Trim(s[:MaxSlug], "-")
			break
		}
		s = s[:i]
	}
	if s == "" {
		return archetype
	}
	return s
}

// fold maps a lower-case accented Latin letter to ASCII, or returns "".
func fold(c rune) string {
	for _, f := range []struct{ from, to string }{
		{"àáâãäåā", "a"}, {"çćč", "c"}, {"èéêëēę", "e"}, {"ìíîïī", "i"}, {"ñń", "n"},
		{"òóôõöøō", "o"}, {"ùúûüū", "u"}, {"ýÿ", "y"}, {"śš", "s"}, {"źżž", "z"}, {"ł", "l"},
		{"ß", "ss"}, {"æ", "ae"}, {"œ", "oe"},
	} {
		if strings.ContainsRune(f.from, c) {
			return f.to
		}
	}
	return ""
}
