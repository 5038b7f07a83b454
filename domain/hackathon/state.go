package hackathon

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Hackathon is a hackathon folded from its stream.
type Hackathon struct {
	ID         string
	Details    Details
	Status     string
	CreatedBy  string
	CreatedAt  time.Time
	Organizers map[string]bool
	Version    int64 // the stream version folded so far

	Tracks       map[string]Track
	Prizes       map[string]Prize
	Participants map[string]map[string]bool // user -> roles
	Joined       map[string]time.Time       // user -> when they first joined
	Builders     int                        // users holding the builder role
	Invitations  map[string]JudgeInvited    // token hash -> invitation
	Accepted     map[string]bool            // invitation ids used
	Teams        map[string]*Team
	TeamOf       map[string]string // builder -> team
	Submissions  map[string]*SubmissionState
	Rubrics      map[string]Rubric
	ActiveRubric string
	Scores       map[ScoreKey]ScoreRecorded // the latest revision
	Recusals     map[ScoreKey]bool
	Pairs        *Pairwise // pairwise judging, nil until a judge starts
}

// Team is a team folded from its events.
type Team struct {
	Name        string
	Description string
	CreatedBy   string
	CreatedAt   time.Time
	Members     map[string]string // user -> builder|mentor
	Former      map[string]bool   // users who left the team (still a conflict of interest)
	Submission  string            // its live submission, if any
}

// SubmissionState is a live submission.
type SubmissionState struct {
	Submission
	SubmittedAt time.Time
	By          string
	Files       []File
}

// ScoreKey identifies a judge's score of a submission.
type ScoreKey struct{ SubmissionID, JudgeID string }

// Exists reports whether the hackathon was created.
func (h *Hackathon) Exists() bool { return h.ID != "" }

// JudgingStarted reports whether any score was recorded: the active
// rubric, its criteria and its tie-break ladder are then fixed.
func (h *Hackathon) JudgingStarted() bool { return len(h.Scores) > 0 }

// IsOrganizer reports whether user organises the hackathon.
func (h *Hackathon) IsOrganizer(user string) bool { return h.Organizers[user] }

// HasRole reports whether user joined with role.
func (h *Hackathon) HasRole(user, role string) bool { return h.Participants[user][role] }

// Apply folds one event into the hackathon.
func (h *Hackathon) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *HackathonCreated:
		h.init(ev)
	case *HackathonUpdated:
		h.Details = ev.Details
	case *StatusChanged:
		h.Status = ev.To
	case *OrganizerAdded:
		h.Organizers[ev.UserID] = true
	case *OrganizerRemoved:
		delete(h.Organizers, ev.UserID)
	case *TrackSaved:
		h.Tracks[ev.TrackID] = ev.Track
	case *TrackDeleted:
		delete(h.Tracks, ev.TrackID)
	case *PrizeSaved:
		h.Prizes[ev.PrizeID] = ev.Prize
	case *PrizeDeleted:
		delete(h.Prizes, ev.PrizeID)
	case *ParticipantJoined:
		h.join(ev)
	case *JudgeInvited:
		h.Invitations[ev.TokenHash] = *ev
	default:
		h.applyTeamsAndJudging(e)
	}
}

func (h *Hackathon) init(ev *HackathonCreated) {
	*h = Hackathon{ID: ev.HackathonID, Details: ev.Details, Status: StatusDraft, CreatedBy: ev.CreatedBy,
		CreatedAt: ev.At, Organizers: map[string]bool{ev.CreatedBy: true}, Version: h.Version,
		Tracks: map[string]Track{}, Prizes: map[string]Prize{}, Participants: map[string]map[string]bool{}, Joined: map[string]time.Time{},
		Invitations: map[string]JudgeInvited{}, Accepted: map[string]bool{}, Teams: map[string]*Team{},
		TeamOf: map[string]string{}, Submissions: map[string]*SubmissionState{}, Rubrics: map[string]Rubric{},
		Scores: map[ScoreKey]ScoreRecorded{}, Recusals: map[ScoreKey]bool{}}
}

func (h *Hackathon) join(ev *ParticipantJoined) {
	roles := h.Participants[ev.UserID]
	if roles == nil {
		roles = map[string]bool{}
		h.Participants[ev.UserID] = roles
		h.Joined[ev.UserID] = ev.At
	}
	if ev.Role == RoleBuilder && !roles[RoleBuilder] {
		h.Builders++
	}
	roles[ev.Role] = true
	if ev.InvitationID != "" {
		h.Accepted[ev.InvitationID] = true
	}
}

func (h *Hackathon) applyTeamsAndJudging(e kernel.Event) {
	switch ev := e.(type) {
	case *TeamSaved:
		if ev.Created {
			h.Teams[ev.TeamID] = &Team{Name: ev.Name, Description: ev.Description, CreatedBy: ev.By, CreatedAt: ev.At, Members: map[string]string{}, Former: map[string]bool{}}
		} else if t := h.Teams[ev.TeamID]; t != nil {
			t.Name, t.Description = ev.Name, ev.Description
		}
	case *TeamDeleted:
		if t := h.Teams[ev.TeamID]; t != nil {
			for u, role := range t.Members {
				if role == RoleBuilder {
					delete(h.TeamOf, u)
				}
			}
		}
		delete(h.Teams, ev.TeamID)
	case *TeamMemberAdded:
		if t := h.Teams[ev.TeamID]; t != nil {
			t.Members[ev.UserID] = ev.Role
			if ev.Role == RoleBuilder {
				h.TeamOf[ev.UserID] = ev.TeamID
			}
		}
	case *TeamMemberRemoved:
		if t := h.Teams[ev.TeamID]; t != nil {
			if t.Members[ev.UserID] == RoleBuilder {
				delete(h.TeamOf, ev.UserID)
			}
			delete(t.Members, ev.UserID)
			t.Former[ev.UserID] = true
		}
	default:
		h.applySubmissionsAndJudging(e)
	}
}

func (h *Hackathon) applySubmissionsAndJudging(e kernel.Event) {
	switch ev := e.(type) {
	case *SubmissionSaved:
		if ev.Created {
			h.Submissions[ev.SubmissionID] = &SubmissionState{Submission: ev.Submission, SubmittedAt: ev.At, By: ev.By}
			if t := h.Teams[ev.Submission.TeamID]; t != nil {
				t.Submission = ev.SubmissionID
			}
		} else if s := h.Submissions[ev.SubmissionID]; s != nil {
			s.Submission = ev.Submission
		}
	case *SubmissionDeleted:
		if s := h.Submissions[ev.SubmissionID]; s != nil {
			if t := h.Teams[s.TeamID]; t != nil && t.Submission == ev.SubmissionID {
				t.Submission = ""
			}
		}
		delete(h.Submissions, ev.SubmissionID)
	case *SubmissionFileAttached:
		if s := h.Submissions[ev.SubmissionID]; s != nil {
			s.Files = append(s.Files, ev.File)
		}
	case *RubricSaved:
		h.Rubrics[ev.RubricID] = ev.Rubric
	case *RubricActivated:
		h.ActiveRubric = ev.RubricID
	case *RubricDeleted:
		delete(h.Rubrics, ev.RubricID)
	case *ScoreRecorded:
		h.Scores[ScoreKey{ev.SubmissionID, ev.JudgeID}] = *ev
	case *JudgeRecused:
		h.Recusals[ScoreKey{ev.SubmissionID, ev.JudgeID}] = true
	case *PairShown, *PairVoted:
		h.applyPairwise(e)
	}
}
