package search_test

import (
	"slices"
	"testing"

	"github.com/strata-platform/strata/readapi/memory/search"
)

// worksAt is a works_at fact of ana from day `from` ago until day `until`
// ago (-1: still holds).
func worksAt(from, until int) []search.Interval {
	iv := search.Interval{From: day(from), Subject: "ana", Predicate: "works_at"}
	if until >= 0 {
		iv.Until = day(until)
	}
	return []search.Interval{iv}
}

// A question asking for a fact ranks the memory stating the fact that holds
// at the reference time first, even when it shares no word with the question
// and others share many; superseded statements of it do not answer.
func TestAnswersRankFirst(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "old", Text: "Ana Silva works at Initech", Facts: worksAt(400, 100), CreatedAt: day(400), Importance: 0.9},
		search.Doc{ID: "current", Text: "Keep in mind that Ana Silva is employed by Globex", Facts: worksAt(100, -1), CreatedAt: day(100), Importance: 0.5},
		search.Doc{ID: "chatter", Text: "Where does Ana Silva work on Fridays? At home, she said", Importance: 0.9},
		search.Doc{ID: "other", Text: "Bo Chen works at Initech", Facts: []search.Interval{{From: day(50), Subject: "bo", Predicate: "works_at"}}},
	)
	q := search.Query{Text: "Where does Ana Silva work?", Now: now, CrossNamespace: true, Limit: 5}
	plain := ids(ix.Search(q))
	if len(plain) > 0 && plain[0] == "current" {
		t.Fatalf("without the question's facts the wording alone put the answer first (%v): the test proves nothing", plain)
	}
	q.About, q.Predicates = []string{"ana"}, []string{"works_at"}
	got := ids(ix.Search(q))
	if len(got) == 0 || got[0] != "current" {
		t.Fatalf("asked for ana's works_at: got %v, want current first", got)
	}
	if i := slices.Index(got, "old"); i >= 0 && i < slices.Index(got, "chatter") && slices.Index(got, "chatter") >= 0 {
		t.Errorf("the superseded statement ranks above an unrelated memory: %v", got)
	}

	// The score returned is the one the results are ordered by.
	hits := ix.Search(q)
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Fatalf("result %d (%s, %.4f) scores above result %d (%s, %.4f): score and order disagree",
				i, hits[i].ID, hits[i].Score, i-1, hits[i-1].ID, hits[i-1].Score)
		}
	}
	if hits[0].Score > 1 {
		t.Fatalf("score %.4f above 1", hits[0].Score)
	}

	q.AsOf = day(200) // then Ana worked at Initech
	got = ids(ix.Search(q))
	if len(got) == 0 || got[0] != "old" {
		t.Fatalf("as of 200 days ago: got %v, want old first", got)
	}
	if slices.Contains(got, "current") {
		t.Fatalf("as of 200 days ago the later statement cannot be recalled: %v", got)
	}
}

// A history question ranks every statement of the fact first, current or not.
func TestHistoryAnswers(t *testing.T) {
	ix := fill(t, search.Config{},
		search.Doc{ID: "old", Text: "Ana Silva works at Initech", Facts: worksAt(400, 100), CreatedAt: day(400)},
		search.Doc{ID: "current", Text: "Keep in mind that Ana Silva is employed by Globex", Facts: worksAt(100, -1), CreatedAt: day(100)},
		search.Doc{ID: "chatter", Text: "Ana Silva has worked hard over the years on her garden", Importance: 1},
	)
	q := search.Query{Text: "Where has Ana Silva worked over the years?", Now: now, CrossNamespace: true, Limit: 5,
		About: []string{"ana"}, Predicates: []string{"works_at"}, History: true}
	got := ids(ix.Search(q))
	if len(got) < 2 || !slices.Contains(got[:2], "old") || !slices.Contains(got[:2], "current") {
		t.Fatalf("history question: got %v, want old and current first", got)
	}
	// Removing a document removes it from the answers.
	ix.Remove("old")
	if got := ids(ix.Search(q)); slices.Contains(got, "old") {
		t.Fatalf("a removed document is still an answer: %v", got)
	}
}
