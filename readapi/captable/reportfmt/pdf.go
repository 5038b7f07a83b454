package reportfmt

import (
	"bytes"
	"strconv"

	"github.com/go-pdf/fpdf"

	"github.com/strata-platform/strata/domain/captable/reports"
)

// Page layout in millimetres (A4). Geometry is the only place floats
// appear: every figure is printed from its exact decimal string.
const (
	margin       = 12.0
	footerGap    = 8.0 // kept free above the bottom margin for the footer
	lineH        = 3.4 // a table text line at tableSize
	pad          = 1.0 // cell padding
	maxColumn    = 70.0
	keepTogether = 90.0 // a section shorter than this is not split across pages
	tableSize    = 7.5  // points
	font         = "Helvetica"
)

var a4 = fpdf.SizeType{Wd: 210, Ht: 297}

// doc is a PDF being written: the document, its text translator (UTF-8 to
// the core fonts' code page 1252) and the orientation of the current page.
type doc struct {
	pdf         *fpdf.Fpdf
	tr          func(string) string
	orientation string // "P" or "L"
}

// renderPDF lays the report out: a title block, then each section as a
// table (headers repeated after a page break), its totals and notes. A
// section too wide for a portrait page starts a landscape one. Every page
// carries the company, the title and "Page n of N". The creation date is
// the report's generation time and resources are written in a fixed order,
// so the same report always gives the same bytes.
func renderPDF(r reports.Report) ([]byte, error) {
	p := fpdf.New("P", "mm", "A4", "")
	stamp := r.GeneratedAt.UTC()
	if stamp.IsZero() {
		stamp = r.AsOfDate.Time
	}
	p.SetCreationDate(stamp)
	p.SetModificationDate(stamp)
	p.SetCatalogSort(true)
	p.SetCompression(true)
	p.SetProducer("Strata", true)
	p.SetCreator("Strata", true)
	p.SetTitle(r.Title+" - "+r.CompanyName, true)
	p.SetAuthor(r.CompanyName, true)
	p.SetSubject("As of "+r.AsOfDate.String(), true)
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin)
	p.AliasNbPages("{nb}")
	d := &doc{pdf: p, tr: p.UnicodeTranslatorFromDescriptor("")}
	p.SetFooterFunc(func() {
		p.SetY(-margin)
		p.SetFont(font, "", 7)
		p.SetTextColor(110, 110, 110)
		p.CellFormat(0, 4, d.tr(r.CompanyName+" - "+r.Title+" - as of "+r.AsOfDate.String()+" - Page "+
			strconv.Itoa(p.PageNo())+" of {nb}"), "", 0, "C", false, 0, "")
		p.SetTextColor(0, 0, 0)
	})
	first := "P"
	if len(r.Sections) > 0 {
		first = d.orientationFor(r.Sections[0])
	}
	d.newPage(first)
	d.titleBlock(r)
	for _, s := range r.Sections {
		d.section(s)
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// newPage starts a page in orientation ("P" or "L").
func (d *doc) newPage(orientation string) {
	d.orientation = orientation
	d.pdf.AddPageFormat(orientation, a4)
	d.pdf.SetXY(margin, margin)
}

// width is the usable width of the current page.
func (d *doc) width() float64 {
	w, _ := d.pdf.GetPageSize()
	return w - 2*margin
}

// bottom is the lowest y a line may reach on the current page.
func (d *doc) bottom() float64 {
	_, h := d.pdf.GetPageSize()
	return h - margin - footerGap
}

// titleBlock writes the report's title, company and dates.
func (d *doc) titleBlock(r reports.Report) {
	p := d.pdf
	p.SetFont(font, "B", 18)
	p.CellFormat(0, 9, d.tr(r.Title), "", 1, "L", false, 0, "")
	p.SetFont(font, "", 12)
	p.CellFormat(0, 6, d.tr(r.CompanyName), "", 1, "L", false, 0, "")
	p.SetFont(font, "", 8.5)
	p.SetTextColor(90, 90, 90)
	meta := "As of " + r.AsOfDate.String() + "   Generated " + r.GeneratedAt.UTC().Format("2006-01-02 15:04 MST") +
		"   Based on stream version " + strconv.FormatInt(r.BasedOnVersion, 10)
	p.CellFormat(0, 5, d.tr(meta), "", 1, "L", false, 0, "")
	p.SetTextColor(0, 0, 0)
	p.Ln(4)
}

// section writes a section's title, table, totals and notes, on a new
// page when its orientation differs or too little room is left.
func (d *doc) section(s reports.Section) {
	p := d.pdf
	t := d.layout(s)
	whole := 8 + t.headerH + t.bodyH + 3.2*float64(len(s.Notes))
	o := d.orientationFor(s)
	if o != d.orientation || p.GetY()+8+t.headerH+t.firstH > d.bottom() ||
		(whole <= keepTogether && p.GetY()+whole > d.bottom()) {
		d.newPage(o)
		t = d.layout(s)
	}
	d.sectionTitle(s.Title)
	if len(s.Rows) == 0 {
		p.SetFont(font, "I", tableSize)
		p.CellFormat(0, 5, "Nothing to report as of this date.", "", 1, "L", false, 0, "")
	} else {
		d.table(s, t)
	}
	d.notes(s.Notes)
	p.Ln(5)
}

// sectionTitle writes a section's title.
func (d *doc) sectionTitle(title string) {
	d.pdf.SetFont(font, "B", 10.5)
	d.pdf.SetX(margin)
	d.pdf.CellFormat(0, 7, d.tr(title), "", 1, "L", false, 0, "")
}

// notes writes a section's notes in small italics, wrapped to the page.
func (d *doc) notes(notes []string) {
	p := d.pdf
	p.SetFont(font, "I", 7)
	p.SetTextColor(80, 80, 80)
	for _, n := range notes {
		for _, l := range d.wrap(d.tr(n), d.width()) {
			if p.GetY()+3.2 > d.bottom() {
				d.newPage(d.orientation)
				p.SetFont(font, "I", 7)
			}
			p.SetX(margin)
			p.CellFormat(0, 3.2, l, "", 1, "L", false, 0, "")
		}
	}
	p.SetTextColor(0, 0, 0)
}
