package memory_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"testing"

	"github.com/strata-platform/strata/projections"
	projmemory "github.com/strata-platform/strata/projections/memory"
)

// merge merges entity into into for u and returns the answer.
func (w *world) merge(u *user, entity, into string) map[string]any {
	w.t.Helper()
	return w.must(u, http.StatusOK, "POST", base+"/entities/"+url.PathEscape(entity)+"/merge", map[string]any{"into": into})
}

// recallSet returns the ids recalled for query filtered to entity, sorted.
func (w *world) recallSet(u *user, query, entity string) []string {
	w.t.Helper()
	ids := w.recall(u, query, map[string]any{"entity_id": entity, "limit": 100})
	sort.Strings(ids)
	return ids
}

// seedDana records one person twice: "Dana Whitfield" (employed at Acme
// Robotics from 2024, three memories) and "Dana W." (employed at Globex
// Corporation from 2025-03-01, one memory).
func (w *world) seedDana(u *user) (dana, danaW string, aMems []string, bMem string) {
	w.t.Helper()
	dana = w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Dana Whitfield",
		"predicate": "works_at", "object": "Acme Robotics", "valid_from": "2024-01-01T00:00:00Z"})["subject_id"].(string)
	danaW = w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Dana W.",
		"predicate": "works_at", "object": "Globex Corporation", "valid_from": "2025-03-01T00:00:00Z"})["subject_id"].(string)
	if dana == danaW {
		w.t.Fatalf("Dana Whitfield and Dana W. are one entity already (%s)", dana)
	}
	for i, c := range []string{"Leads the robotics team and its hiring.", "Writes the quarterly board letter.",
		"Asked for a budget review of the lab."} {
		aMems = append(aMems, w.remember(u, c, map[string]any{"entity_id": "Dana Whitfield",
			"occurred_at": fmt.Sprintf("2024-0%d-10T09:00:00Z", i+2)})["memory_id"].(string))
	}
	bMem = w.remember(u, "Prefers morning meetings before nine.", map[string]any{"entity_id": "Dana W.",
		"occurred_at": "2024-06-01T09:00:00Z"})["memory_id"].(string)
	return dana, danaW, aMems, bMem
}

func TestMergeEntitiesReadsFollowTheSurvivor(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	dana, danaW, aMems, bMem := w.seedDana(u)
	if got := w.recallSet(u, "morning meetings robotics team", danaW); len(got) != 1 || got[0] != bMem {
		t.Fatalf("before the merge, Dana W.'s memories = %v, want only %s", got, bMem)
	}

	res := w.merge(u, "Dana W.", "dana whitfield")
	if res["entity_id"] != dana || res["name"] != "Dana Whitfield" || res["entity_type"] != "person" ||
		fmt.Sprint(res["merged"]) != fmt.Sprint([]any{danaW}) || res["facts_superseded"] != float64(1) ||
		!slices.Contains(res["aliases"].([]any), any("Dana W.")) {
		t.Fatalf("merge = %v", res)
	}

	// Recall by either id or name finds both entities' memories.
	want := append(slices.Clone(aMems), bMem)
	sort.Strings(want)
	for _, ref := range []string{dana, danaW, "Dana W.", "Dana Whitfield"} {
		if got := w.recallSet(u, "morning meetings robotics team board letter budget review", ref); !slices.Equal(got, want) {
			t.Fatalf("recall by %s = %v, want %v", ref, got, want)
		}
	}

	// The survivor's timeline: the earlier employer ended when the later began.
	for _, ref := range []string{dana, danaW} {
		edges := w.edges(u, ref, "works_at")
		if len(edges) != 2 || edges[0]["object"] != "Acme Robotics" || edges[0]["status"] != "superseded" ||
			edges[0]["valid_until"] != "2025-03-01T00:00:00Z" || edges[1]["object"] != "Globex Corporation" ||
			edges[1]["status"] != "current" || edges[0]["subject_id"] != dana || edges[1]["subject_id"] != dana {
			t.Fatalf("timeline of %s = %v", ref, edges)
		}
	}

	// The merged id's graph, profile and timeline are the survivor's.
	g := w.must(u, http.StatusOK, "GET", base+"/graph/"+dana, nil)
	if gw := w.must(u, http.StatusOK, "GET", base+"/graph/"+danaW, nil); fmt.Sprint(gw) != fmt.Sprint(g) || g["entity_id"] != dana {
		t.Fatalf("graph of %s = %v, want the survivor's %v", danaW, gw, g)
	}
	p := w.must(u, http.StatusOK, "GET", base+"/profile/"+danaW, nil)
	if p["entity_id"] != dana || p["memory_count"] != float64(4) {
		t.Fatalf("profile of %s = %v", danaW, p)
	}
	if tl := w.must(u, http.StatusOK, "GET", base+"/entities/"+danaW+"/timeline", nil); tl["entity_id"] != dana {
		t.Fatalf("timeline of %s answers %v", danaW, tl["entity_id"])
	}

	// The list holds the survivor only.
	list := w.must(u, http.StatusOK, "GET", base+"/entities?entity_type=person", nil)
	if list["count"] != float64(1) || list["entities"].([]any)[0].(map[string]any)["entity_id"] != dana {
		t.Fatalf("entities = %v", list)
	}

	// Forgetting a memory of the merged entity still works.
	w.must(u, http.StatusOK, "DELETE", base+"/forget/"+bMem, nil)
	if got := w.recallSet(u, "morning meetings robotics team board letter budget review", danaW); contains(got, bMem) || len(got) != 3 {
		t.Fatalf("recall after forget = %v", got)
	}

}

