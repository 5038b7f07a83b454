package audit

import "time"

// RubricVersion names the rubric (checks, sub-points, points, agents
// list, grade cut-offs). Any change to them changes it.
const RubricVersion = "1"

// Check names, in the order of the seed's table, and their maxima.
const (
	CheckLLMsTxt    = "llms_txt"
	CheckOpenAPI    = "openapi"
	CheckRobots     = "robots_ai_permissions"
	CheckStructured = "structured_data"
	CheckAuth       = "api_authentication"
	CheckFormat     = "response_format"
	CheckErrors     = "agent_friendly_errors"
)

// Finding is one sub-point of a check: what was looked for, the points it
// is worth and those it earned, the evidence (what was seen, with the URL)
// and, when it earned less than its worth, how to fix it. Info findings
// are worth nothing and only inform (blocking training crawlers).
type Finding struct {
	ID       string `json:"id"` // stable: "llms_txt.h1_first"
	Title    string `json:"title"`
	Points   int    `json:"points"`
	Earned   int    `json:"earned"`
	Passed   bool   `json:"passed"`
	Evidence string `json:"evidence"`
	Fix      string `json:"fix,omitempty"`
	Info     bool   `json:"info,omitempty"`
}

// CheckResult is one of the seven checks as the seed shapes it (name,
// passed, score, max_score, details) plus its findings.
type CheckResult struct {
	Name     string    `json:"name"`
	Passed   bool      `json:"passed"` // score >= 70% of max_score (documented)
	Score    int       `json:"score"`
	MaxScore int       `json:"max_score"`
	Details  string    `json:"details"` // one sentence summary
	Findings []Finding `json:"findings"`
}

// Scan is a scored snapshot.
type Scan struct {
	URL           string        `json:"url"`
	Score         int           `json:"score"`
	MaxScore      int           `json:"max_score"` // 100
	Grade         string        `json:"grade"`
	ScannedAt     time.Time     `json:"scanned_at"`
	RubricVersion string        `json:"rubric_version"`
	Checks        []CheckResult `json:"checks"`
}
