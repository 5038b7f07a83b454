package template

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// MaxIdea is the longest idea Plan accepts, in characters (runes).
const MaxIdea = 4000

// Plan turns an idea into a spec: the archetype its words point to (see
// Lexicon), the entities of the catalogue (see Catalogue and Extras), a
// name and the assumptions behind all of it. It is deterministic: the same
// idea always gives the same spec, and the spec always passes Validate.
//
// An idea that is empty after trimming, longer than MaxIdea or not UTF-8 is
// refused with a kernel invalid error on the field "message".
func Plan(idea string) (Spec, error) {
	idea = strings.TrimSpace(idea)
	switch {
	case !utf8.ValidString(idea):
		return Spec{}, kernel.Invalid("message", "utf8", "the idea is not valid UTF-8 text")
	case idea == "":
		return Spec{}, kernel.Invalid("message", "required", "describe the app in a few words")
	case utf8.RuneCountInString(idea) > MaxIdea:
		return Spec{}, kernel.Invalid("message", "max_length:4000", "the idea is longer than 4000 characters")
	}
	toks := tokenize(idea)
	ch := chooseArchetype(toks)
	name, nameWords := appName(toks, ch.Named, labelOf(ch.Archetype))
	ents, picked := pickEntities(ch.Archetype, toks)
	s := Spec{
		Idea:      idea,
		AppName:   name,
		Slug:      slugify(name, ch.Archetype),
		Archetype: ch.Archetype,
		Matched:   ch.Words,
		Entities:  ents,
	}
	s.Assumptions = assumptions(s, ch, nameWords, picked)
	return s, nil
}

// scoring is the outcome of scoring an idea against the lexicon.
type scoring struct {
	Archetype string
	Words     []string            // the winner's matched idea words, in order of appearance
	Scores    map[string]int      // every archetype's score
	WordsOf   map[string][]string // every archetype's matched words
	Named     map[int]bool        // positions of words in Strong or Signs cues: they never name the app
}

// chooseArchetype scores the idea's words against the lexicon: at each
// word the longest cue that starts there matches and its words are used
// up; each distinct cue counts once towards its archetype.
func chooseArchetype(toks []token) scoring {
	cs := cues()
	ch := scoring{Scores: map[string]int{}, WordsOf: map[string][]string{}, Named: map[int]bool{}}
	counted := map[string]bool{}
	for i := 0; i < len(toks); {
		n := 1
		for _, c := range cs {
			if !matchAt(toks, i, c.Stems) {
				continue
			}
			n = len(c.Stems)
			words := joinLower(toks[i : i+n])
			for k := i; k < i+n && c.Weight >= WeightSign; k++ {
				ch.Named[k] = true
			}
			if !counted[c.Phrase] {
				counted[c.Phrase] = true
				ch.Scores[c.Archetype] += c.Weight
			}
			if !slices.Contains(ch.WordsOf[c.Archetype], words) {
				ch.WordsOf[c.Archetype] = append(ch.WordsOf[c.Archetype], words)
			}
			break
		}
		i += n
	}
	ch.Archetype = Fallback
	best := 0
	for _, a := range Archetypes() {
		if ch.Scores[a] > best {
			ch.Archetype, best = a, ch.Scores[a]
		}
	}
	ch.Words = append([]string{}, ch.WordsOf[ch.Archetype]...)
	return ch
}

func matchAt(toks []token, i int, stems []string) bool {
	if len(stems) == 0 || i+len(stems) > len(toks) {
		return false
	}
	for k, s := range stems {
		if toks[i+k].Stem != s {
			return false
		}
	}
	return true
}

func joinLower(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Lower
	}
	return strings.Join(parts, " ")
}

// picked records which extras the idea brought in, and which it would have
// brought in beyond MaxExtras.
type picked struct {
	Added   []Entity
	Dropped []Entity
}

// pickEntities returns the archetype's core entities, then the extras the
// idea's words trigger in order of first appearance (at most MaxExtras, none
// already present or covered), or the archetype's fallback entities when
// no extra was added.
func pickEntities(archetype string, toks []token) ([]Entity, picked) {
	var def ArchetypeDef
	for _, d := range Catalogue() {
		if d.Archetype == archetype {
			def = d
		}
	}
	var out []Entity
	covered := map[string]bool{}
	add := func(d EntityDef, words []string) Entity {
		e := toEntity(d, words)
		out = append(out, e)
		covered[d.Name] = true
		for _, c := range d.Covers {
			covered[c] = true
		}
		return e
	}
	for _, d := range def.Core {
		add(d, nil)
	}
	var p picked
	extras := Extras()
	var order []int
	words := map[int][]string{}
	for _, t := range toks {
		for k, x := range extras {
			if !slices.Contains(stems(strings.Join(x.Triggers, " ")), t.Stem) {
				continue
			}
			if _, seen := words[k]; !seen {
				order = append(order, k)
			}
			if !slices.Contains(words[k], t.Lower) {
				words[k] = append(words[k], t.Lower)
			}
		}
	}
	for _, k := range order {
		x := extras[k]
		switch {
		case covered[x.Name]:
		case len(p.Added) == MaxExtras:
			p.Dropped = append(p.Dropped, toEntity(x.EntityDef, words[k]))
		default:
			p.Added = append(p.Added, add(x.EntityDef, words[k]))
		}
	}
	if len(p.Added) == 0 {
		for _, d := range def.Fallback {
			add(d, nil)
		}
	}
	return out, p
}

// toEntity copies a catalogue entry into a spec entity.
func toEntity(d EntityDef, words []string) Entity {
	fields := make([]Field, len(d.Fields))
	for i, f := range d.Fields {
		f.Options = slices.Clone(f.Options)
		fields[i] = f
	}
	return Entity{Name: d.Name, Label: d.Label, Plural: d.Plural, Fields: fields,
		Matched: append([]string{}, words...)}
}

// labelOf returns the archetype's label from the lexicon.
func labelOf(archetype string) string {
	for _, e := range Lexicon() {
		if e.Archetype == archetype {
			return e.Label
		}
	}
	return archetype
}
