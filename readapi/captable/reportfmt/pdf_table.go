package reportfmt

import (
	"strings"

	"github.com/strata-platform/strata/domain/captable/reports"
)

// tableLayout is a section's column widths and the height of its header
// row and of its first row.
type tableLayout struct {
	widths                 []float64
	headerH, firstH, bodyH float64 // bodyH: every row and the totals
}

// numeric reports whether a column's values are figures, right-aligned.
func numeric(kind string) bool {
	return kind == reports.KindNumber || kind == reports.KindMoney || kind == reports.KindPercent
}

// display is a cell as printed: figures get thousands separators
// ("9000000" prints "9,000,000"); the digits are the exact string's.
func display(kind, v string) string {
	if kind != reports.KindNumber && kind != reports.KindMoney {
		return v
	}
	sign, digits := "", v
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	whole, frac, hasFrac := strings.Cut(digits, ".")
	if whole == "" || strings.Trim(whole, "0123456789") != "" {
		return v
	}
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// natural is each column's width with no wrapping, capped at maxColumn;
// a header is measured by its longest word, since headers wrap.
func (d *doc) natural(s reports.Section) []float64 {
	w := d.unwrapped(s)
	for i := range w {
		w[i] = min(w[i], maxColumn)
	}
	return w
}

// unwrapped is each column's width with no wrapping and no cap.
func (d *doc) unwrapped(s reports.Section) []float64 {
	p := d.pdf
	w := make([]float64, len(s.Columns))
	for i, c := range s.Columns {
		p.SetFont(font, "B", tableSize)
		for _, word := range strings.Fields(d.tr(c.Title)) {
			w[i] = max(w[i], p.GetStringWidth(word))
		}
		p.SetFont(font, "", tableSize)
		for _, row := range append(append([][]string(nil), s.Rows...), s.Totals) {
			if i < len(row) {
				w[i] = max(w[i], p.GetStringWidth(d.tr(display(c.Kind, row[i]))))
			}
		}
		w[i] += 2*pad + 0.5
	}
	return w
}

// orientationFor is "L" when a section's natural width exceeds a portrait
// page, else "P".
func (d *doc) orientationFor(s reports.Section) string {
	total := 0.0
	for _, w := range d.natural(s) {
		total += w
	}
	if total > a4.Wd-2*margin {
		return "L"
	}
	return "P"
}

// layout fits a section's columns to the page: figures, dates and event
// ids keep their natural width and text columns share the rest; when even
// that is too wide every column shrinks in proportion (cells wrap).
func (d *doc) layout(s reports.Section) tableLayout {
	w := d.natural(s)
	total, fixed, flexible := 0.0, 0.0, 0.0
	for i, c := range s.Columns {
		total += w[i]
		if c.Kind == reports.KindText {
			flexible += w[i]
		} else {
			fixed += w[i]
		}
	}
	room := d.width()
	if total < room {
		// Give capped text columns (long descriptions) the room left.
		full := d.unwrapped(s)
		for i, c := range s.Columns {
			if c.Kind == reports.KindText && full[i] > w[i] {
				grow := min(full[i]-w[i], room-total)
				w[i], total = w[i]+grow, total+grow
			}
		}
	}
	if total > room {
		if flexible > 0 && fixed+flexible*0.25 < room {
			scale := (room - fixed) / flexible
			for i, c := range s.Columns {
				if c.Kind == reports.KindText {
					w[i] *= scale
				}
			}
		} else {
			for i := range w {
				w[i] *= room / total
			}
		}
	}
	t := tableLayout{widths: w}
	t.headerH = d.rowHeight(s.Columns, titles(s.Columns), w, "B")
	for i, r := range s.Rows {
		h := d.rowHeight(s.Columns, r, w, "")
		if i == 0 {
			t.firstH = h
		}
		t.bodyH += h
	}
	if s.Totals != nil {
		t.bodyH += d.rowHeight(s.Columns, s.Totals, w, "B")
	}
	return t
}

// titles returns the columns' titles as a row.
func titles(cols []reports.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Title
	}
	return out
}

// rowHeight is the height of a row once its cells are wrapped.
func (d *doc) rowHeight(cols []reports.Column, row []string, w []float64, style string) float64 {
	d.pdf.SetFont(font, style, tableSize)
	lines := 1
	for i := range cols {
		if i < len(row) {
			lines = max(lines, len(d.wrap(d.tr(display(cols[i].Kind, row[i])), w[i]-2*pad)))
		}
	}
	return float64(lines)*lineH + 2*pad
}

// wrap splits a translated (code page 1252, one byte a character) text
// into lines no wider than w, at spaces, and inside a word too long to fit.
func (d *doc) wrap(s string, w float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			if cand := strings.TrimPrefix(line+" "+word, " "); d.pdf.GetStringWidth(cand) <= w {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			for len(word) > 1 && d.pdf.GetStringWidth(word) > w {
				n := 1
				for n < len(word)-1 && d.pdf.GetStringWidth(word[:n+1]) <= w {
					n++
				}
				lines = append(lines, word[:n])
				word = word[n:]
			}
			line = word
		}
		lines = append(lines, line)
	}
	return lines
}
