package reportfmt

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/strata-platform/strata/domain/captable/reports"
	"github.com/strata-platform/strata/domain/kernel"
)

// The formats a report renders to.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
	FormatPDF  = "pdf"
)

// Formats lists the formats, in the order the API documents them.
var Formats = []string{FormatJSON, FormatCSV, FormatPDF}

// The content types of the formats.
const (
	ContentTypeJSON = "application/json"
	ContentTypeCSV  = "text/csv; charset=utf-8"
	ContentTypePDF  = "application/pdf"
)

// ValidFormat reports whether format names a format (case and surrounding
// spaces aside).
func ValidFormat(format string) bool {
	f := strings.ToLower(strings.TrimSpace(format))
	return f == FormatJSON || f == FormatCSV || f == FormatPDF
}

// Render renders a report in format ("json", "csv" or "pdf", case aside)
// and returns the body, its content type and the file extension to name it
// with ("json", "csv", "pdf"). The same report always renders to the same
// bytes. An unknown format is a kernel invalid error on field "format".
func Render(r reports.Report, format string) (body []byte, contentType string, ext string, err error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case FormatJSON:
		body, err = renderJSON(r)
		return body, ContentTypeJSON, FormatJSON, err
	case FormatCSV:
		body, err = renderCSV(r)
		return body, ContentTypeCSV, FormatCSV, err
	case FormatPDF:
		body, err = renderPDF(r)
		return body, ContentTypePDF, FormatPDF, err
	}
	return nil, "", "", kernel.Invalid("format", "one_of",
		"format must be one of "+strings.Join(Formats, ", "))
}

// renderJSON writes the report as indented JSON with a final newline.
func renderJSON(r reports.Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
