package memory_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
)

func TestForgetRemovesTheMemoryEverywhereAndShredsItsText(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	secret := "Ada's passport number is ZX4471923 and she keeps it in the blue drawer."
	id := w.remember(u, secret, nil)["memory_id"].(string)
	keep := w.remember(u, "Ada's favourite drawer is the red one.", nil)["memory_id"].(string)
	if ids := w.recall(u, "passport number drawer", nil); !contains(ids, id) {
		t.Fatalf("recall before forget = %v", ids)
	}

	got := w.must(u, http.StatusOK, "DELETE", base+"/forget/"+id, nil)
	if got["success"] != true || got["memory_id"] != id {
		t.Fatalf("forget = %v", got)
	}
	if ids := w.recall(u, "passport number drawer", nil); contains(ids, id) || !contains(ids, keep) {
		t.Fatalf("recall after forget = %v", ids)
	}
	w.refused(w.do(u, "DELETE", base+"/forget/"+id, nil), http.StatusNotFound, "", "")
	w.refused(w.do(u, "POST", base+"/forget", map[string]any{"memory_id": id}), http.StatusNotFound, "", "")

	// The read model holds nothing of it.
	var n int
	if err := w.api.DB.QueryRow(`SELECT count(*) FROM rm_memory_v1.memories WHERE memory_id = $1 OR content LIKE '%ZX4471923%'`,
		id).Scan(&n); err != nil || n != 0 {
		t.Fatalf("read model rows = %d, %v", n, err)
	}
	// The event store keeps the event, but its text no longer opens: not
	// with this process's key ring, nor with a fresh one.
	var raw int
	if err := w.api.DB.QueryRow(`SELECT count(*) FROM es.events WHERE payload::text LIKE '%ZX4471923%' OR payload::text LIKE '%passport%'`).
		Scan(&raw); err != nil || raw != 0 {
		t.Fatalf("plain text in es.events: %d rows, %v", raw, err)
	}
	envs, err := w.api.Store.Load(context.Background(), memory.StoreStream(u.ID), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := shred.New(make([]byte, 32), 0)
	found := false
	for _, env := range envs {
		rem, ok := env.Event.(*memory.MemoryRemembered)
		if !ok || rem.MemoryID != id {
			continue
		}
		found = true
		for _, ring := range []*shred.KeyRing{w.keys, fresh} {
			if _, err := ring.Open(context.Background(), w.api.DB, rem.Secret); !errors.Is(err, shred.ErrShredded) {
				t.Fatalf("open after forget: %v, want ErrShredded", err)
			}
		}
	}
	if !found {
		t.Fatal("the remembered event is gone from the store; it should stay, shredded")
	}
}

func TestForgetByBodyAcceptsIdsWithSpecialCharacters(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	id := w.remember(u, "Remember to water the ficus on Fridays.", nil)["memory_id"].(string)
	w.must(u, http.StatusOK, "POST", base+"/forget", map[string]any{"memory_id": id})
	w.refused(w.do(u, "POST", base+"/forget", map[string]any{"memory_id": "a/b?c#d"}), http.StatusNotFound, "", "")
}

func TestNearDuplicatesAreMergedNotStoredTwice(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	first := w.remember(u, "Priya Raman works at Northwind Analytics as a data engineer.", nil)
	again := w.remember(u, "priya raman works at northwind analytics as a data engineer", map[string]any{"importance": 0.8})
	if again["merged"] != true || again["memory_id"] != first["memory_id"] {
		t.Fatalf("second remember = %v, want merged into %v", again, first["memory_id"])
	}
	other := w.remember(u, "Priya Raman works at Globex Corporation as a data engineer.", nil)
	if other["merged"] != false || other["memory_id"] == first["memory_id"] {
		t.Fatalf("a changed fact was merged: %v", other)
	}
	elsewhere := w.remember(u, "Priya Raman works at Northwind Analytics as a data engineer.", map[string]any{"namespace": "project:x"})
	if elsewhere["merged"] != false {
		t.Fatalf("merged across namespaces: %v", elsewhere)
	}
	rec := w.must(u, http.StatusOK, "POST", base+"/recall", map[string]any{"query": "Northwind data engineer",
		"namespace": "global", "allow_cross_namespace": false})
	for _, r := range rec["results"].([]any) {
		m := r.(map[string]any)
		if m["memory_id"] == first["memory_id"] && m["importance"] != 0.8 {
			t.Fatalf("merged importance = %v, want the higher 0.8", m["importance"])
		}
		if strings.Contains(m["memory_id"].(string), elsewhere["memory_id"].(string)) {
			t.Fatalf("project memory recalled with allow_cross_namespace false: %v", rec)
		}
	}
}
