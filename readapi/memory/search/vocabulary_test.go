package search_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
	"github.com/strata-platform/strata/readapi/memory/wordnet"
)

var founderDocs = []search.Doc{
	{ID: "hire", Namespace: "global", Text: "Our new backend engineer starts on Monday.", Importance: 0.3},
	{ID: "seed", Namespace: "global", Text: "Closed the seed round with two angels and a lead investor.", Importance: 0.3},
	{ID: "mrr", Namespace: "global", Text: "MRR crossed 40k this month thanks to annual plans.", Importance: 0.3},
	{ID: "churn", Namespace: "global", Text: "Three customers cancelled their subscriptions in October.", Importance: 0.3},
	{ID: "infra", Namespace: "global", Text: "Moved Postgres to a bigger box and added a read replica.", Importance: 0.3},
	{ID: "corgi", Namespace: "global", Text: "We adopted a corgi named Pepper.", Importance: 0.3},
	{ID: "job", Namespace: "global", Text: "Sam's job at Globex is mostly travel; the salary is great.", Importance: 0.9},
}

var founderQueries = []struct{ query, want string }{
	{"hiring", "hire"},
	{"Any hiring news?", "hire"},
	{"fundraising", "seed"},
	{"How is revenue doing?", "mrr"},
	{"churn", "churn"},
	{"infrastructure", "infra"},
	{"pets", "corgi"},
}

// Founders' words name kinds whose members the memories name: "hiring"
// finds the new engineer, "churn" the cancelled subscriptions. Without the
// vocabulary none of them is found first, so the test proves something.
func TestFoundersVocabularyMatchesMembers(t *testing.T) {
	with := fill(t, search.Config{}, founderDocs...)
	without := fill(t, search.Config{Vocabulary: &search.Vocabulary{}}, founderDocs...)
	for _, c := range founderQueries {
		hits := with.Search(search.Query{Text: c.query, Namespace: "global", Now: now})
		if len(hits) == 0 || hits[0].ID != c.want {
			t.Errorf("%q: got %v, want %s first", c.query, ids(hits), c.want)
		}
		if hits := without.Search(search.Query{Text: c.query, Namespace: "global", Now: now}); len(hits) > 0 && hits[0].ID == c.want {
			t.Errorf("%q without the vocabulary: %s came first, so the test proves nothing", c.query, c.want)
		}
	}
	// Written with capitals too: "AWS" and "Series A" are members, and a
	// question may open with its kind word.
	ix := fill(t, search.Config{}, search.Doc{ID: "a", Namespace: "global", Text: "The AWS bill doubled after launch."},
		search.Doc{ID: "b", Namespace: "global", Text: "Signed the term sheet for our Series A."})
	if hits := ix.Search(search.Query{Text: "Infrastructure?", Namespace: "global", Now: now}); len(hits) == 0 || hits[0].ID != "a" {
		t.Errorf("Infrastructure?: got %v", ids(hits))
	}
	if hits := ix.Search(search.Query{Text: "Fundraising", Namespace: "global", Now: now}); len(hits) == 0 || hits[0].ID != "b" {
		t.Errorf("Fundraising: got %v", ids(hits))
	}
}

// "animals" finds the pet, never a memory about a job, with the real
// WordNet under the vocabulary.
func TestAnimalsFindNoJob(t *testing.T) {
	if _, err := os.Stat(filepath.Join(wordnet.DefaultDir, "data.noun")); err != nil {
		t.Skipf("WordNet is not installed in %s (Debian's wordnet-base; .ci/run installs it): %v", wordnet.DefaultDir, err)
	}
	db, err := wordnet.Open(wordnet.DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	ix := fill(t, search.Config{Lexicon: db}, founderDocs...)
	for _, q := range []string{"animals", "Which animals do we have?"} {
		hits := ix.Search(search.Query{Text: q, Namespace: "global", Now: now})
		if len(hits) == 0 || hits[0].ID != "corgi" {
			t.Errorf("%q: got %v, want the corgi first", q, ids(hits))
		}
		for _, h := range hits {
			if h.ID == "job" || h.ID == "hire" {
				t.Errorf("%q returned the job memory %s: %v", q, h.ID, ids(hits))
			}
		}
	}
	for _, c := range founderQueries {
		if hits := ix.Search(search.Query{Text: c.query, Namespace: "global", Now: now}); len(hits) == 0 || hits[0].ID != c.want {
			t.Errorf("%q with WordNet: got %v, want %s first", c.query, ids(hits), c.want)
		}
	}
}
