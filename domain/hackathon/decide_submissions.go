package hackathon

import (
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// MaxFilesPerSubmission bounds the files attached to one submission.
const MaxFilesPerSubmission = 20

// SubmissionNotFound is the error for a submission the hackathon does not
// have.
func SubmissionNotFound(id string) error {
	return kernel.NotFound("submission " + id + " not found in this hackathon")
}

func (h *Hackathon) checkTrack(id string) error {
	if _, ok := h.Tracks[id]; id != "" && !ok {
		return kernel.Invalid("track_id", "exists", "track_id "+id+" is not a track of this hackathon")
	}
	return nil
}

// CreateSubmission decides a team's submission while LIVE, by a builder of
// the team or an organiser; a team has at most one submission.
func (h *Hackathon) CreateSubmission(by, id string, s Submission, at time.Time) ([]kernel.Event, error) {
	s, err := s.Normalize()
	if err != nil {
		return nil, err
	}
	t := h.Teams[s.TeamID]
	if t == nil {
		return nil, kernel.Invalid("team_id", "exists", "team_id "+s.TeamID+" is not a team of this hackathon")
	}
	if err := h.teamEditor(by, t, "submit for it"); err != nil {
		return nil, err
	}
	if err := h.live("submitting"); err != nil {
		return nil, err
	}
	if err := h.checkTrack(s.TrackID); err != nil {
		return nil, err
	}
	if t.Submission != "" {
		return nil, kernel.Conflict("team "+s.TeamID+" already submitted "+t.Submission+": update that submission instead", nil)
	}
	return []kernel.Event{&SubmissionSaved{SubmissionID: id, Submission: s, Created: true, By: by, At: at}}, nil
}

// submissionEditor finds a submission its team's builders or an organiser
// may change while LIVE.
func (h *Hackathon) submissionEditor(by, id, what string) (*SubmissionState, error) {
	s := h.Submissions[id]
	if s == nil {
		return nil, SubmissionNotFound(id)
	}
	t := h.Teams[s.TeamID]
	if t == nil {
		t = &Team{}
	}
	if err := h.teamEditor(by, t, what); err != nil {
		return nil, err
	}
	if err := h.live(what); err != nil {
		return nil, err
	}
	return s, nil
}

// UpdateSubmission decides a partial update (project_name, description,
// track_id) while LIVE; the team does not change.
func (h *Hackathon) UpdateSubmission(by, id string, p TextPatch, at time.Time) ([]kernel.Event, error) {
	s, err := h.submissionEditor(by, id, "update the submission")
	if err != nil {
		return nil, err
	}
	if v, ok := p["team_id"]; ok && v != s.TeamID {
		return nil, kernel.Invalid("team_id", "immutable", "team_id cannot change: a submission belongs to its team")
	}
	n := s.Submission
	p.apply("project_name", &n.ProjectName)
	p.apply("description", &n.Description)
	p.apply("track_id", &n.TrackID)
	if n, err = n.Normalize(); err != nil {
		return nil, err
	}
	if err := h.checkTrack(n.TrackID); err != nil {
		return nil, err
	}
	view := func(x Submission) map[string]string {
		return map[string]string{"project_name": x.ProjectName, "description": x.Description, "track_id": x.TrackID}
	}
	changed := changedFields(p, view(s.Submission), view(n))
	if len(changed) == 0 {
		return nil, nil
	}
	return []kernel.Event{&SubmissionSaved{SubmissionID: id, Submission: n, Changed: changed, By: by, At: at}}, nil
}

// DeleteSubmission decides withdrawing a submission no judge has scored.
func (h *Hackathon) DeleteSubmission(by, id string, at time.Time) ([]kernel.Event, error) {
	if _, err := h.submissionEditor(by, id, "delete the submission"); err != nil {
		return nil, err
	}
	for k := range h.Scores {
		if k.SubmissionID == id {
			return nil, kernel.Conflict("submission "+id+" has scores: a scored submission cannot be withdrawn", nil)
		}
	}
	return []kernel.Event{&SubmissionDeleted{SubmissionID: id, By: by, At: at}}, nil
}

// CanAttach checks, before a file is stored, that by may attach one more
// file to the submission.
func (h *Hackathon) CanAttach(by, id string) error {
	s, err := h.submissionEditor(by, id, "attach files")
	if err != nil {
		return err
	}
	if len(s.Files) >= MaxFilesPerSubmission {
		return kernel.Conflict("submission "+id+" already has "+strconv.Itoa(MaxFilesPerSubmission)+" files, the most it may have", nil)
	}
	return nil
}

// AttachFile decides recording a stored file on a submission.
func (h *Hackathon) AttachFile(by, id string, f File, at time.Time) ([]kernel.Event, error) {
	if err := h.CanAttach(by, id); err != nil {
		return nil, err
	}
	return []kernel.Event{&SubmissionFileAttached{SubmissionID: id, File: f, By: by, At: at}}, nil
}
