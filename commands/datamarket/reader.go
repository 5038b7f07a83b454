package datamarket

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// cellReader yields a file's rows as text cells in the order of its
// header. A row's own problem (an NDJSON line that is not an object) is
// a rowProblem; any other error ends the file.
type cellReader interface {
	Header() []string
	Next() ([]string, error)
}

// rowProblem is one row the reader could not turn into cells; the import
// reports it and goes on.
type rowProblem struct{ field, rule, msg string }

func (p *rowProblem) Error() string { return p.msg }

// csvReader reads RFC 4180 CSV with a header line.
type csvReader struct {
	r      *csv.Reader
	header []string
}

func newCSVReader(r io.Reader) (*csvReader, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = 0 // every row as wide as the header
	h, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty: a CSV file starts with a header line")
		}
		return nil, fmt.Errorf("header: %w", err)
	}
	return &csvReader{r: cr, header: append([]string(nil), h...)}, nil
}

func (c *csvReader) Header() []string { return c.header }

func (c *csvReader) Next() ([]string, error) {
	rec, err := c.r.Read()
	var pe *csv.ParseError
	if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
		return nil, &rowProblem{field: "row", rule: "field_count",
			msg: fmt.Sprintf("line %d has %d fields; the header has %d", pe.Line, len(rec), len(c.header))}
	}
	return rec, err
}

// ndjsonReader reads one JSON object a line; its header is the dataset's
// columns plus every other member name seen (reported as ignored).
type ndjsonReader struct {
	sc     *bufio.Scanner
	header []string
	index  map[string]int
	extra  map[string]bool
	cells  []string
}

// maxLine is the longest NDJSON line read.
const maxLine = 1 << 20

func newNDJSONReader(r io.Reader, columns []string) *ndjsonReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	n := &ndjsonReader{sc: sc, header: columns, index: map[string]int{}, extra: map[string]bool{}}
	for i, c := range columns {
		n.index[c] = i
	}
	n.cells = make([]string, len(columns))
	return n
}

func (n *ndjsonReader) Header() []string { return n.header }

// Extra lists member names outside the dataset's columns.
func (n *ndjsonReader) Extra() []string {
	out := make([]string, 0, len(n.extra))
	for k := range n.extra {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (n *ndjsonReader) Next() ([]string, error) {
	for {
		if !n.sc.Scan() {
			if err := n.sc.Err(); err != nil {
				if errors.Is(err, bufio.ErrTooLong) {
					return nil, fmt.Errorf("a line is longer than %d bytes", maxLine)
				}
				return nil, err
			}
			return nil, io.EOF
		}
		line := bytes.TrimSpace(n.sc.Bytes())
		if len(line) == 0 {
			continue // blank lines separate nothing
		}
		return n.decode(line)
	}
}

func (n *ndjsonReader) decode(line []byte) ([]string, error) {
	for i := range n.cells {
		n.cells[i] = ""
	}
	var obj map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&obj); err != nil || obj == nil {
		return nil, &rowProblem{field: "row", rule: "json_object", msg: "the line is not a JSON object"}
	}
	for k, raw := range obj {
		i, ok := n.index[k]
		if !ok {
			n.extra[k] = true
			continue
		}
		v, err := cellText(raw)
		if err != nil {
			return nil, &rowProblem{field: k, rule: "scalar", msg: k + " " + err.Error()}
		}
		n.cells[i] = v
	}
	return n.cells, nil
}

// cellText is a JSON value as a cell: strings as they are, numbers as
// written, booleans as true/false, null as empty; objects and arrays are
// kept as JSON text (only json columns take them).
func cellText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", errors.New("is not a valid JSON string")
		}
		return s, nil
	case 'n':
		return "", nil
	case 't', 'f':
		b, err := strconv.ParseBool(string(raw))
		if err != nil {
			return "", errors.New("is not a valid JSON value")
		}
		return strconv.FormatBool(b), nil
	}
	return string(raw), nil
}
