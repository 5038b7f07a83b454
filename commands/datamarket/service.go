// Package datamarket runs the data marketplace's commands: importing a
// dataset file as a new version (one set of version events, the rows
// bulk-loaded with COPY into a table of their own, readers switched in
// one transaction by the projector), retracting a version, and purging
// old versions' rows.
package datamarket

import (
	"context"
	"crypto/sha256"
	stdsql "database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// Config wires the service.
type Config struct {
	// Client fetches URL sources (SSRF-safe); nil: files only.
	Client *outbound.Client
	// MaxBytes is the largest file imported (default 4 GiB).
	MaxBytes int64
	// MaxInvalidRatio is the share of rows that may break the schema (and
	// are left out, reported) before the whole version is rejected
	// (default 0.01; 0 < r <= 1). A version with no valid row is rejected.
	MaxInvalidRatio float64
	// Keep is how many published versions keep their rows (default 3).
	Keep int
	// Wait blocks until the read model has applied the event at key.
	Wait func(ctx context.Context, key eventstore.Key) error
}

// Service runs the data marketplace commands.
type Service struct {
	store *eventstore.Store
	clock kernel.Clock
	log   *slog.Logger
	cfg   Config
}

// New returns the service.
func New(store *eventstore.Store, clock kernel.Clock, log *slog.Logger, cfg Config) *Service {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 4 << 30
	}
	if cfg.MaxInvalidRatio <= 0 || cfg.MaxInvalidRatio > 1 {
		cfg.MaxInvalidRatio = 0.01
	}
	if cfg.Keep <= 0 {
		cfg.Keep = 3
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: store, clock: clock, log: log, cfg: cfg}
}

// Result is an import's outcome.
type Result struct {
	Dataset string `json:"dataset"`
	Version int    `json:"version"`
	// Status is published, rejected, or (Unchanged) the status of the
	// version the same file made before.
	Status    string `json:"status"`
	Unchanged bool   `json:"unchanged"`
	Reason    string `json:"reason,omitempty"`
	SHA256    string `json:"sha256"`
	// RowsRead, RowsLoaded, RowsInvalid count this import's rows.
	RowsRead    int64                 `json:"rows_read"`
	RowsLoaded  int64                 `json:"rows_loaded"`
	RowsInvalid int64                 `json:"rows_invalid"`
	Ignored     []string              `json:"ignored_columns"`
	Purged      []int                 `json:"purged"`
	Errors      []datamarket.RowError `json:"-"`
	Elapsed     time.Duration         `json:"-"`
	// Load and Index are the two phases' times: reading, checking and
	// copying the rows; building the indexes and statistics.
	Load, Index time.Duration `json:"-"`
}

// Import reads src as a new version of dataset: the same file as an
// earlier version makes nothing new; otherwise its rows are validated and
// loaded, and the version is published (readers switch to it) or
// rejected (readers stay). keep, if not nil, receives every row error.
// Imports of one dataset run one at a time (an advisory lock).
func (s *Service) Import(ctx context.Context, dataset string, src Source, keep func(datamarket.RowError)) (*Result, error) {
	started := time.Now()
	d, ok := datamarket.Lookup(dataset)
	if !ok {
		return nil, kernel.Invalid("dataset", "enum", "unknown dataset "+dataset+"; one of "+fmt.Sprint(datamarket.Keys()))
	}
	format, err := formatOf(src)
	if err != nil {
		return nil, err
	}
	if err := checkFormat(d, format); err != nil {
		return nil, err
	}
	sp, err := s.spool(ctx, src)
	if err != nil {
		return nil, err
	}
	defer sp.remove()
	conn, err := s.store.DB().Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	unlock, err := lockDataset(ctx, conn, dataset)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, version, err := s.state(ctx, dataset)
	if err != nil {
		return nil, err
	}
	out := &Result{Dataset: dataset, SHA256: sp.sha256}
	if v, same := st.Same(sp.sha256); same {
		out.Version, out.Status, out.Unchanged = v.Version, st.Status(v), true
		out.Elapsed = time.Since(started)
		return out, nil
	}
	if err := dropOrphans(ctx, conn, dataset, st.Last); err != nil {
		return nil, err
	}
	out.Version = st.Last + 1
	staged := &datamarket.VersionStaged{Dataset: dataset, Version: out.Version, By: src.By, At: s.now(),
		Provenance: datamarket.Provenance{Source: sourceName(src.Location), License: src.License, FetchedAt: s.now(),
			SHA256: sp.sha256, Bytes: sp.bytes, Format: format, Sample: src.Sample, DerivedFrom: src.DerivedFrom}}
	if src.Name != "" {
		staged.Provenance.Source = src.Name
	}
	if err := s.loadVersion(ctx, conn, d, st, version, staged, sp, out, keep); err != nil {
		return nil, err
	}
	out.Elapsed = time.Since(started)
	return out, nil
}

