package search_test

import (
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// lexicon is a hand-written Lexicon: a few nouns and their kinds.
type lexicon map[string][]string

func (l lexicon) Kinds(word string) (string, []string) {
	lemma := word
	if _, ok := l[lemma]; !ok {
		lemma = word[:max(0, len(word)-1)] // plural
	}
	kinds, ok := l[lemma]
	if !ok {
		return "", nil
	}
	return lemma, kinds
}

var pets = lexicon{"corgi": {"dog", "animal"}, "dog": {"animal"}, "animal": nil, "hamster": {"rodent", "animal"},
	"vacation": {"holiday"}, "holiday": {"vacation"}, "city": nil, "pet": nil}

// A question naming a kind finds the memory naming one of its members,
// and a synonym the memory using the other word; without a Lexicon
// neither is found.
func TestKindsMatchMembersAndSynonyms(t *testing.T) {
	docs := []search.Doc{
		{ID: "corgi", Namespace: "global", Text: "Ana adopted a corgi named Biscuit last month", Importance: 0.2},
		{ID: "city", Namespace: "global", Text: "Ana moved to a new city and loves the cafes", Importance: 0.9},
		{ID: "trip", Namespace: "global", Text: "Ana plans a long vacation in Japan next summer", Importance: 0.2},
	}
	for _, c := range []struct{ query, want string }{{"Which animals does Ana have?", "corgi"}, {"Any holidays coming up for Ana?", "trip"}} {
		hits := fill(t, search.Config{Lexicon: pets}, docs...).Search(search.Query{Text: c.query, Namespace: "global", Now: now})
		if len(hits) == 0 || hits[0].ID != c.want {
			t.Errorf("%q with a lexicon: got %v, want %s first", c.query, ids(hits), c.want)
		}
		hits = fill(t, search.Config{}, docs...).Search(search.Query{Text: c.query, Namespace: "global", Now: now})
		if len(hits) > 0 && hits[0].ID == c.want {
			t.Errorf("%q without a lexicon: %s came first, so the test proves nothing", c.query, c.want)
		}
	}
	// A capitalised word is a name, not a noun: "Corgi" the band names no dog.
	ix := fill(t, search.Config{Lexicon: pets}, search.Doc{ID: "band", Namespace: "global", Text: "Tickets for Corgi at the arena"})
	if hits := ix.Search(search.Query{Text: "animals", Namespace: "global", Now: now}); len(hits) != 0 {
		t.Errorf("a capitalised name matched a kind: %v", ids(hits))
	}
}

// In a search restricted to an entity, the entity's name, which nearly
// every one of its memories repeats, no longer outweighs the words that say
// what is asked.
func TestEntityFilterDropsTheWordsItImplies(t *testing.T) {
	var docs []search.Doc
	for i, text := range []string{"Jakub Tanaka got the title Senior Lead this cycle",
		"Jakub Tanaka owns the Raven demo due in August", "Jakub Tanaka lives in Osaka these days",
		"Jakub Tanaka prefers morning meetings", "Twice weekly, Jakub studies Thai with a tutor"} {
		imp := 0.9
		if i == 4 {
			imp = 0.1
		}
		docs = append(docs, search.Doc{ID: string(rune('a' + i)), Namespace: "global", EntityIDs: []string{"jakub"}, Text: text, Importance: imp})
	}
	docs = append(docs, search.Doc{ID: "other", Namespace: "global", EntityIDs: []string{"mei"}, Text: "Mei studies Thai too"})
	ix := fill(t, search.Config{}, docs...)
	hits := ix.Search(search.Query{Text: "What is Jakub Tanaka studying?", Namespace: "global", EntityID: "jakub", Now: now})
	if len(hits) == 0 || hits[0].ID != "e" {
		t.Fatalf("got %v, want e (the studies memory) first", ids(hits))
	}
	for _, h := range hits {
		if h.ID == "other" {
			t.Errorf("the entity filter let another entity's memory through: %v", ids(hits))
		}
	}
	// A query of nothing but the name keeps its words.
	if hits := ix.Search(search.Query{Text: "Jakub Tanaka", Namespace: "global", EntityID: "jakub", Now: now}); len(hits) == 0 {
		t.Error("a query holding only the entity's name found nothing")
	}
}
