package datamarket

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"strings"

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

// load creates the version's row table on conn and fills it from r.
func load(ctx context.Context, conn *stdsql.Conn, d *datamarket.Dataset, table string, r cellReader, keep func(datamarket.RowError)) (*loadResult, error) {
	m, err := d.Map(r.Header())
	if err != nil {
		return nil, &problem{reason: err.Error()}
	}
	res := &loadResult{ignored: m.Ignored, facets: map[string]*datamarket.FacetCount{}}
	if _, err := conn.ExecContext(ctx, createTable(d, table)); err != nil {
		return nil, fmt.Errorf("create %s: %w", table, err)
	}
	src := &rowSource{d: d, m: m, r: r, res: res, keep: keep, seen: map[string]int64{}}
	if d.Unique == "" {
		src.seen = nil
	}
	for !src.done {
		src.left = chunkRows
		err := conn.Raw(func(dc any) error {
			pc := dc.(*stdlib.Conn).Conn()
			_, err := pc.CopyFrom(ctx, pgx.Identifier{RowSchema, table}, copyColumns(d), src)
			return err
		})
		var p *problem
		if errors.As(src.err, &p) { // the file broke: COPY was cancelled with it
			return res, p
		}
		if err != nil {
			return nil, fmt.Errorf("copy into %s: %w", table, err)
		}
	}
	if nd, ok := r.(*ndjsonReader); ok {
		res.ignored = nd.Extra()
	}
	return res, nil
}

// rowSource feeds COPY one chunk of valid rows at a time, leaving out
// (and reporting) the rows that break the schema.
type rowSource struct {
	d     *datamarket.Dataset
	m     datamarket.Mapping
	r     cellReader
	res   *loadResult
	keep  func(datamarket.RowError)
	seen  map[string]int64 // unique column value -> row
	row   []any
	left  int
	done  bool
	err   error
	rowNo int64
}

func (s *rowSource) Next() bool {
	if s.left == 0 || s.done {
		return false
	}
	for {
		cells, err := s.r.Next()
		if errors.Is(err, io.EOF) {
			s.done = true
			return false
		}
		s.rowNo++
		var rp *rowProblem
		if errors.As(err, &rp) {
			s.res.read++
			s.reject(datamarket.RowError{Row: s.rowNo, Field: rp.field, Rule: rp.rule, Message: rp.msg})
			continue
		}
		if err != nil {
			s.err, s.done = &problem{reason: fmt.Sprintf("row %d: %v", s.rowNo, err)}, true
			return false
		}
		s.res.read++
		row, rerr := s.d.Convert(s.m, cells, s.rowNo)
		if rerr != nil {
			s.reject(*rerr)
			continue
		}
		if s.seen != nil && !s.unique(row) {
			continue
		}
		s.count(row)
		s.row = append(append(s.row[:0], s.rowNo), row...)
		s.res.loaded++
		s.left--
		return true
	}
}

func (s *rowSource) reject(e datamarket.RowError) {
	s.res.invalid++
	if len(s.res.errors) < datamarket.MaxReportedErrors {
		s.res.errors = append(s.res.errors, e)
	}
	if s.keep != nil {
		s.keep(e)
	}
}

func (s *rowSource) unique(row datamarket.Row) bool {
	i := s.d.Col(s.d.Unique)
	v, _ := row[i].(string)
	if first, dup := s.seen[v]; dup {
		s.reject(datamarket.RowError{Row: s.rowNo, Field: s.d.Unique, Rule: "unique",
			Message: fmt.Sprintf("%s %q was already given in row %d", s.d.Unique, v, first)})
		return false
	}
	s.seen[v] = s.rowNo
	return true
}

// count adds a row to its facet combination's count.
func (s *rowSource) count(row datamarket.Row) {
	var key strings.Builder
	vals := make([]any, len(s.d.Facets))
	for i, f := range s.d.Facets {
		vals[i] = row[s.d.Col(f)]
		fmt.Fprintf(&key, "%v\x00", vals[i])
	}
	fc := s.res.facets[key.String()]
	if fc == nil {
		fc = &datamarket.FacetCount{Values: vals}
		s.res.facets[key.String()] = fc
	}
	fc.Rows++
}

func (s *rowSource) Values() ([]any, error) { return s.row, nil }
func (s *rowSource) Err() error             { return s.err }

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
// current row by row).
func createTable(d *datamarket.Dataset, table string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (row_no bigint NOT NULL", qualified(table))
	for _, c := range d.Columns {
		fmt.Fprintf(&b, ", %s %s", quote(c.Name), c.Type.SQLType())
	}
	b.WriteString(")")
	return b.String()
}

// SearchExpr is the full-text expression of a dataset's searchable
// columns; its GIN index and every search query use the same text.
func SearchExpr(d *datamarket.Dataset) string {
	parts := make([]string, len(d.Search))
	for i, c := range d.Search {
		parts[i] = "coalesce(" + quote(c) + ", '')"
	}
	return "to_tsvector('simple'::regconfig, " + strings.Join(parts, " || ' ' || ") + ")"
}

// indexStatements build a loaded table's primary key, indexes and
// statistics.
func indexStatements(d *datamarket.Dataset, table string) []string {
	q := qualified(table)
	out := []string{fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (row_no)", q)}
	for i, ix := range d.Indexes {
		cols := make([]string, 0, len(ix.Columns)+1)
		for _, c := range ix.Columns {
			cols = append(cols, quote(c))
		}
		cols = append(cols, "row_no")
		s := fmt.Sprintf("CREATE INDEX %s ON %s (%s)", quote(fmt.Sprintf("%s_i%d", table, i)), q, strings.Join(cols, ", "))
		if ix.Where != "" {
			s += " WHERE " + quote(ix.Where)
		}
		out = append(out, s)
	}
	if len(d.Search) > 0 {
		out = append(out, fmt.Sprintf("CREATE INDEX %s ON %s USING gin (%s)", quote(table+"_search"), q, SearchExpr(d)))
	}
	return append(out, "ANALYZE "+q)
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
