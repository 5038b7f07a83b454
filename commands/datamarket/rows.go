package datamarket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/strata-platform/strata/domain/datamarket"
)

// batchRows is how many rows move between the pipeline's stages at once.
const batchRows = 512

// rowReader reads a file's rows and checks them against the schema in a
// small pipeline: one goroutine reads cells (in file order, numbering the
// rows), checkers convert them (several at once, as many as the cores,
// unless the dataset has a unique column, whose first occurrence must
// win: then one), and the valid rows go out in batches, row_no first.
// Rows that break the schema are left out and reported. out is closed
// when every row is through; err is then set if the file ended badly.
type rowReader struct {
	d    *datamarket.Dataset
	m    datamarket.Mapping
	r    cellReader
	res  *loadResult
	keep func(datamarket.RowError)
	out  chan []datamarket.Row
	err  error

	mu   sync.Mutex       // guards res and keep across checkers
	seen map[string]int64 // unique column value -> row (one checker)
}

func newRowReader(d *datamarket.Dataset, m datamarket.Mapping, r cellReader, res *loadResult, keep func(datamarket.RowError)) *rowReader {
	rd := &rowReader{d: d, m: m, r: r, res: res, keep: keep, out: make(chan []datamarket.Row, 8)}
	if d.Unique != "" {
		rd.seen = map[string]int64{}
	}
	return rd
}

// cellBatch is read rows on their way to a checker.
type cellBatch struct {
	first int64 // the first row's number
	cells [][]string
	probs []*rowProblem // a row the reader could not split, or nil
}

func (rd *rowReader) run(ctx context.Context) {
	defer close(rd.out)
	in := make(chan cellBatch, 4)
	checkers := max(1, runtime.GOMAXPROCS(0))
	if rd.seen != nil {
		checkers = 1
	}
	var wg sync.WaitGroup
	parts := make([]*checked, checkers)
	for i := range parts {
		parts[i] = &checked{facets: map[string]*datamarket.FacetCount{}}
		wg.Add(1)
		go func() { defer wg.Done(); rd.check(ctx, in, parts[i]) }()
	}
	rd.err = rd.read(ctx, in)
	close(in)
	wg.Wait()
	rd.merge(parts)
}

// read splits the file into numbered rows of cells.
func (rd *rowReader) read(ctx context.Context, in chan<- cellBatch) error {
	var rowNo int64
	b := cellBatch{first: 1}
	flush := func() error {
		if len(b.cells) == 0 {
			return nil
		}
		select {
		case in <- b:
			b = cellBatch{first: rowNo + 1}
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		cells, err := rd.r.Next()
		if errors.Is(err, io.EOF) {
			return flush()
		}
		rowNo++
		var rp *rowProblem
		switch {
		case errors.As(err, &rp):
			b.cells, b.probs = append(b.cells, nil), append(b.probs, rp)
		case err != nil:
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return &problem{reason: fmt.Sprintf("row %d: %v", rowNo, err)}
		default:
			b.cells, b.probs = append(b.cells, append([]string(nil), cells...)), append(b.probs, nil)
		}
		if len(b.cells) == batchRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

// checked is one checker's tally, merged when the file is through.
type checked struct {
	read, loaded, invalid int64
	errors                []datamarket.RowError // its first MaxReportedErrors, in row order
	facets                map[string]*datamarket.FacetCount
}

// check converts batches of cells into batches of rows.
func (rd *rowReader) check(ctx context.Context, in <-chan cellBatch, c *checked) {
	width := len(rd.d.Columns) + 1 // row_no first
	for b := range in {
		slab := make([]any, width*len(b.cells))
		rows := make([]datamarket.Row, 0, len(b.cells))
		for i, cells := range b.cells {
			rowNo := b.first + int64(i)
			c.read++
			if p := b.probs[i]; p != nil {
				rd.reject(c, datamarket.RowError{Row: rowNo, Field: p.field, Rule: p.rule, Message: p.msg})
				continue
			}
			full := datamarket.Row(slab[:width:width])
			if rerr := rd.d.ConvertInto(full[1:], rd.m, cells, rowNo); rerr != nil {
				clear(full)
				rd.reject(c, *rerr)
				continue
			}
			if rd.seen != nil && !rd.unique(c, full[1:], rowNo) {
				clear(full)
				continue
			}
			c.count(rd.d, full[1:])
			c.loaded++
			full[0], slab = rowNo, slab[width:]
			rows = append(rows, full)
		}
		if len(rows) == 0 {
			continue
		}
		select {
		case rd.out <- rows:
		case <-ctx.Done():
			for range in { // let the reader finish
			}
			return
		}
	}
}

func (rd *rowReader) reject(c *checked, e datamarket.RowError) {
	c.invalid++
	if len(c.errors) < datamarket.MaxReportedErrors {
		c.errors = append(c.errors, e)
	}
	if rd.keep != nil {
		rd.mu.Lock()
		rd.keep(e)
		rd.mu.Unlock()
	}
}

func (rd *rowReader) unique(c *checked, row datamarket.Row, rowNo int64) bool {
	v, _ := row[rd.d.Col(rd.d.Unique)].(string)
	if first, dup := rd.seen[v]; dup {
		rd.reject(c, datamarket.RowError{Row: rowNo, Field: rd.d.Unique, Rule: "unique",
			Message: fmt.Sprintf("%s %q was already given in row %d", rd.d.Unique, v, first)})
		return false
	}
	rd.seen[v] = rowNo
	return true
}

// count adds a row to its facet combination's count.
func (c *checked) count(d *datamarket.Dataset, row datamarket.Row) {
	var key strings.Builder
	for _, f := range d.Facets {
		switch v := row[d.Col(f)].(type) {
		case string:
			key.WriteString(v)
		case bool:
			key.WriteString(strconv.FormatBool(v))
		case nil:
			key.WriteString("\x01")
		default:
			fmt.Fprint(&key, v)
		}
		key.WriteByte(0)
	}
	fc := c.facets[key.String()]
	if fc == nil {
		vals := make([]any, len(d.Facets))
		for i, f := range d.Facets {
			vals[i] = row[d.Col(f)]
		}
		fc = &datamarket.FacetCount{Values: vals}
		c.facets[key.String()] = fc
	}
	fc.Rows++
}

// merge adds the checkers' tallies to the result: counts, facets, and the
// first row errors in row order.
func (rd *rowReader) merge(parts []*checked) {
	res := rd.res
	for _, c := range parts {
		res.read += c.read
		res.loaded += c.loaded
		res.invalid += c.invalid
		res.errors = append(res.errors, c.errors...)
		for k, fc := range c.facets {
			if have := res.facets[k]; have != nil {
				have.Rows += fc.Rows
			} else {
				res.facets[k] = fc
			}
		}
	}
	sort.Slice(res.errors, func(i, j int) bool { return res.errors[i].Row < res.errors[j].Row })
	if len(res.errors) > datamarket.MaxReportedErrors {
		res.errors = res.errors[:datamarket.MaxReportedErrors]
	}
}
