package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Report formats.
var reportFormats = []string{"json", "csv", "pdf"}

// CheckReportFormat refuses an unknown report format.
func CheckReportFormat(f string) error { return oneOf("format", f, reportFormats) }

// FinancialReport is a generated report's record: what was asked (type,
// format, as-of date), which events it is based on (the company stream up
// to BasedOnVersion), and the file in the blob store (SHA256).
type FinancialReport struct {
	ID             string    `json:"reportId"`
	Type           string    `json:"type"`
	Format         string    `json:"format"`
	AsOfDate       time.Time `json:"asOfDate"`
	BasedOnVersion int64     `json:"basedOnVersion"`
	ContentType    string    `json:"contentType"`
	Size           int64     `json:"size"`
	SHA256         string    `json:"sha256"`
	Filename       string    `json:"filename"`
	GeneratedBy    string    `json:"generatedBy"`
	At             time.Time `json:"at"`
}

// ReportGenerated records a generated financial report (reference data:
// not dated).
type ReportGenerated struct {
	FinancialReport
}

func (ReportGenerated) EventType() string { return "captable.report_generated" }

// RecordReport records a report generated from the company's stream up to
// r.BasedOnVersion. A report based on a version the company has moved past
// is still valid: it says which events it used.
func (c *Company) RecordReport(r FinancialReport) ([]kernel.Event, error) {
	if err := CheckReportFormat(r.Format); err != nil {
		return nil, err
	}
	if r.BasedOnVersion > c.Version {
		return nil, kernel.Invalid("basedOnVersion", "max", "a report cannot be based on events not recorded yet")
	}
	return []kernel.Event{&ReportGenerated{r}}, nil
}
