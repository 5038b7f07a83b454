package memory_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
)

// TestConcurrentWritesOfOneUserAreAllKept sends many remembers for one
// user at once: group commit decides them together, every one is kept
// with its own id, and each append carries its own request's metadata.
func TestConcurrentWritesOfOneUserAreAllKept(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	const n = 64
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx := eventstore.WithMetadata(context.Background(), eventstore.Metadata{Actor: u.ID, RequestID: fmt.Sprintf("req-%d", i)})
			res, err := w.svc.Remember(ctx, u.ID, memory.RememberInput{
				Content: fmt.Sprintf("Concurrent note number %d about topic t%d.", i, i), Importance: 0.5})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = res.MemoryID
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("ids = %v", ids)
		}
		seen[id] = true
	}
	var rows int
	if err := w.api.DB.QueryRow(`SELECT count(*) FROM rm_memory_v1.memories WHERE user_id = $1`, u.ID).Scan(&rows); err != nil || rows != n {
		t.Fatalf("read model holds %d memories, %v", rows, err)
	}
	envs, err := w.api.Store.Load(context.Background(), memory.StoreStream(u.ID), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	requests := map[string]string{}
	for _, e := range envs {
		if r, ok := e.Event.(*memory.MemoryRemembered); ok {
			requests[r.MemoryID] = e.Metadata.RequestID
		}
	}
	for i, id := range ids {
		if requests[id] != fmt.Sprintf("req-%d", i) {
			t.Fatalf("memory %d was recorded with request %q", i, requests[id])
		}
	}
}
