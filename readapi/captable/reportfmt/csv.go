package reportfmt

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable/reports"
)

// The record kinds of the CSV layout (its second cell).
const (
	recordTitle  = "title"
	recordHeader = "header"
	recordRow    = "row"
	recordTotal  = "total"
	recordNote   = "note"
)

// renderCSV writes the report as one CSV: the "report" section first, then
// every section, each record led by the section id and the record kind.
func renderCSV(r reports.Report) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	write := func(section, kind string, cells ...string) {
		_ = w.Write(append([]string{section, kind}, cells...)) // errors surface in w.Error
	}
	write("report", recordTitle, safe(r.Title))
	write("report", recordHeader, "Item", "Value")
	for _, kv := range [][2]string{
		{"Type", r.Type},
		{"Title", safe(r.Title)},
		{"Company", safe(r.CompanyName)},
		{"Company id", safe(r.CompanyID)},
		{"As-of date", r.AsOfDate.String()},
		{"Generated at", r.GeneratedAt.UTC().Format(time.RFC3339)},
		{"Based on stream version", strconv.FormatInt(r.BasedOnVersion, 10)},
	} {
		write("report", recordRow, kv[0], kv[1])
	}
	for _, s := range r.Sections {
		write(s.ID, recordTitle, safe(s.Title))
		titles := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			titles[i] = safe(c.Title)
		}
		write(s.ID, recordHeader, titles...)
		for _, row := range s.Rows {
			write(s.ID, recordRow, cells(s.Columns, row)...)
		}
		if s.Totals != nil {
			write(s.ID, recordTotal, cells(s.Columns, s.Totals)...)
		}
		for _, n := range s.Notes {
			write(s.ID, recordNote, safe(n))
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// cells guards the text cells of a row against formula injection; figures
// (numbers, money, percentages, dates) are written as they are.
func cells(cols []reports.Column, row []string) []string {
	out := make([]string, len(row))
	for i, v := range row {
		if i < len(cols) && (cols[i].Kind == reports.KindText || cols[i].Kind == reports.KindRef) {
			v = safe(v)
		}
		out[i] = v
	}
	return out
}

// safe prefixes with an apostrophe a text that a spreadsheet would read as
// a formula (one starting with =, +, -, @, a tab or a carriage return).
func safe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}
