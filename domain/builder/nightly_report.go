package builder

import (
	"fmt"
	"strings"
	"time"
)

// Modes of a nightly run.
const (
	NightlyOffline = "offline" // no model configured: the checks only
)

// Caps of what one report lists (a longer list says Truncated).
const (
	MaxReportItems    = 50
	MaxReportQuestion = 280 // characters of an open question quoted
)

// NightlyFound is the read phase's findings: read only, nothing changed.
type NightlyFound struct {
	Systems   []SystemCount  `json:"systems"`
	Artifacts ArtifactsFound `json:"artifacts"`
	Deploy    DeployFound    `json:"deploy"`
	Secrets   SecretsFound   `json:"secrets"`
	Ask       AskFound       `json:"ask"`
}

// SystemCount is one system card's counts, as the run read them.
type SystemCount struct {
	ID             string         `json:"id"`
	Kind           string         `json:"kind"`
	Counts         map[string]int `json:"counts"`
	LastActivityAt *time.Time     `json:"last_activity_at"`
}

// ArtifactsFound: the company's recorded artifacts, the latest of each
// view, and which are stale (generated before the company's current
// version, or more than StaleAfter ago). Recorded false: no artifact
// event exists for the company.
type ArtifactsFound struct {
	Recorded  bool           `json:"recorded"`
	Views     []ArtifactSeen `json:"views"`
	Stale     int            `json:"stale"`
	Truncated bool           `json:"truncated,omitempty"`
}

// StaleAfter is the age from which an artifact is stale anyway.
const StaleAfter = 30 * 24 * time.Hour

// ArtifactSeen is the latest artifact of one view.
type ArtifactSeen struct {
	View        string    `json:"view"`
	GeneratedAt time.Time `json:"generated_at"`
	Stale       bool      `json:"stale"`
	Reason      string    `json:"reason,omitempty"`
}

// DeployFound: the company's deploys as recorded (builder.app_deployed):
// the version that last took the traffic, whether it is the company's
// current version, and a later deploy that failed its health checks.
type DeployFound struct {
	HasVersion       bool           `json:"has_version"`
	CurrentVersionID string         `json:"current_version_id,omitempty"`
	Deployed         bool           `json:"deployed"`
	VersionID        string         `json:"version_id,omitempty"`
	DeployedAt       *time.Time     `json:"deployed_at,omitempty"`
	Current          bool           `json:"current"`
	LastFailure      *DeployFailure `json:"last_failure,omitempty"`
}