func TestMergeEntitiesRefusesBadInput(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	other := w.register("Bo")
	_, danaW, _, _ := w.seedDana(u)
	path := base + "/entities/" + url.PathEscape("Dana W.") + "/merge"

	w.refused(w.do(u, "POST", path, map[string]any{}), http.StatusBadRequest, "into", "required")
	w.refused(w.do(u, "POST", path, map[string]any{"into": " dana w. "}), http.StatusBadRequest, "into", "distinct")
	w.refused(w.do(u, "POST", path, map[string]any{"into": danaW}), http.StatusBadRequest, "into", "distinct")
	w.refused(w.do(u, "POST", path, map[string]any{"into": "Dana Whitfield", "user_id": "me"}), http.StatusBadRequest,
		"user_id", "uuid")
	w.refused(w.do(u, "POST", path, map[string]any{"into": "Dana Whitfield", "surviver": "x"}), http.StatusBadRequest, "", "")
	w.refused(w.do(u, "POST", path, map[string]any{"into": "Dana Whitfield", "user_id": other.ID}), http.StatusForbidden, "", "")
	w.refused(w.do(u, "POST", path, map[string]any{"into": "Nobody Known"}), http.StatusNotFound, "", "")
	w.refused(w.do(u, "POST", base+"/entities/Nobody%20Known/merge", map[string]any{"into": "Dana Whitfield"}),
		http.StatusNotFound, "", "")
	// Another user's entities are not found, so no merge crosses stores.
	w.refused(w.do(other, "POST", path, map[string]any{"into": "Dana Whitfield"}), http.StatusNotFound, "", "")

	// The caller's own user_id is accepted; once merged, merging again is
	// merging into itself.
	w.must(u, http.StatusOK, "POST", path, map[string]any{"into": "Dana Whitfield", "user_id": u.ID})
	w.refused(w.do(u, "POST", path, map[string]any{"into": "Dana Whitfield"}), http.StatusBadRequest, "into", "distinct")
}

func TestRebuildAfterMergeAndForgetGivesTheLiveReadModel(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	dana, danaW, aMems, bMem := w.seedDana(u)
	w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Dana W.", "predicate": "knows",
		"object": "Dana Whitfield"}) // retracted by the merge: it would relate Dana to herself
	w.merge(u, danaW, dana)
	w.must(u, http.StatusOK, "DELETE", base+"/forget/"+aMems[0], nil)
	w.must(u, http.StatusOK, "DELETE", base+"/forget/"+bMem, nil)
	live := w.snapshot()

	res, err := projections.Rebuilder{DB: w.api.DB, Registry: w.api.Reg, BatchSize: 5}.Rebuild(context.Background(),
		projmemory.Projector{Keys: w.keys})
	if err != nil || res.Applied == 0 {
		t.Fatalf("rebuild: %+v, %v", res, err)
	}
	if rebuilt := w.snapshot(); rebuilt != live {
		t.Fatalf("rebuilt read model differs:\n%s\nlive:\n%s", rebuilt, live)
	}
	if got := w.recallSet(u, "board letter budget review", danaW); len(got) != 2 {
		t.Fatalf("recall by the merged id after rebuild = %v", got)
	}
	if edges := w.edges(u, danaW, "knows"); len(edges) != 0 {
		t.Fatalf("an edge between the merged entities survived: %v", edges)
	}

	// Deleting the survivor removes the merged entity too.
	w.must(u, http.StatusOK, "DELETE", base+"/entities/"+danaW, nil)
	for _, ref := range []string{dana, danaW, "Dana W."} {
		w.refused(w.do(u, "GET", base+"/entities/"+url.PathEscape(ref)+"/timeline", nil), http.StatusNotFound, "", "")
	}
	var n int
	if err := w.api.DB.QueryRow(`SELECT count(*) FROM rm_memory_v1.entities WHERE entity_id = ANY($1)`,
		[]string{dana, danaW}).Scan(&n); err != nil || n != 0 {
		t.Fatalf("entity rows left: %d, %v", n, err)
	}
}
