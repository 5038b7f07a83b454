package datamarket

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
)

// pointer is the version a read is served from.
type pointer struct {
	Version int
	Status  string
	Table   string
	Rows    int64
	Facets  []datamarket.FacetCount
	// Modified is when this data became what the read serves: when
	// readers were switched to the current version (a publication or a
	// retraction), or a pinned version's publication.
	Modified time.Time
}

type reader struct{ db *stdsql.DB }

// at returns the dataset's current version (version 0), or the pinned
// one: a published or superseded version; a retracted or purged one is
// gone (410); nil, nil when the dataset has no data.
func (q *reader) at(ctx context.Context, dataset string, version int) (*pointer, error) {
	p := &pointer{Status: datamarket.StatusPublished}
	var facets []byte
	if version == 0 {
		err := q.db.QueryRowContext(ctx, `SELECT version, row_table, rows_loaded, facets, switched_at
			FROM rm_datamarket_v1.current WHERE dataset = $1`, dataset).Scan(&p.Version, &p.Table, &p.Rows, &facets, &p.Modified)
		if errors.Is(err, stdsql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return p, json.Unmarshal(facets, &p.Facets)
	}
	var status string
	var table stdsql.NullString
	var pub stdsql.NullTime
	err := q.db.QueryRowContext(ctx, `SELECT status, row_table, rows_loaded, facets, published_at
		FROM rm_datamarket_v1.versions WHERE dataset = $1 AND version = $2`, dataset, version).Scan(&status, &table, &p.Rows, &facets, &pub)
	if errors.Is(err, stdsql.ErrNoRows) {
		return nil, kernel.NotFound(fmt.Sprintf("%s has no version %d", dataset, version))
	}
	if err != nil {
		return nil, err
	}
	switch status {
	case datamarket.StatusPublished, datamarket.StatusSuperseded:
	case datamarket.StatusRetracted, datamarket.StatusPurged:
		return nil, &kernel.Error{Kind: kernel.KindGone, Field: "version", Rule: status,
			Message: fmt.Sprintf("%s version %d was %s; its rows are no longer served", dataset, version, status)}
	default:
		return nil, kernel.NotFound(fmt.Sprintf("%s version %d was never published (%s)", dataset, version, status))
	}
	p.Version, p.Status, p.Table, p.Modified = version, status, table.String, pub.Time
	return p, json.Unmarshal(facets, &p.Facets)
}

// query is one page's request.
type query struct {
	filters map[string]any // column -> value
	search  string         // a tsquery text, "" for none
	limit   int
	offset  int
}

// where builds the page's condition and its arguments.
func (qq query) where(d *datamarket.Dataset) (string, []any) {
	var conds []string
	var args []any
	for _, f := range d.Filters {
		v, ok := qq.filters[f.Column]
		if !ok {
			continue
		}
		args = append(args, v)
		conds = append(conds, fmt.Sprintf("%s = $%d", pgx.Identifier{f.Column}.Sanitize(), len(args)))
	}
	if qq.search != "" {
		args = append(args, qq.search)
		conds = append(conds, fmt.Sprintf("%s @@ to_tsquery('simple'::regconfig, $%d)", cmddata.SearchColumn, len(args)))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// rows reads a page of records as JSON objects in row order.
func (q *reader) rows(ctx context.Context, d *datamarket.Dataset, p *pointer, qq query) ([]json.RawMessage, error) {
	where, args := qq.where(d)
	return q.selectRows(ctx, d, p, where, args, qq.limit, qq.offset)
}

// selectRows reads the rows of a condition in row order.
func (q *reader) selectRows(ctx context.Context, d *datamarket.Dataset, p *pointer, where string, args []any, limit, offset int) ([]json.RawMessage, error) {
	cols := d.Visible()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = pgx.Identifier{c.Name}.Sanitize()
	}
	args = append(args, limit, offset)
	sql := fmt.Sprintf("SELECT row_no, %s FROM %s%s ORDER BY row_no LIMIT $%d OFFSET $%d", strings.Join(names, ", "),
		pgx.Identifier{cmddata.RowSchema, p.Table}.Sanitize(), where, len(args)-1, len(args))
	rs, err := q.db.QueryContext(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	out := []json.RawMessage{}
	dest := make([]any, len(cols)+1)
	var rowNo int64
	dest[0] = &rowNo
	for i, c := range cols {
		dest[i+1] = scanTarget(c.Type)
	}
	for rs.Next() {
		if err := rs.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, record(cols, dest[1:], rowNo))
	}
	return out, rs.Err()
}

// MaxSearchTotal is how far a search's total is counted: beyond it the
// total is reported as at least this many (total_relation "gte"), as
// search engines do (Elasticsearch's track_total_hits, GitHub's 1,000),
// so a broad word costs no full count.
const MaxSearchTotal = 1000

// count is the number of rows a page's condition matches: read from the
// version's facet counts when every filter is on a facet and there is no
// search, counted otherwise (a search up to MaxSearchTotal). exact is
// false when the count stopped there.
func (q *reader) count(ctx context.Context, d *datamarket.Dataset, p *pointer, qq query) (n int64, exact bool, err error) {
	if n, ok := facetTotal(d, p, qq); ok {
		return n, true, nil
	}
	where, args := qq.where(d)
	table := pgx.Identifier{cmddata.RowSchema, p.Table}.Sanitize()
	if qq.search == "" {
		err = q.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM %s%s", table, where), args...).Scan(&n)
		return n, true, err
	}
	err = q.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s%s LIMIT %d) s", table, where, MaxSearchTotal+1), args...).Scan(&n)
	if n > MaxSearchTotal {
		return MaxSearchTotal, false, err
	}
	return n, true, err
}

func facetTotal(d *datamarket.Dataset, p *pointer, qq query) (int64, bool) {
	if qq.search != "" {
		return 0, false
	}
	idx := map[string]int{}
	for i, f := range d.Facets {
		idx[f] = i
	}
	for col := range qq.filters {
		if _, ok := idx[col]; !ok {
			return 0, false
		}
	}
	var n int64
	for _, fc := range p.Facets {
		match := true
		for col, want := range qq.filters {
			if fmt.Sprint(fc.Values[idx[col]]) != fmt.Sprint(want) {
				match = false
				break
			}
		}
		if match {
			n += fc.Rows
		}
	}
	return n, true
}

func scanTarget(t datamarket.Type) any {
	switch t {
	case datamarket.Bool:
		return &stdsql.NullBool{}
	case datamarket.Int:
		return &stdsql.NullInt64{}
	case datamarket.Float:
		return &stdsql.NullFloat64{}
	case datamarket.Date:
		return &stdsql.NullTime{}
	case datamarket.JSON:
		return &[]byte{}
	}
	return &stdsql.NullString{}
}

// record writes a row as a JSON object: the visible columns in schema
// order, then _row, the row's number in the file it was imported from.
func record(cols []datamarket.Column, vals []any, rowNo int64) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(c.Name))
		b.WriteByte(':')
		writeValue(&b, vals[i])
	}
	fmt.Fprintf(&b, `,"_row":%d}`, rowNo)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case *stdsql.NullString:
		if !x.Valid {
			b.WriteString("null")
			return
		}
		raw, _ := json.Marshal(x.String)
		b.Write(raw)
	case *stdsql.NullBool:
		if !x.Valid {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.FormatBool(x.Bool))
	case *stdsql.NullInt64:
		if !x.Valid {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.FormatInt(x.Int64, 10))
	case *stdsql.NullFloat64:
		if !x.Valid {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.FormatFloat(x.Float64, 'g', -1, 64))
	case *stdsql.NullTime:
		if !x.Valid {
			b.WriteString("null")
			return
		}
		b.WriteString(`"` + x.Time.Format(time.DateOnly) + `"`)
	case *[]byte:
		if len(*x) == 0 {
			b.WriteString("null")
			return
		}
		b.Write(*x)
	}
}

