package datamarket

import (
	"fmt"
	"sort"
	"strings"
)

// Dataset is one importable dataset: its schema, how it is searched,
// filtered and counted, and when it is refreshed.
type Dataset struct {
	// Key names the dataset in the CLI, events and metadata
	// ("smb-directory"); Path is its route under the public base.
	Key, Path   string
	Title       string
	Description string
	Keywords    []string
	// Spatial is the DCAT-US spatial coverage.
	Spatial string
	Columns []Column
	// Search lists the columns of the full-text search.
	Search []string
	// Filters are the query parameters that narrow a page.
	Filters []Filter
	// Facets are the columns a version's rows are counted by at load,
	// so a filtered page's total is read, not counted per request.
	Facets []string
	// Indexes are the row table's indexes beyond the row number.
	Indexes []Index
	// Unique names a column whose values may appear once per version.
	Unique string
	// Envelope is the list's member in a page: "data" or "records".
	Envelope string
	// Refresh is the scheduled refresh (cron in Pacific time) and
	// Periodicity its ISO 8601 repeating duration (DCAT-US).
	Refresh, Periodicity string
	// Public datasets are served under /api/v1/public/data; reference
	// datasets (cloud ranges) only feed enrichment.
	Public bool
	// Derive fills the derived columns of a row from the others.
	Derive func(r Row)
}

// Filter is a query parameter narrowing a page to rows whose Column
// equals a value: one of Values (an enum), any text (Values empty), or
// true only (Flag: "tech_only=true" keeps rows whose column is true).
type Filter struct {
	Param, Column string
	Values        []string
	Flag          bool
}

// Index is an index of a version's row table: its columns (row_no last
// for stable paging) and an optional partial condition, a boolean column
// being true (Where). Hash indexes (Using "hash") serve equality lookups
// of one column, without row_no.
type Index struct {
	Columns []string
	Where   string
	Using   string
}

// RefreshZone is the zone of every dataset's refresh schedule.
const RefreshZone = "America/Los_Angeles"

// Row is a row's values in the dataset's column order.
type Row []any

// Col returns the index of the named column, or -1.
func (d *Dataset) Col(name string) int {
	for i, c := range d.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Visible are the columns a record shows.
func (d *Dataset) Visible() []Column {
	out := make([]Column, 0, len(d.Columns))
	for _, c := range d.Columns {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// Mapping says which column of a file feeds which dataset column.
type Mapping struct {
	// From[i] is the file column feeding dataset column i, or -1.
	From []int
	// Ignored are file columns the dataset has no column for.
	Ignored []string
}

// Map matches a file's header to the dataset's columns (names compared
// case-insensitively, spaces and dashes read as underscores). A required
// column (unless derived) that is missing refuses the whole file; a
// column given twice too; unknown columns are reported and left out.
func (d *Dataset) Map(header []string) (Mapping, error) {
	m := Mapping{From: make([]int, len(d.Columns))}
	for i := range m.From {
		m.From[i] = -1
	}
	for j, h := range header {
		name := headerName(h)
		i := d.Col(name)
		if i < 0 || d.Columns[i].Derived && d.Columns[i].Hidden {
			m.Ignored = append(m.Ignored, strings.TrimSpace(h))
			continue
		}
		if m.From[i] >= 0 {
			return m, fmt.Errorf("column %q appears twice in the header", name)
		}
		m.From[i] = j
	}
	var missing []string
	for i, c := range d.Columns {
		if c.Required && !c.Derived && m.From[i] < 0 {
			missing = append(missing, c.Name)
		}
	}
	if len(missing) > 0 {
		return m, fmt.Errorf("the header lacks required column(s) %s (dataset %s has %s)",
			strings.Join(missing, ", "), d.Key, strings.Join(d.columnNames(), ", "))
	}
	sort.Strings(m.Ignored)
	return m, nil
}

func (d *Dataset) columnNames() []string {
	var out []string
	for _, c := range d.Columns {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}

func headerName(h string) string {
	h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(h)
}

// Convert validates one file row (its cells in file order) into a Row:
// every cell parsed by its column, then Derive, then the required
// columns checked. The first broken rule is the row's error.
func (d *Dataset) Convert(m Mapping, cells []string, rowNo int64) (Row, *RowError) {
	row := make(Row, len(d.Columns))
	if err := d.ConvertInto(row, m, cells, rowNo); err != nil {
		return nil, err
	}
	return row, nil
}

// ConvertInto is Convert into row (len(d.Columns) values), for a caller
// that lays rows out in a slab of its own.
func (d *Dataset) ConvertInto(row Row, m Mapping, cells []string, rowNo int64) *RowError {
	for i, c := range d.Columns {
		if c.Derived && c.Hidden {
			continue
		}
		raw := ""
		if j := m.From[i]; j >= 0 && j < len(cells) {
			raw = cells[j]
		}
		req := c.Required
		if c.Derived {
			c.Required = false // Derive may fill it; checked below
		}
		v, rule, msg := c.parse(raw)
		if rule != "" {
			return &RowError{Row: rowNo, Field: c.Name, Rule: rule, Message: msg}
		}
		c.Required = req
		row[i] = v
	}
	if d.Derive != nil {
		d.Derive(row)
	}
	for i, c := range d.Columns {
		if c.Required && row[i] == nil {
			msg := c.Name + " is required"
			if c.Derived {
				msg = c.Name + " is required and could not be derived: " + c.Description
			}
			return &RowError{Row: rowNo, Field: c.Name, Rule: "required", Message: msg}
		}
	}
	return nil
}
