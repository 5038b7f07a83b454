package memory_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/projections"
	projmemory "github.com/strata-platform/strata/projections/memory"
)

// TestPoisonedMemoryStreamLeavesOtherUsersWorking: an event that the
// memory projector cannot apply (text PostgreSQL refuses, written below the
// HTTP edge, which refuses it) parks that user's stream only: every other
// user's remember, recall and forget keep working, the parked stream shows
// in the status, its owner's commands answer 503 with a clear message, and
// an operator's skip brings it back.
func TestPoisonedMemoryStreamLeavesOtherUsersWorking(t *testing.T) {
	t.Parallel()
	w := start(t)
	sick, ok1, ok2 := w.register("Sick"), w.register("Ok One"), w.register("Ok Two")
	w.remember(sick, "I keep bees on the roof", nil)
	w.remember(ok1, "Ana works at Globex", nil)

	// The edge refuses the text...
	w.refused(w.do(sick, "POST", base+"/remember", map[string]any{"content": "hello\u0000world"}), http.StatusBadRequest, "content", "no_nul")
	w.refused(w.do(sick, "POST", base+"/remember", map[string]any{"content": "ok", "tags": []string{"a\u0000"}}), http.StatusBadRequest, "tags[0]", "no_nul")
	// ...so it is written below it, straight through the command service.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// It is recorded, but the answer does not pretend it can be read.
	if _, err := w.svc.Remember(ctx, sick.ID, memory.RememberInput{Content: "hello\x00world"}); !errors.Is(err, kernel.ErrUnavailable) {
		t.Fatalf("the poisoned remember answered %v, want unavailable (recorded, not readable)", err)
	}

	var parked []projections.Parked
	for deadline := time.Now().Add(20 * time.Second); len(parked) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var err error
		if parked, err = projections.ListParked(context.Background(), w.api.DB, projmemory.Name); err != nil {
			t.Fatal(err)
		}
	}
	if len(parked) != 1 || parked[0].StreamID != memory.StoreStream(sick.ID) || !strings.Contains(parked[0].Error, "0x00") {
		t.Fatalf("parked = %+v, want the sick user's stream with PostgreSQL's error", parked)
	}
	st, err := projections.ReadStatus(context.Background(), w.api.DB, []string{projmemory.Name})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].ParkedStreams != 1 || st[0].State == projections.StateFailing {
		t.Fatalf("status = %+v, want running with 1 parked stream", st[0])
	}

	// Every other user is served.
	for _, u := range []*user{ok1, ok2} {
		m := w.remember(u, "Lena moved to Lisbon in spring", nil)
		id := m["memory_id"].(string)
		if ids := w.recall(u, "Where did Lena move?", nil); !contains(ids, id) {
			t.Fatalf("recall for another user misses the new memory: %v", ids)
		}
		w.must(u, http.StatusOK, "DELETE", base+"/forget/"+id, nil)
		if ids := w.recall(u, "Where did Lena move?", nil); contains(ids, id) {
			t.Fatal("a forgotten memory was recalled")
		}
	}
	// The parked user's writes answer 503 and say why.
	r := w.do(sick, "POST", base+"/remember", map[string]any{"content": "I like tea"})
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.raw), "paused") {
		t.Fatalf("remember on a parked stream: %d %s, want 503 saying it is paused", r.status, r.raw)
	}

	// The operator skips the poisoned event; the user is served again.
	svcStore := w.api.Store
	if _, res, err := projections.Skip(context.Background(), svcStore, projmemory.Projector{Keys: w.keys}, parked[0].StreamID, "ops", "NUL written below the edge"); err != nil || res.Parked != nil {
		t.Fatalf("skip: %+v, %v", res, err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r = w.do(sick, "POST", base+"/remember", map[string]any{"content": "I like tea"}); r.status == http.StatusOK {
			break
		}
	}
	if r.status != http.StatusOK {
		t.Fatalf("after the skip: %d %s", r.status, r.raw)
	}
	if ids := w.recall(sick, "bees on the roof", nil); len(ids) == 0 {
		t.Fatal("the sick user's earlier memories are gone")
	}
}
