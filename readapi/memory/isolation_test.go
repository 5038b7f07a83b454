package memory_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRandomisedWorkloadsNeverLeakAcrossUsersOrNamespaces runs interleaved
// random workloads of several users (remember in random namespaces, relate,
// forget, recall, context, entities, graph) and checks every answer holds
// only the caller's own data, and only the requested namespace's when
// cross-namespace search is off.
func TestRandomisedWorkloadsNeverLeakAcrossUsersOrNamespaces(t *testing.T) {
	w := start(t)
	const users, ops = 4, 40
	words := []string{"kafka", "pipeline", "budget", "offsite", "lisbon", "design", "review", "coffee", "roadmap", "hiring"}
	namespaces := []string{"global", "session:a", "session:b", "project:x"}
	var wg sync.WaitGroup
	var recalled atomic.Int64 // results checked, so the checks cannot pass vacuously
	errs := make(chan string, users*ops)
	for i := range users {
		u := w.register(fmt.Sprintf("User %d", i))
		mark := fmt.Sprintf("zq%dmark", i) // a word only user i ever writes
		wg.Add(1)
		go func(i int, u *user) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			where := map[string]string{} // memory id -> namespace
			for op := range ops {
				ns := namespaces[rng.IntN(len(namespaces))]
				word := words[rng.IntN(len(words))]
				switch rng.IntN(6) {
				case 0, 1:
					body := map[string]any{"content": fmt.Sprintf("Note %d of %s about %s with Person%d Marker.", op, mark, word, i),
						"namespace": ns}
					r := w.do(u, "POST", base+"/remember", body)
					if r.status != http.StatusOK {
						errs <- fmt.Sprintf("remember: %d %s", r.status, r.raw)
						continue
					}
					where[r.body["memory_id"].(string)] = ns
				case 2:
					w.do(u, "POST", base+"/relate", map[string]any{"subject": fmt.Sprintf("Person%d Marker", i),
						"predicate": "likes", "object": mark + " " + word})
				case 3:
					for id := range where {
						w.do(u, "DELETE", base+"/forget/"+id, nil)
						delete(where, id)
						break
					}
				case 4:
					cross := rng.IntN(2) == 0
					r := w.do(u, "POST", base+"/recall", map[string]any{"query": "note about " + word + " marker",
						"namespace": ns, "allow_cross_namespace": cross, "limit": 100})
					for _, x := range r.body["results"].([]any) {
						recalled.Add(1)
						m := x.(map[string]any)
						if !strings.Contains(m["content"].(string), mark) {
							errs <- fmt.Sprintf("user %d recalled %q", i, m["content"])
						}
						if !cross && m["namespace"] != ns {
							errs <- fmt.Sprintf("user %d recalled from %v searching only %s", i, m["namespace"], ns)
						}
						if got, ok := where[m["memory_id"].(string)]; !ok || got != m["namespace"] {
							errs <- fmt.Sprintf("user %d recalled %v, not a live memory of theirs", i, m["memory_id"])
						}
					}
				case 5:
					for _, path := range []string{"/entities?limit=500", fmt.Sprintf("/graph/Person%d%%20Marker", i)} {
						r := w.do(u, "GET", base+path, nil)
						if strings.Contains(string(r.raw), "zq") && !strings.Contains(string(r.raw), mark) {
							errs <- fmt.Sprintf("user %d read another user's data at %s: %s", i, path, r.raw)
						}
						for j := range users {
							if j != i && strings.Contains(string(r.raw), fmt.Sprintf("zq%dmark", j)) {
								errs <- fmt.Sprintf("user %d read user %d's data at %s", i, j, path)
							}
						}
					}
					r := w.do(u, "POST", base+"/context", map[string]any{"query": word + " marker note"})
					for j := range users {
						if j != i && strings.Contains(string(r.raw), fmt.Sprintf("zq%dmark", j)) {
							errs <- fmt.Sprintf("user %d's context holds user %d's data", i, j)
						}
					}
				}
			}
		}(i, u)
	}
	wg.Wait()
	close(errs)
	if recalled.Load() < 20 {
		t.Errorf("only %d recalled results were checked", recalled.Load())
	}
	for e := range errs {
		t.Error(e)
	}
}
