package builder

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamDeploys is the stream type of a company's deploys (stream id
// DeploysStream(companyID)): kept apart from the chat's stream so that a
// deploy never races a generation's appends.
const StreamDeploys = "builder.deploys"

// DeploysStream is the stream id of the deploys of company id.
func DeploysStream(id string) string { return "builder-deploys:" + id }

// Deploy triggers.
const (
	TriggerPreview  = "preview"  // the preview's first request for a version
	TriggerRedeploy = "redeploy" // POST /api/build/redeploy
)

// AppDeployed: a version of the company's app was started and
// health-checked; Switched says whether it took the traffic (else the
// previous one kept serving, and Reason says why).
type AppDeployed struct {
	CompanyID  string `json:"company_id"`
	VersionID  string `json:"version_id"`
	Previous   string `json:"previous,omitempty"`
	Switched   bool   `json:"switched"`
	Reason     string `json:"reason,omitempty"`
	Probes     int    `json:"probes"`
	DurationMS int64  `json:"duration_ms"`
	Trigger    string `json:"trigger"`
	FounderID  string `json:"founder_id,omitempty"`
	// SecretsReadAt is when the deploy read the company's secrets: a
	// change after it is not in this version's environment.
	SecretsReadAt time.Time `json:"secrets_read_at"`
	At            time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (AppDeployed) EventType() string { return "builder.app_deployed" }

// DeployEvents returns a constructor for every deploy event (schema
// version 1).
func DeployEvents() []func() kernel.Event {
	return []func() kernel.Event{func() kernel.Event { return &AppDeployed{} }}
}
