// Package datamarket is the data marketplace's domain: the datasets an
// operator imports (their schemas, filters and refresh schedules), a
// dataset's versions as events (staged, validated, published or rejected,
// retracted, purged), row validation with a per-row error report, the
// reference data packages carry (NAICS) and the explainable lead score.
// Rows themselves are never events: they are bulk-loaded into versioned
// storage by commands/datamarket.
package datamarket

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Type is the type of a column's values.
type Type string

// Column types and the PostgreSQL types they are stored as.
const (
	Text  Type = "text"
	Bool  Type = "boolean"
	Int   Type = "integer"
	Float Type = "number"
	Date  Type = "date"
	JSON  Type = "json"
)

// SQLType is the PostgreSQL type a column of t is stored as.
func (t Type) SQLType() string {
	switch t {
	case Bool:
		return "boolean"
	case Int:
		return "bigint"
	case Float:
		return "double precision"
	case Date:
		return "date"
	case JSON:
		return "jsonb"
	}
	return "text"
}

// Column is one field of a dataset's records.
type Column struct {
	Name        string
	Type        Type
	Description string
	// Required: an empty value is a row error (after Derive ran).
	Required bool
	// MaxLen is the longest text value in characters (0: 500).
	MaxLen int
	// Enum lists the values allowed (compared after Normalize).
	Enum []string
	// Min and Max bound numbers (both zero: unbounded).
	Min, Max float64
	// Normalize rewrites a text value before it is checked (trim is
	// always done): upper-casing a state code, lower-casing a domain.
	Normalize func(string) string
	// Check is a further rule on a non-empty text value: it returns the
	// rule's name and a message when the value breaks it.
	Check func(string) (rule, message string)
	// Default is the value of an empty cell (before Required is checked).
	Default string
	// Derived columns are computed by the dataset's Derive, never read
	// from a file; Hidden ones are kept for lookups and never returned.
	Derived, Hidden bool
}

// defaultMaxLen is a text column's length limit when it sets none.
const defaultMaxLen = 500

// RowError is one row's reason for being left out of a version: the
// row's number in the file (1 is the first data row), the field and the
// rule it broke.
type RowError struct {
	Row     int64  `json:"row"`
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// parse converts a cell's text to the column's value: nil for an empty
// optional cell. It reports the rule broken and a message.
func (c Column) parse(raw string) (any, string, string) {
	s := strings.TrimSpace(raw)
	if !utf8.ValidString(s) {
		return nil, "utf8", "text must be valid UTF-8"
	}
	if strings.IndexByte(s, 0) >= 0 {
		return nil, "no_nul", "text may not contain the NUL character (U+0000)"
	}
	if c.Normalize != nil && s != "" {
		s = c.Normalize(s)
	}
	if s == "" {
		s = c.Default
	}
	if s == "" {
		if c.Required {
			return nil, "required", c.Name + " is required"
		}
		return nil, "", ""
	}
	switch c.Type {
	case Bool:
		b, ok := parseBool(s)
		if !ok {
			return nil, "boolean", fmt.Sprintf("%s must be true or false (also 1/0, yes/no, t/f), got %q", c.Name, clip(s))
		}
		return b, "", ""
	case Int:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, "integer", fmt.Sprintf("%s must be a whole number, got %q", c.Name, clip(s))
		}
		if rule, msg := c.bounds(float64(n)); rule != "" {
			return nil, rule, msg
		}
		return n, "", ""
	case Float:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f != f || f > 1e300 || f < -1e300 {
			return nil, "number", fmt.Sprintf("%s must be a finite number, got %q", c.Name, clip(s))
		}
		if rule, msg := c.bounds(f); rule != "" {
			return nil, rule, msg
		}
		return f, "", ""
	case Date:
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, "date", fmt.Sprintf("%s must be a date YYYY-MM-DD, got %q", c.Name, clip(s))
		}
		return d, "", ""
	case JSON:
		if !json.Valid([]byte(s)) || (s[0] != '{' && s[0] != '[') {
			return nil, "json", c.Name + " must be a JSON object or array"
		}
		return json.RawMessage(s), "", ""
	}
	max := c.MaxLen
	if max == 0 {
		max = defaultMaxLen
	}
	if n := utf8.RuneCountInString(s); n > max {
		return nil, "max_length", fmt.Sprintf("%s has %d characters; at most %d", c.Name, n, max)
	}
	if len(c.Enum) > 0 && !contains(c.Enum, s) {
		return nil, "enum", fmt.Sprintf("%s must be one of %s, got %q", c.Name, strings.Join(c.Enum, ", "), clip(s))
	}
	if c.Check != nil {
		if rule, msg := c.Check(s); rule != "" {
			return nil, rule, msg
		}
	}
	return s, "", ""
}

func (c Column) bounds(f float64) (string, string) {
	if c.Min == 0 && c.Max == 0 {
		return "", ""
	}
	if f < c.Min || f > c.Max {
		return "range", fmt.Sprintf("%s must be between %g and %g, got %g", c.Name, c.Min, c.Max, f)
	}
	return "", ""
}

// parseBool reads the boolean spellings data files use.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "1", "yes", "y":
		return true, true
	case "false", "f", "0", "no", "n":
		return false, true
	}
	return false, false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:60]) + "…"
}