// DeployFailure is a deploy that did not take the traffic.
type DeployFailure struct {
	VersionID string    `json:"version_id"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
}

// SecretsFound: the environment variables the current version's files
// read (process.env.NAME, process.env["NAME"]), the names set as secrets,
// and the referenced names that are neither set nor provided by the
// runtime or the builder.
type SecretsFound struct {
	FilesScanned int      `json:"files_scanned"`
	Referenced   []string `json:"referenced"`
	Set          int      `json:"set"`
	Missing      []string `json:"missing"`
	Truncated    bool     `json:"truncated,omitempty"`
}

// AskFound: the company's Ask threads and the questions left open (no
// answer recorded, or an answer that computed nothing and came from no
// model). Recorded false: no Ask turn exists for the company.
type AskFound struct {
	Recorded  bool           `json:"recorded"`
	Threads   int            `json:"threads"`
	Questions int            `json:"questions"`
	Open      []OpenQuestion `json:"open"`
	Truncated bool           `json:"truncated,omitempty"`
}

// OpenQuestion is an open Ask question (quoted up to MaxReportQuestion).
type OpenQuestion struct {
	ChatID string    `json:"chat_id"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// Proposal is a safe output of a run: a task for the founder. A proposal
// whose action changes what runs or reaches outside (a redeploy, a secret
// write, a message) requires the founder's approval: the run never does
// it; Action names the route the founder uses.
type Proposal struct {
	ID               string `json:"id"`
	Kind             string `json:"kind"`
	Title            string `json:"title"`
	Detail           string `json:"detail"`
	RequiresApproval bool   `json:"requires_approval"`
	Action           string `json:"action"`
}

// Proposal kinds, in priority order.
const (
	ProposeFixDeploy      = "fix_deploy"
	ProposeSetSecret      = "set_secret"
	ProposeRedeploy       = "redeploy"
	ProposeRegenerate     = "regenerate_artifact"
	ProposeAnswerQuestion = "answer_question"
	ProposeConnectSystems = "connect_systems"
)

// NightlySpent is what a run used.
type NightlySpent struct {
	Tokens     int   `json:"tokens"`
	Proposals  int   `json:"proposals"`
	Drafts     int   `json:"drafts"`
	DurationMS int64 `json:"duration_ms"`
}

// CheckFailure is a check of the read phase that could not run; the
// others still ran.
type CheckFailure struct {
	Check string `json:"check"`
	Error string `json:"error"`
}

// Propose turns findings into proposals in priority order (a failed
// deploy, missing secrets, a deployed version behind the current one,
// stale artifacts, open questions, systems without any record), at most
// b.MaxProposals; dropped is how many more there were.
func Propose(f NightlyFound, b Budget) (out []Proposal, dropped int) {
	var all []Proposal
	add := func(kind, title, detail, action string, approval bool) {
		all = append(all, Proposal{Kind: kind, Title: title, Detail: detail, Action: action, RequiresApproval: approval})
	}
	d := f.Deploy
	if d.LastFailure != nil {
		add(ProposeFixDeploy, "Fix the app so its version passes its health checks",
			fmt.Sprintf("version %s did not take the traffic: %s", d.LastFailure.VersionID, d.LastFailure.Reason), "POST /api/build/redeploy", true)
	}
	for _, name := range f.Secrets.Missing {
		add(ProposeSetSecret, "Set the secret "+name, "the app reads process.env."+name+" and no secret of that name is set",
			"POST /api/build/secrets", true)
	}
	switch {
	case d.HasVersion && !d.Deployed:
		add(ProposeRedeploy, "Deploy the current version", "version "+d.CurrentVersionID+" has never been deployed", "POST /api/build/redeploy", true)
	case d.HasVersion && !d.Current:
		add(ProposeRedeploy, "Redeploy the current version",
			fmt.Sprintf("version %s serves, the current version is %s", d.VersionID, d.CurrentVersionID), "POST /api/build/redeploy", true)
	}
	for _, a := range f.Artifacts.Views {
		if a.Stale {
			add(ProposeRegenerate, "Regenerate the "+a.View+" artifact", a.Reason, "POST /api/build/artifact", false)
		}
	}
	for _, q := range f.Ask.Open {
		add(ProposeAnswerQuestion, "Answer an open question", q.Text, "POST /api/build/ask", false)
	}
	if len(f.Systems) > 0 && noRecords(f.Systems) {
		add(ProposeConnectSystems, "Connect the app to its business systems",
			"no system has a record yet: the app posts them with its STRATA_SYSTEMS_KEY", "POST /api/build/systems/records", false)
	}
	if len(all) > b.MaxProposals {
		dropped = len(all) - b.MaxProposals
		all = all[:b.MaxProposals]
	}
	for i := range all {
		all[i].ID = fmt.Sprintf("p%d", i+1)
	}
	if all == nil {
		all = []Proposal{}
	}
	return all, dropped
}

func noRecords(s []SystemCount) bool {
	for _, c := range s {
		if c.Counts["total"]+c.Counts[RecordDeleted] > 0 {
			return false
		}
	}
	return true
}

// Quote shortens s to MaxReportQuestion characters.
func Quote(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > MaxReportQuestion {
		return string(r[:MaxReportQuestion-1]) + "…"
	}
	return s
}
