package briefing

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseFREDCSV reads FRED's CSV download format: a header naming the date
// column (observation_date, or DATE in older downloads) and one column per
// series (FRED's multi-series downloads have several), then one row per
// date, YYYY-MM-DD, with each series' value; FRED writes a missing value
// as ".", and those (and empty cells) are skipped. Each value is an
// observation of kind indicator from source fred, its series the column's
// header, its source id SERIES:YYYY-MM-DD, at the date's 00:00 UTC, in
// the file's order (row by row, column by column). An error names the
// line it is on.
func ParseFREDCSV(r io.Reader) ([]Observation, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("fred csv: empty file, no header")
	}
	if err != nil {
		return nil, fmt.Errorf("fred csv: %w", err)
	}
	first := strings.TrimSpace(strings.TrimPrefix(header[0], "\ufeff"))
	if !strings.EqualFold(first, "observation_date") && !strings.EqualFold(first, "DATE") {
		return nil, fmt.Errorf("fred csv line 1: first column is %q, want observation_date or DATE", first)
	}
	if len(header) < 2 {
		return nil, errors.New("fred csv line 1: no series column")
	}
	series := make([]string, len(header)-1)
	for i, h := range header[1:] {
		s := strings.TrimSpace(h)
		if s == "" {
			return nil, fmt.Errorf("fred csv line 1: column %d has no series name", i+2)
		}
		for _, prev := range series[:i] {
			if prev == s {
				return nil, fmt.Errorf("fred csv line 1: series %s appears twice", s)
			}
		}
		series[i] = s
	}
	var out []Observation
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("fred csv: %w", err) // a csv.ParseError names its line
		}
		line, _ := cr.FieldPos(0)
		ds := strings.TrimSpace(rec[0])
		date, err := time.Parse(time.DateOnly, ds)
		if err != nil {
			return nil, fmt.Errorf("fred csv line %d: date %q is not YYYY-MM-DD", line, rec[0])
		}
		for i, cell := range rec[1:] {
			cell = strings.TrimSpace(cell)
			if cell == "." || cell == "" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("fred csv line %d: %s value %q is not a number", line, series[i], cell)
			}
			out = append(out, Observation{Kind: KindIndicator, Source: "fred", SourceID: series[i] + ":" + ds,
				At: date, Series: series[i], Value: &v})
		}
	}
}
