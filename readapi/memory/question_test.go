package memory_test

import (
	"net/http"
	"testing"
)

// A question about a fact finds the memory stating it even when the words
// differ ("employer" / "employed by"), ranks the fact holding now above the
// superseded one and above chatter that repeats the question's words, and
// answers as of a past date with the fact that held then.
func TestFactQuestionsAreAnsweredFromTheGraph(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	old := w.remember(u, "Noting for later that Lena Vogt works at Initech.", map[string]any{"occurred_at": "2024-01-10T09:00:00Z", "importance": 0.9})["memory_id"].(string)
	cur := w.remember(u, "Keep in mind that Lena Vogt is employed by Globex Corporation these days.", map[string]any{"occurred_at": "2025-02-01T09:00:00Z", "importance": 0.3})["memory_id"].(string)
	chatter := w.remember(u, "Lena Vogt asked who the employer of record is for the Berlin contractors.", map[string]any{"occurred_at": "2025-03-01T09:00:00Z", "importance": 0.9})["memory_id"].(string)
	other := w.remember(u, "Tom Reyes works at Globex Corporation.", map[string]any{"occurred_at": "2025-02-02T09:00:00Z"})["memory_id"].(string)

	ids := w.recall(u, "Who is Lena Vogt's employer?", nil)
	if len(ids) == 0 || ids[0] != cur {
		t.Fatalf("recall = %v, want the current fact %s first (old %s, chatter %s)", ids, cur, old, chatter)
	}
	if contains(ids, other) && indexOf(ids, other) < indexOf(ids, chatter) && contains(ids, chatter) {
		t.Errorf("another person's employer ranks above Lena's own memory: %v", ids)
	}
	then := w.recall(u, "Who is Lena Vogt's employer?", map[string]any{"as_of": "2024-06-01T00:00:00Z"})
	if len(then) == 0 || then[0] != old || contains(then, cur) {
		t.Fatalf("as_of recall = %v, want %s first and not %s", then, old, cur)
	}
	history := w.recall(u, "Which companies has Lena Vogt worked at?", nil)
	if len(history) < 2 || !contains(history[:2], old) || !contains(history[:2], cur) {
		t.Fatalf("history recall = %v, want %s and %s first", history, old, cur)
	}
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// "Lena left Initech" ends the fact: the timeline shows it ended when that
// was said, a question about now gets no stale answer first, and as_of
// before the end still answers with it.
func TestAnEndedFactIsNoLongerCurrent(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	t1, t2 := "2024-01-10T09:00:00Z", "2025-02-01T09:00:00Z"
	was := w.remember(u, "Lena Vogt works at Initech Systems.", map[string]any{"occurred_at": t1})["memory_id"].(string)
	res := w.remember(u, "Lena Vogt left Initech Systems last month.", map[string]any{"occurred_at": t2})
	if res["facts_superseded"] != float64(1) {
		t.Fatalf("remember = %v, want one fact ended", res)
	}
	edges := w.edges(u, "Lena Vogt", "works_at")
	if len(edges) != 1 || edges[0]["status"] != "superseded" || edges[0]["valid_until"] != t2 {
		t.Fatalf("works_at edges = %v, want Initech ended at %s", edges, t2)
	}
	then := w.recall(u, "Where does Lena Vogt work?", map[string]any{"as_of": "2024-06-01T00:00:00Z"})
	if len(then) == 0 || then[0] != was {
		t.Fatalf("as_of recall = %v, want %s first", then, was)
	}
	// Now the statement is stale: it scores below the same statement in a
	// store where nothing ended it.
	v := w.register("Bea")
	w.remember(v, "Lena Vogt works at Initech Systems.", map[string]any{"occurred_at": t1})
	ended, kept := w.score(u, "Where does Lena Vogt work?", was), w.score(v, "Where does Lena Vogt work?", "")
	if !(ended > 0 && kept > ended) {
		t.Fatalf("score of the ended statement %v, of the same statement never ended %v: want lower", ended, kept)
	}
}

// score returns the score recall gives memory id (the first hit when id is
// empty), 0 when it is not recalled.
func (w *world) score(u *user, query, id string) float64 {
	w.t.Helper()
	res := w.must(u, http.StatusOK, "POST", base+"/recall", map[string]any{"query": query})
	for _, r := range res["results"].([]any) {
		h := r.(map[string]any)
		if id == "" || h["memory_id"] == id {
			return h["score"].(float64)
		}
	}
	return 0
}

// A move is a change: "moved from Porto to Madrid" supersedes where she
// lived, the timeline shows the old edge ended when the move was said, and
// a question about where she lives ranks the move first, although the old
// statement shares more words with the question.
func TestMovesSupersedeTheOldValue(t *testing.T) {
	t.Parallel()
	w := start(t)
	u := w.register("Ada")
	t1, t2 := "2024-01-10T09:00:00Z", "2025-02-01T09:00:00Z"
	old := w.remember(u, "Lena Vogt lives in Porto, where she loves to live near the river.", map[string]any{"occurred_at": t1, "importance": 0.9})["memory_id"].(string)
	res := w.remember(u, "Lena Vogt moved from Porto to Madrid.", map[string]any{"occurred_at": t2, "importance": 0.2})
	if res["facts_superseded"] != float64(1) {
		t.Fatalf("remember = %v, want one fact superseded", res)
	}
	moved := res["memory_id"].(string)
	edges := w.edges(u, "Lena Vogt", "lives_in")
	var superseded, current int
	for _, e := range edges {
		switch e["status"] {
		case "superseded":
			superseded++
			if e["valid_until"] != t2 {
				t.Fatalf("the Porto edge ended at %v, want %s", e["valid_until"], t2)
			}
		case "current":
			current++
		}
	}
	if superseded != 1 || current != 1 {
		t.Fatalf("lives_in edges = %v, want Porto superseded and Madrid current", edges)
	}
	if ids := w.recall(u, "Where does Lena Vogt live?", nil); len(ids) == 0 || ids[0] != moved {
		t.Fatalf("recall = %v, want the move %s first (old %s)", ids, moved, old)
	}

	// Changing employers reads the same way.
	w.remember(u, "Lena Vogt works at Globex Corporation.", map[string]any{"occurred_at": t1})
	if res := w.remember(u, "Lena Vogt left Globex Corporation for Initech Systems.", map[string]any{"occurred_at": t2}); res["facts_superseded"] != float64(1) {
		t.Fatalf("left A for B: %v, want one fact superseded", res)
	}
}

// The state of a thing is a fact too: a later memory saying the bug was
// fixed supersedes the one saying it was open, and "is it still open?"
// ranks the newest state first although the stale memory repeats the
// question's words.
func TestTheNewestStateOfAThingAnswers(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	open := w.remember(u, "The checkout bug is still open and customers keep hitting it.", map[string]any{"occurred_at": "2026-03-02T09:00:00Z", "importance": 0.9})["memory_id"].(string)
	res := w.remember(u, "Marco fixed the checkout bug in last night's release.", map[string]any{"occurred_at": "2026-03-05T09:00:00Z", "importance": 0.3})
	if res["facts_superseded"] != float64(1) {
		t.Fatalf("remember = %v, want the open state superseded", res)
	}
	fixed := res["memory_id"].(string)
	edges := w.edges(u, "checkout%20bug", "status")
	if len(edges) != 2 {
		t.Fatalf("status edges = %v", edges)
	}
	ids := w.recall(u, "Is the checkout bug still open?", nil)
	if len(ids) < 2 || ids[0] != fixed {
		t.Fatalf("recall = %v, want the fix %s before the stale %s", ids, fixed, open)
	}
	deal := w.remember(u, "We lost the Globex deal to a competitor.", map[string]any{"occurred_at": "2026-03-06T09:00:00Z"})["memory_id"].(string)
	if ids := w.recall(u, "Did the Globex deal close?", nil); len(ids) == 0 || ids[0] != deal {
		t.Fatalf("recall = %v, want %s", ids, deal)
	}
}
