package memory

import (
	"slices"
	"strings"
	"unicode"

	"github.com/strata-platform/strata/domain/memory/extract"
)

// Question is what a recall query asks of the entity graph: which entities
// it names, which single-valued facts about them it asks for, and whether it
// asks how those facts changed over time. Recall ranks the memories that
// state such a fact first: the one holding at the reference time (as_of, or
// now) for a plain question, every one for a history question.
type Question struct {
	// Names are the people and organisations the query names, canonical.
	Names []string
	// Predicates are the facts asked for (works_at, lives_in, role, title,
	// status), in that order; empty when the query asks for none.
	Predicates []string
	// History is true for "how has it changed" questions ("Where has Ana
	// worked over the years?", "What titles has she held?").
	History bool
}

// cue is a run of words that asks for a predicate. A trailing "*" matches
// any word ("where * work" also needs "where" before "work" in the query).
type cue struct {
	words []string
	pred  string
}

// cues map question wordings to predicates, most specific first: a word a
// longer cue used ("working arrangement") is not read again ("working").
var cues = parseCues(`
status: employment status | work status | working arrangement | working arrangements | work arrangement |
  work arrangements | what basis | employment type | full-time | part-time | fulltime | parttime |
  on leave | on sabbatical | status
title: job title | job titles | title | titles | designation | seniority | senior | rank | ranks | promoted | promotion
role: job function | line of work | do for a living | does for a living | did for a living | role | roles |
  occupation | profession | job | jobs | position | positions
lives_in: home city | home town | hometown | live | lives | lived | living | reside | resides | resided |
  residence | based | city | cities | town | towns | moved
works_at: employer | employers | employed | company | companies | organization | organisation | organizations |
  organisations | firm | firms | work | works | worked | working | been at | staff at`)

// workVerbs ask where someone works only in a "where" question or before
// at/for/with ("Who does Ana work for?"), not as a noun ("work projects").
var workVerbs = map[string]bool{"work": true, "works": true, "worked": true, "working": true}

// roleBlockers: a question about hiring asks about openings, not the role
// of the person named ("What roles is Ana hiring for?").
var roleBlockers = map[string]bool{"hiring": true, "hire": true, "openings": true, "opening": true,
	"candidates": true, "interviewing": true, "recruiting": true}

// thingStateCues ask for the state of a thing the question names.
var thingStateCues = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`open opened reopened close closed fix fixed resolve resolved cancel
cancelled canceled pause paused ship shipped launch launched merge merged sign signed lose lost win won
done complete completed finish finished approve approved reject rejected pending live blocked
stalled delayed postponed renew renewed expire expired deploy deployed release released status state
stand standing progress hold`) {
		m[w] = true
	}
	return m
}()

// historyCues mark a question about change over time.
var historyCues = []string{"over the years", "over time", "changed", "progressed", "history", "so far",
	"previous", "previously", "ever", "used to", "before that", "all the"}

func parseCues(spec string) []cue {
	var out []cue
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if i := strings.Index(line, ":"); i > 0 && !strings.Contains(line[:i], " ") {
			pred := line[:i]
			out = append(out, cuesFor(pred, line[i+1:])...)
			continue
		}
		// A continuation line belongs to the last predicate.
		out = append(out, cuesFor(out[len(out)-1].pred, line)...)
	}
	return out
}

func cuesFor(pred, alts string) []cue {
	var out []cue
	for _, a := range strings.Split(alts, "|") {
		if w := strings.Fields(a); len(w) > 0 {
			out = append(out, cue{words: w, pred: pred})
		}
	}
	return out
}

