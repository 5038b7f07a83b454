package hackathon

import (
	"net/http"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
)

// trackCount counts a track's submissions; the row with a null track_id
// counts the submissions without a track.
type trackCount struct {
	TrackID     *string `json:"track_id"`
	Name        string  `json:"name"`
	Submissions int     `json:"submissions"`
}

// judgingProgress says how far judging is: of the live submissions, how
// many have a score and how many have at least K (a full panel).
type judgingProgress struct {
	K           int `json:"k"`
	Submissions int `json:"submissions"`
	Scored      int `json:"scored"`
	Complete    int `json:"complete"`
}

// judgeCount is a judge's number of current scores (of live submissions).
type judgeCount struct {
	JudgeID string `json:"judge_id"`
	Scores  int    `json:"scores"`
}

// callerPart is what the caller is in the hackathon.
type callerPart struct {
	Organizer bool     `json:"organizer"`
	Roles     []string `json:"roles"`
	TeamID    *string  `json:"team_id"`
}

// organizerPart is what only organisers see on the overview.
type organizerPart struct {
	Judges             []judgeCount `json:"judges"`
	InvitationsPending int          `json:"invitations_pending"`
	Prizes             int          `json:"prizes"`
	ActiveRubricID     *string      `json:"active_rubric_id"`
}

// overviewView is one hackathon's dashboard.
type overviewView struct {
	Hackathon          hackathonRef    `json:"hackathon"`
	Location           string          `json:"location"`
	IsOnline           bool            `json:"is_online"`
	MaxParticipants    *int            `json:"max_participants"`
	Participants       roleCounts      `json:"participants"`
	Teams              int             `json:"teams"`
	Submissions        int             `json:"submissions"`
	SubmissionsByTrack []trackCount    `json:"submissions_by_track"`
	Scores             int             `json:"scores"`
	Judging            judgingProgress `json:"judging"`
	You                callerPart      `json:"you"`
	Organizer          *organizerPart  `json:"organizer"`
}

// overview is GET /api/v1/dashboard/{hackathon_id}/overview, for whoever
// may see the hackathon, from its fold; organizer is null for
// non-organisers.
func (a *API) overview(w http.ResponseWriter, r *http.Request, c caller) {
	var v overviewView
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		v = overviewOf(h, c.UserID)
		if h.IsOrganizer(c.UserID) {
			v.Organizer = organizerPartOf(h, a)
		}
		return nil
	})
	writeJSON(w, r, http.StatusOK, v, err)
}

// rolesOf counts h's participants by role.
func rolesOf(h *hackathon.Hackathon) roleCounts {
	var n roleCounts
	for _, roles := range h.Participants {
		if roles[hackathon.RoleBuilder] {
			n.Builder++
		}
		if roles[hackathon.RoleJudge] {
			n.Judge++
		}
		if roles[hackathon.RoleMentor] {
			n.Mentor++
		}
	}
	return n
}

// byTrack counts h's submissions per track (tracks in id order, then the
// submissions without a track).
func byTrack(h *hackathon.Hackathon) []trackCount {
	counts := map[string]int{}
	for _, s := range h.Submissions {
		counts[s.TrackID]++
	}
	out := []trackCount{}
	for _, id := range sortedKeys(h.Tracks) {
		out = append(out, trackCount{TrackID: &id, Name: h.Tracks[id].Name, Submissions: counts[id]})
	}
	return append(out, trackCount{Submissions: counts[""]})
}

// scoresPerSubmission counts the current scores of each live submission.
func scoresPerSubmission(h *hackathon.Hackathon) map[string]int {
	n := map[string]int{}
	for key := range h.Scores {
		if h.Submissions[key.SubmissionID] != nil {
			n[key.SubmissionID]++
		}
	}
	return n
}

func overviewOf(h *hackathon.Hackathon, user string) overviewView {
	d := h.Details
	v := overviewView{Hackathon: hackathonRef{ID: h.ID, Name: d.Name, Status: h.Status, StartDate: d.StartDate, EndDate: d.EndDate},
		Location: d.Location, IsOnline: d.IsOnline, MaxParticipants: d.MaxParticipants, Participants: rolesOf(h),
		Teams: len(h.Teams), Submissions: len(h.Submissions), SubmissionsByTrack: byTrack(h),
		Judging: judgingProgress{K: judging.DefaultK, Submissions: len(h.Submissions)},
		You:     callerPart{Organizer: h.IsOrganizer(user), Roles: sortedKeys(h.Participants[user])}}
	for _, n := range scoresPerSubmission(h) {
		v.Scores += n
		v.Judging.Scored++
		if n >= judging.DefaultK {
			v.Judging.Complete++
		}
	}
	if t := h.TeamOf[user]; t != "" {
		v.You.TeamID = &t
	}
	return v
}

// judgeCounts counts each judge's current scores of live submissions,
// judges in id order (a judge without scores counts 0).
func judgeCounts(h *hackathon.Hackathon) []judgeCount {
	n := map[string]int{}
	for key := range h.Scores {
		if h.Submissions[key.SubmissionID] != nil {
			n[key.JudgeID]++
		}
	}
	for _, j := range h.Judges() {
		n[j] += 0
	}
	out := []judgeCount{}
	for _, j := range sortedKeys(n) {
		out = append(out, judgeCount{JudgeID: j, Scores: n[j]})
	}
	return out
}

func organizerPartOf(h *hackathon.Hackathon, a *API) *organizerPart {
	p := &organizerPart{Judges: judgeCounts(h), Prizes: len(h.Prizes)}
	now := a.svc.Now()
	for _, inv := range h.Invitations {
		if !h.Accepted[inv.InvitationID] && now.Before(inv.ExpiresAt) {
			p.InvitationsPending++
		}
	}
	if h.ActiveRubric != "" {
		id := h.ActiveRubric
		p.ActiveRubricID = &id
	}
	return p
}
