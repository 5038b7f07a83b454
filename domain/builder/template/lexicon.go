package template

import "slices"

// LexiconEntry is the lexicon of one archetype: the words of an idea that
// point to it, in three strengths. A cue is one word or a phrase of several
// words separated by single spaces ("help desk"); it matches the idea's
// words after both are stemmed (see Stem), so "bookings", "booked" and
// "booking" all match the cue "booking".
//
// Scoring (Plan): each distinct cue found in the idea adds its weight to
// its archetype, once however often it appears: Strong cues 3 (they name
// the archetype), Signs 2, Hints 1. The highest score wins; ties go to the
// archetype listed first by Archetypes(). No cue at all gives Fallback.
type LexiconEntry struct {
	Archetype string
	Label     string   // the archetype in an app name: "Bookings"
	Summary   string   // what such an app does, for assumptions and the README
	Strong    []string // weight 3
	Signs     []string // weight 2
	Hints     []string // weight 1
}

// Cue weights, by strength.
const (
	WeightStrong = 3
	WeightSign   = 2
	WeightHint   = 1
)

// Lexicon returns the lexicon, one entry per archetype in the order of
// Archetypes(). Every stemmed cue belongs to exactly one archetype (a test
// checks it), so a word never counts twice.
func Lexicon() []LexiconEntry {
	return []LexiconEntry{
		{Archetype: "marketplace", Label: "Marketplace",
			Summary: "connects sellers who list things with buyers who order them",
			Strong:  []string{"marketplace", "market place"},
			Signs:   []string{"market", "seller", "buyer", "vendor", "peer to peer"},
			Hints:   []string{"commission", "secondhand", "resale", "resell"}},
		{Archetype: "booking", Label: "Bookings",
			Summary: "takes bookings of services for a date and a time",
			Strong:  []string{"appointment", "reservation"},
			Signs:   []string{"booking", "reserve", "schedule", "scheduling", "slot", "salon"},
			Hints:   []string{"class", "studio", "calendar", "availability", "clinic", "spa", "barber", "massage"}},
		{Archetype: "crm", Label: "CRM",
			Summary: "keeps contacts and the deals in progress with them",
			Strong:  []string{"crm", "customer relationship"},
			Signs:   []string{"deal", "lead", "pipeline", "prospect"},
			Hints:   []string{"contact", "client", "sale", "outreach", "follow up"}},
		{Archetype: "store", Label: "Store",
			Summary: "sells products and keeps the orders for them",
			Strong:  []string{"store", "shop", "ecommerce"},
			Signs:   []string{"sell", "product", "commerce"},
			Hints:   []string{"merch", "cart", "checkout", "inventory", "catalog", "order", "buy"}},
		{Archetype: "directory", Label: "Directory",
			Summary: "lists places or businesses people can browse",
			Strong:  []string{"directory", "yellow pages"},
			Signs:   []string{"guide", "nearby"},
			Hints:   []string{"listing", "local", "restaurant", "cafe", "recommendation"}},
		{Archetype: "helpdesk", Label: "Helpdesk",
			Summary: "takes support tickets from customers and tracks them to resolution",
			Strong:  []string{"helpdesk", "help desk", "support ticket", "customer service", "service desk"},
			Signs:   []string{"ticket", "support", "complaint"},
			Hints:   []string{"issue", "faq", "bug"}},
		{Archetype: "courses", Label: "Courses",
			Summary: "offers courses made of lessons and keeps their students",
			Strong:  []string{"course"},
			Signs:   []string{"lesson", "teach", "learn", "student", "curriculum", "education", "academy", "cohort"},
			Hints:   []string{"tutorial", "quiz", "school"}},
		{Archetype: "invoicing", Label: "Invoicing",
			Summary: "sends invoices to clients and follows whether they are paid",
			Strong:  []string{"invoice", "invoicing", "accounts receivable"},
			Signs:   []string{"bill", "billable"},
			Hints:   []string{"freelance", "freelancer", "quote", "estimate", "timesheet"}},
		{Archetype: "community", Label: "Community",
			Summary: "gathers members around posts and discussions",
			Strong:  []string{"community", "forum", "social network"},
			Signs:   []string{"member", "club", "discussion"},
			Hints:   []string{"social", "network", "group", "meetup", "fan", "volunteer"}},
		{Archetype: "tracker", Label: "Tracker",
			Summary: "keeps a dated log of entries",
			Strong:  []string{"track", "tracker"},
			Signs:   []string{"log", "habit", "workout", "journal", "diary", "todo"},
			Hints:   []string{"progress", "goal", "monitor", "expense", "budget", "streak", "mood", "sleep"}},
	}
}

// cue is one stemmed cue of the lexicon with its archetype and weight.
type cue struct {
	Archetype string
	Phrase    string   // as written in the lexicon
	Stems     []string // the phrase's words, stemmed
	Weight    int
}

// cues flattens the lexicon into stemmed cues, longest phrases first so a
// phrase wins over its own first word when both could match.
func cues() []cue {
	var out []cue
	for _, e := range Lexicon() {
		for _, g := range []struct {
			words  []string
			weight int
		}{{e.Strong, WeightStrong}, {e.Signs, WeightSign}, {e.Hints, WeightHint}} {
			for _, p := range g.words {
				out = append(out, cue{Archetype: e.Archetype, Phrase: p, Stems: stems(p), Weight: g.weight})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b cue) int { return len(b.Stems) - len(a.Stems) })
	return out
}

// stems stems each space-separated word of a lexicon or catalogue phrase.
func stems(phrase string) []string {
	var out []string
	for _, t := range tokenize(phrase) {
		out = append(out, t.Stem)
	}
	return out
}
