// Package hackathon is the hackathon domain: a hackathon with its tracks,
// prizes, participants, teams, submissions, rubrics and scores.
//
// Everything about one hackathon is one stream, so every rule that spans
// its parts (max_participants, one team per builder, one live submission
// per team, no score by a judge who belongs to or mentors the team, the
// rubric and its tie-break ladder frozen once judging starts, what each
// status refuses) is decided on one fold under one optimistic version
// check: exact under concurrency, and replaying the stream gives back the
// state every decision was made on.
package hackathon

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamHackathon is the stream type of a hackathon; stream id = its id.
const StreamHackathon = "hackathon.hackathon"

// HackathonCreated opens a hackathon's stream in status DRAFT; the creator
// is its first organiser.
type HackathonCreated struct {
	HackathonID string    `json:"hackathon_id"`
	Details     Details   `json:"details"`
	CreatedBy   string    `json:"created_by"`
	At          time.Time `json:"at"`
}

// HackathonUpdated records the details after a partial update; Changed
// names the fields that changed.
type HackathonUpdated struct {
	Details Details   `json:"details"`
	Changed []string  `json:"changed"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// StatusChanged moves the hackathon DRAFT -> LIVE -> COMPLETED.
type StatusChanged struct {
	From string    `json:"from"`
	To   string    `json:"to"`
	By   string    `json:"by"`
	At   time.Time `json:"at"`
}

// OrganizerAdded makes a user a co-organiser; OrganizerRemoved undoes it
// (never for the creator).
type OrganizerAdded struct {
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// OrganizerRemoved ends a co-organiser's role.
type OrganizerRemoved struct {
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// TrackSaved creates a track (Created) or records its fields after a
// partial update (Changed names them).
type TrackSaved struct {
	TrackID string    `json:"track_id"`
	Track   Track     `json:"track"`
	Created bool      `json:"created"`
	Changed []string  `json:"changed,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// TrackDeleted removes a track.
type TrackDeleted struct {
	TrackID string    `json:"track_id"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// PrizeSaved creates a prize (Created) or records its fields after a
// partial update.
type PrizeSaved struct {
	PrizeID string    `json:"prize_id"`
	Prize   Prize     `json:"prize"`
	Created bool      `json:"created"`
	Changed []string  `json:"changed,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// PrizeDeleted removes a prize.
type PrizeDeleted struct {
	PrizeID string    `json:"prize_id"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// ParticipantJoined gives a user a role in the hackathon (a user may hold
// several roles; each is joined once). InvitationID is the judge
// invitation it accepted, if any.
type ParticipantJoined struct {
	UserID       string    `json:"user_id"`
	Role         string    `json:"role"`
	InvitationID string    `json:"invitation_id,omitempty"`
	At           time.Time `json:"at"`
}

// JudgeInvited records an invitation mailed to Email (lower case); the
// invitee joins as judge with the token whose SHA-256 is TokenHash.
type JudgeInvited struct {
	InvitationID string    `json:"invitation_id"`
	Email        string    `json:"email"`
	TokenHash    string    `json:"token_hash"`
	ExpiresAt    time.Time `json:"expires_at"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// TeamSaved creates a team (Created) or records its fields after a partial
// update.
type TeamSaved struct {
	TeamID      string    `json:"team_id"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Created     bool      `json:"created"`
	Changed     []string  `json:"changed,omitempty"`
	By          string    `json:"by"`
	At          time.Time `json:"at"`
}

// TeamDeleted removes a team and ends its members' membership.
type TeamDeleted struct {
	TeamID string    `json:"team_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// TeamMemberAdded puts a user in a team as a builder (at most one team per
// hackathon) or a mentor (any number of teams).
type TeamMemberAdded struct {
	TeamID string    `json:"team_id"`
	UserID string    `json:"user_id"`
	Role   string    `json:"role"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// TeamMemberRemoved takes a user out of a team.
type TeamMemberRemoved struct {
	TeamID string    `json:"team_id"`
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// SubmissionSaved creates a submission (Created; At is then its
// submitted_at) or records its fields after a partial update.
type SubmissionSaved struct {
	SubmissionID string     `json:"submission_id"`
	Submission   Submission `json:"submission"`
	Created      bool       `json:"created"`
	Changed      []string   `json:"changed,omitempty"`
	By           string     `json:"by"`
	At           time.Time  `json:"at"`
}

// SubmissionDeleted withdraws a submission.
type SubmissionDeleted struct {
	SubmissionID string    `json:"submission_id"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// SubmissionFileAttached records a file stored in the blob store under its
// SHA-256.
type SubmissionFileAttached struct {
	SubmissionID string    `json:"submission_id"`
	File         File      `json:"file"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// RubricSaved creates a rubric (Created) or records it after a partial
// update.
type RubricSaved struct {
	RubricID string    `json:"rubric_id"`
	Rubric   Rubric    `json:"rubric"`
	Created  bool      `json:"created"`
	Changed  []string  `json:"changed,omitempty"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// RubricActivated makes a rubric the active one (the previous one stops
// being active).
type RubricActivated struct {
	RubricID string    `json:"rubric_id"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// RubricDeleted removes a rubric that is not active.
type RubricDeleted struct {
	RubricID string    `json:"rubric_id"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// ScoreRecorded is a judge's score of a submission against the active
// rubric. A revision is a new event with Revision one higher; the earlier
// ones stay in the history. Total is the exact weighted total (decimal
// text); Scores maps each criterion key to its decimal text.
type ScoreRecorded struct {
	SubmissionID string            `json:"submission_id"`
	JudgeID      string            `json:"judge_id"`
	RubricID     string            `json:"rubric_id"`
	Scores       map[string]string `json:"scores"`
	Total        string            `json:"total"`
	Feedback     string            `json:"feedback,omitempty"`
	Revision     int               `json:"revision"`
	By           string            `json:"by"`
	At           time.Time         `json:"at"`
}

// JudgeRecused records that a judge stepped back from a submission (a
// conflict the teams do not show); the judge is not assigned to it and may
// not score it.
type JudgeRecused struct {
	SubmissionID string    `json:"submission_id"`
	JudgeID      string    `json:"judge_id"`
	Reason       string    `json:"reason"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// EventType implementations: stable names, never derived from Go names.
func (HackathonCreated) EventType() string       { return "hackathon.created" }
func (HackathonUpdated) EventType() string       { return "hackathon.updated" }
func (StatusChanged) EventType() string          { return "hackathon.status_changed" }
func (OrganizerAdded) EventType() string         { return "hackathon.organizer_added" }
func (OrganizerRemoved) EventType() string       { return "hackathon.organizer_removed" }
func (TrackSaved) EventType() string             { return "hackathon.track_saved" }
func (TrackDeleted) EventType() string           { return "hackathon.track_deleted" }
func (PrizeSaved) EventType() string             { return "hackathon.prize_saved" }
func (PrizeDeleted) EventType() string           { return "hackathon.prize_deleted" }
func (ParticipantJoined) EventType() string      { return "hackathon.participant_joined" }
func (JudgeInvited) EventType() string           { return "hackathon.judge_invited" }
func (TeamSaved) EventType() string              { return "hackathon.team_saved" }
func (TeamDeleted) EventType() string            { return "hackathon.team_deleted" }
func (TeamMemberAdded) EventType() string        { return "hackathon.team_member_added" }
func (TeamMemberRemoved) EventType() string      { return "hackathon.team_member_removed" }
func (SubmissionSaved) EventType() string        { return "hackathon.submission_saved" }
func (SubmissionDeleted) EventType() string      { return "hackathon.submission_deleted" }
func (SubmissionFileAttached) EventType() string { return "hackathon.submission_file_attached" }
func (RubricSaved) EventType() string            { return "hackathon.rubric_saved" }
func (RubricActivated) EventType() string        { return "hackathon.rubric_activated" }
func (RubricDeleted) EventType() string          { return "hackathon.rubric_deleted" }
func (ScoreRecorded) EventType() string          { return "hackathon.score_recorded" }
func (JudgeRecused) EventType() string           { return "hackathon.judge_recused" }

// Events lists the constructors of every hackathon event, for registration.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &HackathonCreated{} },
		func() kernel.Event { return &HackathonUpdated{} },
		func() kernel.Event { return &StatusChanged{} },
		func() kernel.Event { return &OrganizerAdded{} },
		func() kernel.Event { return &OrganizerRemoved{} },
		func() kernel.Event { return &TrackSaved{} },
		func() kernel.Event { return &TrackDeleted{} },
		func() kernel.Event { return &PrizeSaved{} },
		func() kernel.Event { return &PrizeDeleted{} },
		func() kernel.Event { return &ParticipantJoined{} },
		func() kernel.Event { return &JudgeInvited{} },
		func() kernel.Event { return &TeamSaved{} },
		func() kernel.Event { return &TeamDeleted{} },
		func() kernel.Event { return &TeamMemberAdded{} },
		func() kernel.Event { return &TeamMemberRemoved{} },
		func() kernel.Event { return &SubmissionSaved{} },
		func() kernel.Event { return &SubmissionDeleted{} },
		func() kernel.Event { return &SubmissionFileAttached{} },
		func() kernel.Event { return &RubricSaved{} },
		func() kernel.Event { return &RubricActivated{} },
		func() kernel.Event { return &RubricDeleted{} },
		func() kernel.Event { return &ScoreRecorded{} },
		func() kernel.Event { return &JudgeRecused{} },
		func() kernel.Event { return &PairShown{} },
		func() kernel.Event { return &PairVoted{} },
	}
}
