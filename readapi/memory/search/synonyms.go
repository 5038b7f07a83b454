package search

import "github.com/strata-platform/strata/domain/memory/text"

// synonymMap is the built-in Synonyms: stem → words of the same group.
type synonymMap map[string][]string

// Synonyms returns the other words of stem's group.
func (m synonymMap) Synonyms(stem string) []string { return m[stem] }

// builtinSynonyms builds the fallback synonym list: a modest set of general
// English equivalences, each group symmetric. It is built per index (no
// package-level state).
func builtinSynonyms() synonymMap {
	groups := [][]string{
		{"buy", "purchase"}, {"car", "automobile"}, {"job", "occupation", "profession"},
		{"home", "house", "residence"}, {"movie", "film"}, {"begin", "start"},
		{"finish", "complete"}, {"big", "large"}, {"small", "little"},
		{"like", "enjoy"}, {"love", "adore"}, {"hate", "detest", "dislike"},
		{"doctor", "physician"}, {"kid", "child"}, {"help", "assist"},
		{"fix", "repair"}, {"error", "fault"}, {"fast", "quick"},
		{"sick", "ill"}, {"talk", "speak"}, {"trip", "journey"},
		{"holiday", "vacation"}, {"phone", "telephone"}, {"city", "town"},
		{"company", "firm", "employer"}, {"colleague", "coworker"},
		{"spouse", "wife", "husband"}, {"food", "meal", "cuisine"},
		{"drink", "beverage"}, {"hobby", "pastime"}, {"live", "reside"},
		{"move", "relocate"}, {"study", "learn"}, {"teacher", "instructor"},
		{"student", "pupil"}, {"price", "cost"}, {"choose", "select", "pick"},
		{"use", "utilize"}, {"need", "require"}, {"want", "desire"},
		{"happy", "glad"}, {"sad", "unhappy"}, {"smart", "intelligent", "clever"},
		{"hard", "difficult"}, {"easy", "simple"}, {"database", "db"},
		{"app", "application"}, {"email", "mail"}, {"meeting", "appointment"},
		{"favorite", "favourite", "preferred"}, {"color", "colour"},
	}
	m := make(synonymMap)
	for _, g := range groups {
		for i, w := range g {
			toks := text.Tokens(w)
			if len(toks) != 1 {
				continue
			}
			for j, o := range g {
				if j != i {
					m[toks[0]] = append(m[toks[0]], o)
				}
			}
		}
	}
	return m
}
