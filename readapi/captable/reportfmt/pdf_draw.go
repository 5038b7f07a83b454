package reportfmt

import "github.com/strata-platform/strata/domain/captable/reports"

// rowKind says how a table row is drawn.
type rowKind int

const (
	headerRow rowKind = iota // column titles: bold, filled, left-aligned
	bodyRow                  // figures right-aligned
	totalRow                 // like a body row, bold and filled
)

// table draws a section's header, rows and totals, breaking pages as
// needed and repeating the header on each new page.
func (d *doc) table(s reports.Section, t tableLayout) {
	head := titles(s.Columns)
	d.row(s.Columns, head, t.widths, headerRow, t.headerH)
	for _, r := range s.Rows {
		h := d.rowHeight(s.Columns, r, t.widths, "")
		if d.pdf.GetY()+h > d.bottom() {
			d.newPage(d.orientation)
			d.sectionTitle(s.Title + " (continued)")
			d.row(s.Columns, head, t.widths, headerRow, t.headerH)
		}
		d.row(s.Columns, r, t.widths, bodyRow, h)
	}
	if s.Totals != nil {
		h := d.rowHeight(s.Columns, s.Totals, t.widths, "B")
		if d.pdf.GetY()+h > d.bottom() {
			d.newPage(d.orientation)
			d.sectionTitle(s.Title + " (continued)")
			d.row(s.Columns, head, t.widths, headerRow, t.headerH)
		}
		d.row(s.Columns, s.Totals, t.widths, totalRow, h)
	}
}

// row draws one row of height h with a thin rule beneath it.
func (d *doc) row(cols []reports.Column, cells []string, w []float64, kind rowKind, h float64) {
	p := d.pdf
	x, y := float64(margin), p.GetY()
	total := 0.0
	for _, cw := range w {
		total += cw
	}
	style := ""
	if kind != bodyRow {
		style = "B"
		p.SetFillColor(236, 236, 236)
		p.Rect(x, y, total, h, "F")
	}
	p.SetFont(font, style, tableSize)
	for i, c := range cols {
		v, align := "", "L"
		if i < len(cells) {
			v = cells[i]
		}
		if kind != headerRow {
			v = display(c.Kind, v)
			if numeric(c.Kind) {
				align = "R"
			}
		}
		for j, l := range d.wrap(d.tr(v), w[i]-2*pad) {
			p.SetXY(x+pad, y+pad+float64(j)*lineH)
			p.CellFormat(w[i]-2*pad, lineH, l, "", 0, align, false, 0, "")
		}
		x += w[i]
	}
	p.SetDrawColor(200, 200, 200)
	p.SetLineWidth(0.15)
	p.Line(margin, y+h, margin+total, y+h)
	p.SetXY(margin, y+h)
}
