package audit

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the audit context.
const (
	// StreamReport is one stored full audit; id "audit-report:<report id>".
	StreamReport = "audit.report"
	// StreamLead is one lead; id "audit-lead:<lead id>".
	StreamLead = "audit.lead"
)

// ReportStream and LeadStream name the streams.
func ReportStream(id string) string { return "audit-report:" + id }
func LeadStream(id string) string   { return "audit-lead:" + id }

// ReportStored is a full audit's result, findings and fixes included.
type ReportStored struct {
	ReportID string    `json:"report_id"`
	Industry string    `json:"industry"`
	Host     string    `json:"host"`
	Scan     Scan      `json:"scan"`
	Requests int       `json:"requests"` // requests the scan made
	At       time.Time `json:"at"`
}

// ReportUnlocked records that someone gave their address to read a
// report's findings: a lead. Email is sealed (personal data).
type ReportUnlocked struct {
	ReportID string        `json:"report_id"`
	LeadID   string        `json:"lead_id"`
	Email    kernel.Sealed `json:"email"`
	At       time.Time     `json:"at"`
}

// LeadCaptured is a lead from the audit's lead form. Email is sealed.
type LeadCaptured struct {
	LeadID           string        `json:"lead_id"`
	URL              string        `json:"url"`
	Email            kernel.Sealed `json:"email"`
	Score            *int          `json:"score,omitempty"`
	FindingsCount    *int          `json:"findings_count,omitempty"`
	DimensionsFailed []string      `json:"dimensions_failed"`
	PackageInterest  string        `json:"package_interest,omitempty"`
	UTMSource        string        `json:"utm_source,omitempty"`
	UTMMedium        string        `json:"utm_medium,omitempty"`
	UTMCampaign      string        `json:"utm_campaign,omitempty"`
	ReportID         string        `json:"report_id,omitempty"`
	At               time.Time     `json:"at"`
}

func (ReportStored) EventType() string   { return "audit.report_stored" }
func (ReportUnlocked) EventType() string { return "audit.report_unlocked" }
func (LeadCaptured) EventType() string   { return "audit.lead_captured" }

// Events lists the audit context's event constructors.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &ReportStored{} },
		func() kernel.Event { return &ReportUnlocked{} },
		func() kernel.Event { return &LeadCaptured{} },
		func() kernel.Event { return &CrawlRequested{} },
		func() kernel.Event { return &CrawlStarted{} },
		func() kernel.Event { return &CrawlPageScored{} },
		func() kernel.Event { return &CrawlCancelRequested{} },
		func() kernel.Event { return &CrawlFinished{} },
	}
}