// loadVersion loads the rows and appends the version's events.
func (s *Service) loadVersion(ctx context.Context, conn *stdsql.Conn, d *datamarket.Dataset, st *datamarket.State, streamVersion int64,
	staged *datamarket.VersionStaged, sp *spooled, out *Result, keep func(datamarket.RowError)) error {
	table := datamarket.TableName(d.Key, staged.Version)
	f, err := sp.open()
	if err != nil {
		return err
	}
	defer f.Close()
	hr := &hashingReader{r: f, h: sha256.New()}
	r, err := newReader(d, staged.Provenance.Format, hr)
	var res *loadResult
	t0 := time.Now()
	if err == nil {
		res, err = load(ctx, s.store.DB(), conn, d, table, r, keep)
	}
	if err == nil {
		_, _ = io.Copy(io.Discard, hr) // the reader may stop before the end (a final blank line)
		if hr.changed(sp) {
			err = &problem{reason: "the file changed while it was imported; import it again"}
		}
	}
	out.Load = time.Since(t0)
	if res != nil {
		out.RowsRead, out.RowsLoaded, out.RowsInvalid, out.Ignored = res.read, res.loaded, res.invalid, res.ignored
		out.Errors = res.errors
	}
	var p *problem
	switch {
	case errors.As(err, &p):
		return s.reject(ctx, conn, d, table, streamVersion, staged, out, res, p.reason)
	case err != nil:
		s.dropTable(conn, table)
		return err
	case res.loaded == 0:
		return s.reject(ctx, conn, d, table, streamVersion, staged, out, res, "no row of the file is valid")
	case float64(res.invalid) > s.cfg.MaxInvalidRatio*float64(res.read):
		return s.reject(ctx, conn, d, table, streamVersion, staged, out, res,
			fmt.Sprintf("%d of %d rows break the schema; at most %.2f%% may", res.invalid, res.read, 100*s.cfg.MaxInvalidRatio))
	}
	t0 = time.Now()
	if err := s.buildIndexes(ctx, conn, d, table); err != nil {
		s.dropTable(conn, table)
		return fmt.Errorf("index %s: %w", table, err)
	}
	out.Index = time.Since(t0)
	return s.publish(ctx, d, st, streamVersion, staged, table, res, out)
}

// buildIndexes builds the row table's indexes on two connections at the
// same time, then its statistics. The sessions
// raise maintenance_work_mem for their builds (64MB by default makes a
// million rows' full-text index spill), use no parallel workers (the two
// sessions keep the cores busy) and commit without waiting for the WAL
// flush (the version's events flush it), then reset all three.
func (s *Service) buildIndexes(ctx context.Context, conn *stdsql.Conn, d *datamarket.Dataset, table string) error {
	search, rest := indexStatements(d, table)
	run := func(c *stdsql.Conn, stmts []string) error {
		// The two connections are the parallelism: no workers of their own.
		if _, err := c.ExecContext(ctx, `SET maintenance_work_mem = '256MB'; SET max_parallel_maintenance_workers = 0; SET synchronous_commit = off`); err != nil {
			return err
		}
		defer func() {
			_, _ = c.ExecContext(context.Background(), `RESET maintenance_work_mem; RESET max_parallel_maintenance_workers; RESET synchronous_commit`)
		}()
		for _, stmt := range stmts {
			if _, err := c.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
		return nil
	}
	errc := make(chan error, 1)
	if len(search) > 0 {
		other, err := s.store.DB().Conn(ctx)
		if err != nil {
			return err
		}
		defer other.Close()
		go func() { errc <- run(other, search) }()
	} else {
		errc <- nil
	}
	err := run(conn, rest)
	if serr := <-errc; err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "ANALYZE "+qualified(table)+" ("+strings.Join(analyzed(d), ", ")+")")
	return err
}

// analyzed are the columns the planner needs statistics of: the row
// number, what filters, indexes and lookups compare, and the search
// column (the wide free text of names and addresses is left out: sampling
// it costs most of an ANALYZE and no query plans on it).
func analyzed(d *datamarket.Dataset) []string {
	seen := map[string]bool{"row_no": true}
	out := []string{"row_no"}
	add := func(c string) {
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, quote(c))
		}
	}
	for _, f := range d.Filters {
		add(f.Column)
	}
	for _, ix := range d.Indexes {
		for _, c := range ix.Columns {
			add(c)
		}
		add(ix.Where)
	}
	add(d.Unique)
	if len(d.Search) > 0 {
		add(SearchColumn)
	}
	return out
}

