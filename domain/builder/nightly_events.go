package builder

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamNightly is the stream type of one company's nightly loop: its
// enrollments and the reports of its runs. Its stream id comes from
// NightlyStream.
const StreamNightly = "builder.nightly"

// NightlyStream is the stream id of company companyID's nightly loop.
func NightlyStream(companyID string) string { return "builder-nightly:" + companyID }

// Triggers of a nightly run.
const (
	NightlyScheduled = "scheduled" // the night's run, one per company and night
	NightlyManual    = "manual"    // strata builder nightly, on demand
)

// NightlyEnrolled: the founder enrolled the company in the nightly loop,
// or changed its enrollment (Updated), with its window, time zone and
// budget.
type NightlyEnrolled struct {
	CompanyID   string    `json:"company_id"`
	CompanyName string    `json:"company_name"`
	Track       string    `json:"track"`
	Goal        string    `json:"goal,omitempty"`
	TimeZone    string    `json:"time_zone"`
	Window      Window    `json:"window"`
	Budget      Budget    `json:"budget"`
	FounderID   string    `json:"founder_id"`
	Updated     bool      `json:"updated"`
	At          time.Time `json:"at"`
}

// NightlyReported: a nightly run ended; what it found (the read phase),
// proposed (safe outputs, capped by the budget), spent and failed.
// Mode is "offline" when no model is configured: only the checks ran.
type NightlyReported struct {
	ReportID   string         `json:"report_id"`
	CompanyID  string         `json:"company_id"`
	Night      string         `json:"night"`
	Trigger    string         `json:"trigger"`
	Mode       string         `json:"mode"`
	Budget     Budget         `json:"budget"`
	Found      NightlyFound   `json:"found"`
	Proposed   []Proposal     `json:"proposed"`
	Dropped    int            `json:"dropped"`
	Spent      NightlySpent   `json:"spent"`
	Failed     []CheckFailure `json:"failed"`
	Notes      []string       `json:"notes"`
	StartedAt  time.Time      `json:"started_at"`
	FinishedAt time.Time      `json:"finished_at"`
}

// EventType implementations.
func (NightlyEnrolled) EventType() string { return "builder.nightly_enrolled" }
func (NightlyReported) EventType() string { return "builder.nightly_reported" }

// NightlyEvents returns a constructor for every nightly event (schema
// version 1).
func NightlyEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &NightlyEnrolled{} },
		func() kernel.Event { return &NightlyReported{} },
	}
}

// Nightly is a company's nightly loop folded from its stream.
type Nightly struct {
	Version    int64
	Enrollment *NightlyEnrolled // nil: never enrolled
	Reports    []NightlyReported
	nights     map[string]bool // nights with a scheduled run's report
}

// Apply folds one event of the stream at version v.
func (n *Nightly) Apply(e kernel.Event, v int64) {
	n.Version = v
	switch e := e.(type) {
	case *NightlyEnrolled:
		n.Enrollment = e
	case *NightlyReported:
		n.Reports = append(n.Reports, *e)
		if e.Trigger == NightlyScheduled {
			if n.nights == nil {
				n.nights = map[string]bool{}
			}
			n.nights[e.Night] = true
		}
	}
}

// Reported reports whether the scheduled run of night has its report.
func (n *Nightly) Reported(night string) bool { return n.nights[night] }
