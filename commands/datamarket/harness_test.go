package datamarket_test

import (
	"context"
	stdsql "database/sql"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projdata "github.com/strata-platform/strata/projections/datamarket"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is a store, the projector running and the service.
type world struct {
	t     *testing.T
	db    *stdsql.DB
	store *eventstore.Store
	svc   *cmddata.Service
	dir   string
}

func newWorld(t *testing.T, cfg cmddata.Config) *world {
	t.Helper()
	reg := eventstore.NewRegistry()
	for _, c := range append(datamarket.Events(), projections.Events()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projdata.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	cfg.Wait = func(ctx context.Context, k eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return runner.WaitFor(wctx, k, projdata.Name)
	}
	return &world{t: t, db: db.SQL, store: store, svc: cmddata.New(store, clock, logger, cfg), dir: t.TempDir()}
}

// file writes a file to import.
func (w *world) file(name, body string) string {
	w.t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return p
}

func (w *world) importFile(dataset, name, body string) *cmddata.Result {
	w.t.Helper()
	res, err := w.svc.Import(context.Background(), dataset, cmddata.Source{Location: w.file(name, body), By: "test"}, nil)
	if err != nil {
		w.t.Fatalf("import %s: %v", name, err)
	}
	return res
}

// current is the dataset's current version and row count as readers see it.
func (w *world) current(dataset string) (int, int64) {
	w.t.Helper()
	var v int
	var n int64
	err := w.db.QueryRow(`SELECT version, rows_loaded FROM rm_datamarket_v1.current WHERE dataset = $1`, dataset).Scan(&v, &n)
	if err == stdsql.ErrNoRows {
		return 0, 0
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return v, n
}

func (w *world) status(dataset string, version int) string {
	w.t.Helper()
	var s string
	if err := w.db.QueryRow(`SELECT status FROM rm_datamarket_v1.versions WHERE dataset = $1 AND version = $2`, dataset, version).Scan(&s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

// tables lists the row tables of the schema.
func (w *world) tables() []string {
	w.t.Helper()
	rows, err := w.db.Query(`SELECT tablename FROM pg_tables WHERE schemaname = 'data_rows' ORDER BY 1`)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

func (w *world) events(dataset string) []string {
	w.t.Helper()
	envs, err := w.store.Load(context.Background(), datamarket.DatasetStream(dataset), eventstore.LoadOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, e := range envs {
		out = append(out, e.Type)
	}
	return out
}
