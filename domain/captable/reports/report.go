package reports

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
)

// The report types.
const (
	TypeInvestorUpdate  = "INVESTOR_UPDATE"
	TypeCapTableSummary = "CAP_TABLE_SUMMARY"
	TypeEquityLedger    = "EQUITY_LEDGER"
	TypeTaxSummary      = "TAX_SUMMARY"
	TypeAuditReady      = "AUDIT_READY"
)

// Types lists the report types, in the order the API documents them.
var Types = []string{TypeInvestorUpdate, TypeCapTableSummary, TypeEquityLedger, TypeTaxSummary, TypeAuditReady}

// The kinds of a column's values. Every figure is an exact decimal string:
// number and money values are exact (money with at least two decimals),
// percent values are percentages rounded to four decimals, dates are
// YYYY-MM-DD, and ref values are event ids.
const (
	KindText    = "text"
	KindNumber  = "number"
	KindMoney   = "money"
	KindDate    = "date"
	KindPercent = "percent"
	KindRef     = "ref"
)

// Entry is one recorded event of a company's stream: its stream version,
// event id, type name, recording time and decoded event (a pointer such as
// *captable.GrantIssued).
type Entry struct {
	Version    int64
	EventID    string
	Type       string
	RecordedAt time.Time
	Event      kernel.Event
}

// Request asks for one report: its type, the as-of day (its UTC date is
// used) and the time the report is generated at.
type Request struct {
	Type        string
	AsOf        time.Time
	GeneratedAt time.Time
}

// Validate checks the request's type and as-of date.
func (r Request) Validate() error {
	if r.Type == "" {
		return kernel.Invalid("type", "required", "type is required (one of "+strings.Join(Types, ", ")+")")
	}
	if !ValidType(r.Type) {
		return kernel.Invalid("type", "one_of", "type must be one of "+strings.Join(Types, ", "))
	}
	if r.AsOf.IsZero() {
		return kernel.Invalid("asOfDate", "required", "asOfDate is required (YYYY-MM-DD)")
	}
	return nil
}

// ValidType reports whether t names a report type.
func ValidType(t string) bool {
	for _, v := range Types {
		if v == t {
			return true
		}
	}
	return false
}

// Report is a financial report: a title, the company, the as-of date and
// the stream version it is based on, and its sections in reading order.
type Report struct {
	Type           string       `json:"type"`
	Title          string       `json:"title"`
	CompanyID      string       `json:"companyId"`
	CompanyName    string       `json:"companyName"`
	AsOfDate       captable.Day `json:"asOfDate"`
	GeneratedAt    time.Time    `json:"generatedAt"`
	BasedOnVersion int64        `json:"basedOnVersion"`
	Sections       []Section    `json:"sections"`
}

// Section is one table of a report. Each row has one value per column, in
// column order; Totals, when present, is a row of the same shape.
type Section struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Columns []Column   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Totals  []string   `json:"totals,omitempty"`
	Notes   []string   `json:"notes,omitempty"`
}

// Column names a section's column: a stable key, a title for people and
// the kind of its values.
type Column struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	Kind  string `json:"kind"`
}

// Build folds the entries (in stream order) as of req.AsOf, with the same
// rule as captable.Replay (dated events after the day are skipped, undated
// reference data always applies), and builds the report req asks for.
func Build(entries []Entry, req Request) (Report, error) {
	if err := req.Validate(); err != nil {
		return Report{}, err
	}
	b := fold(entries, captable.DayOf(req.AsOf).Time)
	if !b.company.Exists() {
		return Report{}, kernel.NotFound("company not found")
	}
	r := Report{Type: req.Type, CompanyID: b.company.ID, CompanyName: b.company.Name,
		AsOfDate: captable.DayOf(b.asOf), GeneratedAt: req.GeneratedAt.UTC()}
	if n := len(entries); n > 0 {
		r.BasedOnVersion = entries[n-1].Version
	}
	switch req.Type {
	case TypeCapTableSummary:
		r.Title, r.Sections = "Cap Table Summary", summaryReport(b)
	case TypeEquityLedger:
		r.Title, r.Sections = "Equity Ledger", ledgerReport(b)
	case TypeTaxSummary:
		r.Title, r.Sections = "Tax Summary "+b.asOf.Format("2006"), taxReport(b)
	case TypeInvestorUpdate:
		r.Title, r.Sections = "Investor Update", investorReport(b)
	case TypeAuditReady:
		r.Title, r.Sections = "Audit-Ready Cap Table", auditReport(b)
	}
	return r, nil
}