// ParseQuestion reads q. It is deterministic and needs no model: the names
// come from the entity extractor, the predicates from the cue lists above,
// and a question asks about a work fact only when it reads like one (work,
// employer, company...), so a filler question asks for nothing.
func ParseQuestion(q string) Question {
	var out Question
	things := false
	for _, m := range extract.Extract(q, extract.Options{}).Entities {
		switch {
		case m.Kind == extract.Person || m.Kind == extract.Org:
			out.Names = append(out.Names, m.Name)
		case m.Kind == extract.Concept && extract.HasStateHead(m.Name):
			out.Names = append(out.Names, m.Name) // "Is the checkout bug still open?"
			things = true
		}
	}
	// A name no gazetteer knows is still a run of capitalised words; the
	// caller looks each up in the user's graph and ignores the others.
	for _, n := range capitalisedRuns(q) {
		if !slices.Contains(out.Names, n) && len(out.Names) < maxQuestionNames {
			out.Names = append(out.Names, n)
		}
	}
	words := questionWords(q)
	used := make([]bool, len(words))
	found := map[string]bool{}
	for _, c := range cues {
		for i := 0; i+len(c.words) <= len(words); i++ {
			if !matchAt(words, used, i, c.words) {
				continue
			}
			if len(c.words) == 1 && workVerbs[c.words[0]] && !workQuestion(words, i) {
				continue
			}
			for k := range c.words {
				used[i+k] = true
			}
			found[c.pred] = true
		}
	}
	if things && slices.ContainsFunc(words, func(w string) bool { return thingStateCues[w] }) {
		found["status"] = true // the state of a thing: "Did the Acme deal close?"
	}
	if found["status"] { // "On what basis is Ana employed?" asks for the status only
		delete(found, "works_at")
		delete(found, "role")
	}
	if found["role"] && slices.ContainsFunc(words, func(w string) bool { return roleBlockers[w] }) {
		delete(found, "role")
	}
	for _, p := range []string{"works_at", "lives_in", "role", "title", "status"} {
		if found[p] {
			out.Predicates = append(out.Predicates, p)
		}
	}
	joined := " " + strings.Join(words, " ") + " "
	for _, h := range historyCues {
		if strings.Contains(joined, " "+h+" ") {
			out.History = true
		}
	}
	// A present perfect asks for the whole story ("Where has she worked?"),
	// "does she have" does not.
	if slices.Contains(words, "has") || (slices.Contains(words, "have") && !slices.Contains(words, "does") &&
		!slices.Contains(words, "do") && !slices.Contains(words, "did")) {
		out.History = true
	}
	return out
}

// maxQuestionNames bounds the names a question yields (each costs a lookup).
const maxQuestionNames = 4

// questionOpeners are capitalised words that open questions, not names.
var questionOpeners = map[string]bool{"what": true, "which": true, "where": true, "who": true, "whom": true,
	"whose": true, "when": true, "how": true, "why": true, "is": true, "are": true, "was": true, "were": true,
	"does": true, "do": true, "did": true, "has": true, "have": true, "had": true, "can": true, "could": true,
	"should": true, "would": true, "will": true, "tell": true, "any": true, "in": true, "on": true, "at": true,
	"for": true, "the": true, "a": true, "an": true, "i": true, "please": true, "list": true, "show": true}

// capitalisedRuns returns the runs of capitalised words in q (a possessive
// "'s" dropped), leaving out question openers and single letters.
func capitalisedRuns(q string) []string {
	var out, run []string
	flush := func() {
		if len(run) > 0 {
			out = append(out, strings.Join(run, " "))
		}
		run = run[:0]
	}
	for _, f := range strings.Fields(q) {
		w := strings.TrimRight(strings.ReplaceAll(f, "’", "'"), "?!.,;:)\"")
		poss := strings.HasSuffix(w, "'s")
		w = strings.TrimSuffix(w, "'s")
		r := []rune(w)
		if len(r) < 2 || !unicode.IsUpper(r[0]) || !unicode.IsLetter(r[len(r)-1]) || (len(run) == 0 && questionOpeners[strings.ToLower(w)]) {
			flush()
			continue
		}
		run = append(run, w)
		if poss || w != strings.TrimRight(f, "?!.,;:)\"") && !strings.HasSuffix(f, "'s") && !strings.HasSuffix(f, "’s") {
			flush() // a possessive or punctuation ends the name
		}
	}
	flush()
	return out
}

// workQuestion reports whether the work verb at i asks where someone works.
func workQuestion(words []string, i int) bool {
	if slices.Contains(words, "where") {
		return true
	}
	if i+1 < len(words) {
		switch words[i+1] {
		case "at", "for", "with":
			return true
		}
	}
	return false
}

// matchAt reports whether words[i:] starts with the cue's words, none of
// them already read by a longer cue.
func matchAt(words []string, used []bool, i int, cue []string) bool {
	for k, w := range cue {
		if used[i+k] || words[i+k] != w {
			return false
		}
	}
	return true
}

// questionWords lower-cases q into words, splitting off a possessive "'s"
// and keeping hyphenated words whole.
func questionWords(q string) []string {
	f := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '’'
	})
	out := make([]string, 0, len(f))
	for _, w := range f {
		w = strings.Trim(strings.ReplaceAll(w, "’", "'"), "'-")
		w = strings.TrimSuffix(w, "'s")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}
