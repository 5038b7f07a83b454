package memory_test

import "testing"

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
