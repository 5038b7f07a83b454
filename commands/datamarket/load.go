package datamarket

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/strata-platform/strata/domain/datamarket"
)

// RowSchema is the schema of the row tables.
const RowSchema = "data_rows"

// chunkRows is how many rows one COPY commits. Every write transaction
// holds back the event consumers until it ends (they read only below the
// oldest running transaction, ARCHITECTURE.md section 4), so a million
// rows are loaded as short transactions, not one long one; the table is
// not a version until the version's events say so.
const chunkRows = 50_000

// loadResult is what loading a file found.
type loadResult struct {
	read, loaded, invalid int64
	errors                []datamarket.RowError
	ignored               []string
	facets                map[string]*datamarket.FacetCount
}

// problem ends a load: the file as a whole is refused (rejected).
type problem struct{ reason string }

func (p *problem) Error() string { return p.reason }

// load creates the version's row table on conn and fills it from r: the
// rows are read and checked by a pipeline of goroutines (rowReader) and
// sent by two COPY streams in chunks of chunkRows.
func load(ctx context.Context, db *stdsql.DB, conn *stdsql.Conn, d *datamarket.Dataset, table string, r cellReader, keep func(datamarket.RowError)) (*loadResult, error) {
	m, err := d.Map(r.Header())
	if err != nil {
		return nil, &problem{reason: err.Error()}
	}
	res := &loadResult{ignored: m.Ignored, facets: map[string]*datamarket.FacetCount{}}
	if _, err := conn.ExecContext(ctx, createTable(d, table)); err != nil {
		return nil, fmt.Errorf("create %s: %w", table, err)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rd := newRowReader(d, m, r, res, keep)
	go rd.run(rctx)
	// Two COPY streams share the checked rows: PostgreSQL computes the
	// search column and writes the rows in one backend per stream.
	conns := []*stdsql.Conn{conn}
	if other, err := db.Conn(ctx); err == nil {
		defer other.Close()
		conns = append(conns, other)
	}
	// The chunks commit without waiting for their WAL flush: they are not
	// a version until the version's events commit, and that commit flushes
	// the WAL written before it, the rows included.
	for _, c := range conns {
		if _, err := c.ExecContext(ctx, `SET synchronous_commit = off`); err != nil {
			return nil, err
		}
		defer func() { _, _ = c.ExecContext(context.Background(), `RESET synchronous_commit`) }()
	}
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := &rowSource{in: rd.out}
			for !src.done {
				src.left = chunkRows
				if err := c.Raw(func(dc any) error {
					_, err := dc.(*stdlib.Conn).Conn().CopyFrom(rctx, pgx.Identifier{RowSchema, table}, copyColumns(d), src)
					return err
				}); err != nil {
					errs[i] = err
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	for range rd.out { // a stream that failed left batches behind
	}
	var p *problem
	if errors.As(rd.err, &p) { // the file broke (a stream may have been cancelled with it)
		return res, p
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("copy into %s: %w", table, err)
		}
	}
	if rd.err != nil {
		return nil, rd.err
	}
	if nd, ok := r.(*ndjsonReader); ok {
		res.ignored = nd.Extra()
	}
	return res, nil
}

// rowSource feeds COPY up to left rows of the reader's batches: a chunk.
type rowSource struct {
	in    <-chan []datamarket.Row
	batch []datamarket.Row
	row   datamarket.Row
	left  int
	done  bool
}

func (s *rowSource) Next() bool {
	if s.left == 0 || s.done {
		return false
	}
	if len(s.batch) == 0 {
		b, ok := <-s.in
		if !ok {
			s.done = true
			return false
		}
		s.batch = b
	}
	s.row, s.batch = s.batch[0], s.batch[1:]
	s.left--
	return true
}

func (s *rowSource) Values() ([]any, error) { return s.row, nil }
func (s *rowSource) Err() error             { return nil }

// copyColumns are a row table's columns in COPY order.
func copyColumns(d *datamarket.Dataset) []string {
	out := []string{"row_no"}
	for _, c := range d.Columns {
		out = append(out, c.Name)
	}
	return out
}

func quote(id string) string { return pgx.Identifier{id}.Sanitize() }

// qualified is a row table's qualified, quoted name.
func qualified(table string) string { return pgx.Identifier{RowSchema, table}.Sanitize() }

// createTable is the DDL of a version's row table (without indexes: they
// are built once the rows are in, which is faster than keeping them
// current row by row). A searchable dataset's table has a generated
// column holding the search text's tsvector: computed as rows arrive
// (while the reader is the busy side), and cheap to recheck.
func createTable(d *datamarket.Dataset, table string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (row_no bigint NOT NULL", qualified(table))
	for _, c := range d.Columns {
		fmt.Fprintf(&b, ", %s %s", quote(c.Name), c.Type.SQLType())
	}
	if len(d.Search) > 0 {
		parts := make([]string, len(d.Search))
		for i, c := range d.Search {
			parts[i] = "coalesce(" + quote(c) + ", '')"
		}
		fmt.Fprintf(&b, ", %s tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, %s)) STORED",
			SearchColumn, strings.Join(parts, " || ' ' || "))
	}
	b.WriteString(")")
	return b.String()
}

// SearchColumn is the row tables' full-text column.
const SearchColumn = "_search"

// indexStatements build a loaded table's indexes in two lists that run at
// the same time on two connections (CREATE INDEX takes a lock that does
// not block another's), balanced by each build's rough cost as measured
// on a million directory rows (the full-text index costs most, then a
// hash, a b-tree, the row number, a partial index least).
func indexStatements(d *datamarket.Dataset, table string) (a, b []string) {
	q := qualified(table)
	type build struct {
		sql  string
		cost float64
	}
	builds := []build{{fmt.Sprintf("CREATE UNIQUE INDEX %s ON %s (row_no)", quote(table+"_row"), q), 0.75}}
	if len(d.Search) > 0 {
		builds = append(builds, build{fmt.Sprintf("CREATE INDEX %s ON %s USING gin (%s)", quote(table+"_search"), q, quote(SearchColumn)), 4.5})
	}
	for i, ix := range d.Indexes {
		cols := make([]string, 0, len(ix.Columns)+1)
		for _, c := range ix.Columns {
			cols = append(cols, quote(c))
		}
		using, cost := "", 1.3
		if ix.Using != "" {
			using, cost = " USING "+ix.Using, 1.7
		} else {
			cols = append(cols, "row_no")
		}
		s := fmt.Sprintf("CREATE INDEX %s ON %s%s (%s)", quote(fmt.Sprintf("%s_i%d", table, i)), q, using, strings.Join(cols, ", "))
		if ix.Where != "" {
			s, cost = s+" WHERE "+quote(ix.Where), 0.5
		}
		builds = append(builds, build{s, cost})
	}
	sort.SliceStable(builds, func(i, j int) bool { return builds[i].cost > builds[j].cost })
	var ca, cb float64
	for _, x := range builds {
		if ca <= cb {
			a, ca = append(a, x.sql), ca+x.cost
		} else {
			b, cb = append(b, x.sql), cb+x.cost
		}
	}
	return a, b
}

// dropOrphans drops row tables of a dataset that no event made a version:
// left by an import that stopped (a crash) after loading rows and before
// appending its events. Versions above last never had events.
func dropOrphans(ctx context.Context, conn *stdsql.Conn, dataset string, last int) error {
	prefix := strings.ReplaceAll(dataset, "-", "_") + "_v"
	rows, err := conn.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND starts_with(tablename, $2)`, RowSchema, prefix)
	if err != nil {
		return err
	}
	var drop []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		var v int
		if _, err := fmt.Sscanf(strings.TrimPrefix(t, prefix), "%d", &v); err == nil && v > last && datamarket.TableName(dataset, v) == t {
			drop = append(drop, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range drop {
		if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+qualified(t)); err != nil {
			return err
		}
	}
	return nil
}
