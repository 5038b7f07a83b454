package hackathon

import "time"

// Statuses of a hackathon: DRAFT (the default; only its organisers see
// it), LIVE (people join, form teams, submit; judges score), COMPLETED
// (nothing changes any more).
const (
	StatusDraft     = "DRAFT"
	StatusLive      = "LIVE"
	StatusCompleted = "COMPLETED"
)

// Participant roles.
const (
	RoleBuilder = "builder"
	RoleJudge   = "judge"
	RoleMentor  = "mentor"
)

// Roles lists the participant roles.
func Roles() []string { return []string{RoleBuilder, RoleJudge, RoleMentor} }

// Details are a hackathon's own fields. StartDate and EndDate are UTC;
// MaxParticipants nil means no limit (it counts builders: judges, mentors
// and organisers are staff).
type Details struct {
	Name            string    `json:"name"`
	Description     string    `json:"description,omitempty"`
	StartDate       time.Time `json:"start_date"`
	EndDate         time.Time `json:"end_date"`
	Location        string    `json:"location,omitempty"`
	IsOnline        bool      `json:"is_online"`
	MaxParticipants *int      `json:"max_participants,omitempty"`
}

// Track is a theme submissions enter; Color is "#rrggbb" (lower case) or "".
type Track struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Color       string `json:"color,omitempty"`
}

// Prize is an award, optionally for one track. Amount is decimal text ("" when
// not set); Currency an ISO 4217 code (upper case), required with an amount.
type Prize struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Amount      string `json:"amount,omitempty"`
	Currency    string `json:"currency,omitempty"`
	TrackID     string `json:"track_id,omitempty"`
}

// Submission is a team's project.
type Submission struct {
	TeamID      string `json:"team_id"`
	ProjectName string `json:"project_name"`
	Description string `json:"description,omitempty"`
	TrackID     string `json:"track_id,omitempty"`
}

// File is a file attached to a submission, stored in the blob store under
// its SHA-256 (hex).
type File struct {
	FileID      string `json:"file_id"`
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// Criterion is one line of a rubric: a score between Min and Max (decimal
// text, at most two decimals) weighted by Weight (decimal text, positive,
// at most four decimals).
type Criterion struct {
	Key    string `json:"key"`
	Name   string `json:"name"`
	Weight string `json:"weight"`
	Min    string `json:"min"`
	Max    string `json:"max"`
}

// Rubric is a list of criteria and the tie-break ladder the leaderboard
// uses (see judging.DefaultLadder for the rung names).
type Rubric struct {
	Name     string      `json:"name"`
	Criteria []Criterion `json:"criteria"`
	TieBreak []string    `json:"tie_break"`
}

// TopCriterion returns the key of the rubric's highest-weighted criterion
// (the first of equal weights).
func (r Rubric) TopCriterion() string {
	best, key := "", ""
	for _, c := range r.Criteria {
		if key == "" || cmpDecimal(c.Weight, best) > 0 {
			best, key = c.Weight, c.Key
		}
	}
	return key
}
