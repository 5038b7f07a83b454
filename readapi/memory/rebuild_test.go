package memory_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/projections"
	projmemory "github.com/strata-platform/strata/projections/memory"
)

// snapshot dumps the memory read model's rows (ignoring versions and the
// epoch, which a rebuild renews).
func (w *world) snapshot() string {
	w.t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT memory_id, user_id, namespace, memory_type, importance, COALESCE(entity_id, ''), content,
			array_to_string(variants, '|'), array_to_string(tags, '|'), metadata::text, created_at FROM rm_memory_v1.memories ORDER BY 1`,
		`SELECT entity_id, name, entity_type, array_to_string(aliases, '|'), memory_count, first_seen, last_seen,
			recognized_at, COALESCE(last_recognized_at::text, ''), COALESCE(merged_into, '') FROM rm_memory_v1.entities ORDER BY 1`,
		`SELECT memory_id, entity_id FROM rm_memory_v1.mentions ORDER BY 1, 2`,
		`SELECT edge_id, subject_id, predicate, object_id, confidence, exclusive, valid_from, COALESCE(valid_until::text, ''),
			status, COALESCE(memory_id, '') FROM rm_memory_v1.edges ORDER BY 1`,
	} {
		rows, err := w.api.DB.Query(q)
		if err != nil {
			w.t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				w.t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

func TestRebuildGivesTheLiveReadModelAndNoForgottenText(t *testing.T) {
	w := start(t)
	u := w.register("Ada")
	w.seedLena(u)
	gone := w.remember(u, "Lena Fischer's door code is 90210.", nil)["memory_id"].(string)
	w.remember(u, "lena fischer works at globex corporation as a staff engineer", nil) // merged
	w.must(u, http.StatusOK, "POST", base+"/relate", map[string]any{"subject": "Lena Fischer", "predicate": "manages",
		"object": "Omar Haddad"})
	w.must(u, http.StatusOK, "DELETE", base+"/forget/"+gone, nil)
	w.must(u, http.StatusOK, "DELETE", base+"/entities/Omar%20Haddad", nil)
	live := w.snapshot()
	if strings.Contains(live, "90210") || !strings.Contains(live, "Globex") {
		t.Fatalf("live read model:\n%s", live)
	}

	res, err := projections.Rebuilder{DB: w.api.DB, Registry: w.api.Reg, BatchSize: 7}.Rebuild(context.Background(),
		projmemory.Projector{Keys: w.keys})
	if err != nil || res.Applied == 0 {
		t.Fatalf("rebuild: %+v, %v", res, err)
	}
	if rebuilt := w.snapshot(); rebuilt != live {
		t.Fatalf("rebuilt read model differs:\n%s\nlive:\n%s", rebuilt, live)
	}
	// The index notices the new epoch and still answers.
	if ids := w.recall(u, "where does Lena Fischer work", nil); len(ids) == 0 || contains(ids, gone) {
		t.Fatalf("recall after rebuild = %v", ids)
	}
}