// maxSearch is the longest search text; maxSearchWords its most words.
const (
	maxSearch      = 200
	maxSearchWords = 16
)

// searchQuery turns a search text into a tsquery of its words, every
// word required: a word matches whole words ("coffee" finds "Coffee
// Shop"), a word ending in * matches as a prefix ("coff*"), as in Lucene's
// query syntax (whole words keep the planner's estimates, and so the
// count, cheap). Words are letters and digits, joined inside a word by
// . - _ @ as PostgreSQL's parser reads hosts, e-mail addresses and
// hyphenated words ("acme.io"), so a word never needs escaping.
func searchQuery(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if len([]rune(s)) > maxSearch {
		return "", kernel.Invalid("search", fmt.Sprintf("max_length:%d", maxSearch), fmt.Sprintf("search has at most %d characters", maxSearch))
	}
	joiner := func(r rune) bool { return r == '.' || r == '-' || r == '_' || r == '@' }
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !joiner(r) && r != '*'
	}) {
		prefix := strings.HasSuffix(w, "*")
		w = strings.TrimFunc(strings.ReplaceAll(w, "*", ""), joiner)
		switch {
		case w == "":
		case prefix:
			words = append(words, "'"+w+"':*")
		default:
			words = append(words, "'"+w+"'")
		}
	}
	if len(words) > maxSearchWords {
		return "", kernel.Invalid("search", fmt.Sprintf("max_words:%d", maxSearchWords), fmt.Sprintf("search has at most %d words", maxSearchWords))
	}
	if len(words) == 0 {
		return "", kernel.Invalid("search", "words", "search needs at least one word (letters or digits)")
	}
	return strings.Join(words, " & "), nil
}
