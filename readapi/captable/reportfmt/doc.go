// Package reportfmt renders a cap-table financial report (reports.Report)
// as JSON, CSV or PDF. Rendering is deterministic: the same report always
// gives the same bytes, so a stored report's digest can be checked later.
//
// JSON is the Report itself, indented, with a final newline.
//
// CSV is one file that spreadsheets import cleanly. Every record starts
// with two cells, the section id and the record kind:
//
//	report,title,Cap Table Summary
//	report,header,Item,Value
//	report,row,Company,"Acme, Inc."
//	...
//	classes,title,Share classes
//	classes,header,Share class,Type,Authorized,Issued,...
//	classes,row,Common,COMMON,10000000,9010000,...
//	classes,total,Total,,,10322500,...
//	classes,note,Available is unissued authorized stock ...
//
// The first section, "report", gives the report's type, title, company,
// company id, as-of date, generation time (RFC 3339, UTC) and the stream
// version it is based on. Then each section follows with a title record,
// a header record (the column titles), its row records, an optional total
// record and its note records. Filtering the first column on a section id
// and the second on "row" leaves a clean table. Figures are exact decimal
// strings with a dot and no thousands separators; dates are YYYY-MM-DD.
// Text cells that a spreadsheet would run as a formula (starting with =,
// +, -, @, a tab or a carriage return) are prefixed with an apostrophe;
// figures, negative ones included, are written as they are.
//
// PDF (A4, via github.com/go-pdf/fpdf) opens with the title, company,
// as-of date, generation time and stream version, then draws each section
// as a table: a filled header row (repeated after a page break, under the
// section title marked "(continued)"), figures right-aligned with
// thousands separators, a bold totals row and the notes in small italics.
// A section too wide for a portrait page starts a landscape page; a short
// section is not split across pages. Every page's footer names the
// company, the report and the as-of date, with "Page n of N". The PDF's
// creation and modification dates are the report's generation time and
// its resources are written in a fixed order, so the output is
// reproducible. Text uses the core Helvetica font (code page 1252):
// characters outside it print as ".".
package reportfmt