// publish appends the version's events and drops the rows retention lets
// go, in one transaction; the projector then switches readers.
func (s *Service) publish(ctx context.Context, d *datamarket.Dataset, st *datamarket.State, streamVersion int64,
	staged *datamarket.VersionStaged, table string, res *loadResult, out *Result) error {
	now := s.now()
	events := []kernel.Event{staged, &datamarket.VersionValidated{Dataset: d.Key, Version: staged.Version, RowsRead: res.read,
		RowsLoaded: res.loaded, RowsInvalid: res.invalid, Errors: nonNil(res.errors), IgnoredColumns: nonNilS(res.ignored),
		Facets: facetList(res.facets), Table: table, At: now},
		&datamarket.VersionPublished{Dataset: d.Key, Version: staged.Version, Previous: st.Current, At: now}}
	for _, e := range events {
		st.Apply(e)
	}
	purge := st.Purgeable(s.cfg.Keep)
	for _, v := range purge {
		events = append(events, &datamarket.VersionPurged{Dataset: d.Key, Version: v,
			Reason: fmt.Sprintf("retention: the newest %d published versions keep their rows", s.cfg.Keep), At: now})
	}
	var app eventstore.Appended
	err := s.store.InTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		if app, err = s.store.AppendTx(ctx, tx, stream(d.Key), streamVersion, events...); err != nil {
			return err
		}
		for _, v := range purge {
			if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+qualified(datamarket.TableName(d.Key, v))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	out.Status, out.Purged = datamarket.StatusPublished, purge
	return s.wait(ctx, app)
}

// reject drops the loaded rows and records the version rejected.
func (s *Service) reject(ctx context.Context, conn *stdsql.Conn, d *datamarket.Dataset, table string, streamVersion int64,
	staged *datamarket.VersionStaged, out *Result, res *loadResult, reason string) error {
	s.dropTable(conn, table)
	rej := &datamarket.VersionRejected{Dataset: d.Key, Version: staged.Version, Reason: reason, Errors: []datamarket.RowError{}, At: s.now()}
	if res != nil {
		rej.RowsRead, rej.RowsInvalid, rej.Errors = res.read, res.invalid, nonNil(res.errors)
	}
	app, err := s.store.Append(ctx, stream(d.Key), streamVersion, staged, rej)
	if err != nil {
		return err
	}
	out.Status, out.Reason = datamarket.StatusRejected, reason
	return s.wait(ctx, app)
}

func (s *Service) dropTable(conn *stdsql.Conn, table string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+qualified(table)); err != nil {
		s.log.Warn("datamarket: drop table", "table", table, "err", err)
	}
}

// Retract withdraws a published version; readers move to the newest other
// readable version (or to none).
func (s *Service) Retract(ctx context.Context, dataset string, version int, reason, by string) (int, error) {
	if _, ok := datamarket.Lookup(dataset); !ok {
		return 0, kernel.Invalid("dataset", "enum", "unknown dataset "+dataset)
	}
	st, sv, err := s.state(ctx, dataset)
	if err != nil {
		return 0, err
	}
	current, err := st.Retract(dataset, version, reason)
	if err != nil {
		return 0, err
	}
	app, err := s.store.Append(ctx, stream(dataset), sv, &datamarket.VersionRetracted{Dataset: dataset, Version: version,
		Reason: reason, By: by, Current: current, At: s.now()})
	if err != nil {
		return 0, err
	}
	return current, s.wait(ctx, app)
}

// State folds a dataset's stream.
func (s *Service) state(ctx context.Context, dataset string) (*datamarket.State, int64, error) {
	envs, err := s.store.Load(ctx, datamarket.DatasetStream(dataset), eventstore.LoadOptions{})
	if err != nil {
		return nil, 0, err
	}
	evs := make([]kernel.Event, len(envs))
	var v int64
	for i, e := range envs {
		evs[i], v = e.Event, e.StreamVersion
	}
	return datamarket.Fold(evs), v, nil
}

func (s *Service) wait(ctx context.Context, app eventstore.Appended) error {
	if s.cfg.Wait == nil {
		return nil
	}
	return s.cfg.Wait(ctx, app.Last)
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func stream(dataset string) eventstore.Stream {
	return eventstore.Stream{Type: datamarket.StreamDataset, ID: datamarket.DatasetStream(dataset)}
}

// lockDataset takes the dataset's import lock for the session; the
// returned func releases it (the connection goes back to the pool).
func lockDataset(ctx context.Context, conn *stdsql.Conn, dataset string) (func(), error) {
	key := "datamarket.import:" + dataset
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, key); err != nil {
		return nil, err
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // the session ends with the connection
		}
	}, nil
}

func facetList(m map[string]*datamarket.FacetCount) []datamarket.FacetCount {
	out := make([]datamarket.FacetCount, 0, len(m))
	for _, f := range m {
		out = append(out, *f)
	}
	sortFacets(out)
	return out
}

func nonNil(e []datamarket.RowError) []datamarket.RowError {
	if e == nil {
		return []datamarket.RowError{}
	}
	return e
}

func nonNilS(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
