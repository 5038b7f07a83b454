package hackathon

import (
	"net/http"
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// memberView is a team member.
type memberView struct {
	UserID string `json:"user_id"`
	Role   string `json:"role"`
}

// teamView is a team as the API shows it.
type teamView struct {
	ID           string       `json:"id"`
	HackathonID  string       `json:"hackathon_id"`
	Name         string       `json:"name"`
	Description  string       `json:"description"`
	Members      []memberView `json:"members"`
	SubmissionID *string      `json:"submission_id"`
	CreatedBy    string       `json:"created_by"`
	CreatedAt    time.Time    `json:"created_at"`
}

func teamOf(h *hackathon.Hackathon, id string) (teamView, bool) {
	t := h.Teams[id]
	if t == nil {
		return teamView{}, false
	}
	v := teamView{ID: id, HackathonID: h.ID, Name: t.Name, Description: t.Description, Members: []memberView{},
		CreatedBy: t.CreatedBy, CreatedAt: t.CreatedAt}
	for _, u := range sortedKeys(t.Members) {
		v.Members = append(v.Members, memberView{UserID: u, Role: t.Members[u]})
	}
	if t.Submission != "" {
		s := t.Submission
		v.SubmissionID = &s
	}
	return v, true
}

func (a *API) teams() resourceDef[teamView] {
	now := a.svc.Now
	return resourceDef[teamView]{fields: []string{"name", "description"}, param: "team_id", notFnd: hackathon.TeamNotFound,
		create: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.CreateTeam(by, id, p["name"], p["description"], now())
		},
		patch: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.UpdateTeam(by, id, p, now())
		},
		del: func(h *hackathon.Hackathon, by, id string) ([]kernel.Event, error) {
			return h.DeleteTeam(by, id, now())
		},
		view: teamOf,
		ids:  func(h *hackathon.Hackathon) []string { return sortedKeys(h.Teams) },
	}
}

func (a *API) addMember(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		UserID string `json:"user_id"`
		Role   string `json:"role"`
	}
	err := httpx.DecodeJSON(r, &b)
	if err == nil && b.UserID == "" {
		err = kernel.Invalid("user_id", "required", "user_id is required")
	}
	team := muxVar(r, "team_id")
	if err == nil {
		err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.AddMember(c.UserID, team, b.UserID, b.Role, a.svc.Now())
		})
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.teams().write(a, w, r, c, http.StatusCreated, team)
}

func (a *API) removeMember(w http.ResponseWriter, r *http.Request, c caller) {
	team, user := muxVar(r, "team_id"), muxVar(r, "user_id")
	err := a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.RemoveMember(c.UserID, team, user, a.svc.Now())
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// participantView is a participant with their roles.
type participantView struct {
	UserID   string    `json:"user_id"`
	Roles    []string  `json:"roles"`
	TeamID   *string   `json:"team_id"`
	JoinedAt time.Time `json:"joined_at"`
}

func participantOf(h *hackathon.Hackathon, user string) participantView {
	v := participantView{UserID: user, Roles: sortedKeys(h.Participants[user]), JoinedAt: h.Joined[user]}
	if t := h.TeamOf[user]; t != "" {
		v.TeamID = &t
	}
	return v
}

func (a *API) join(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Role            string `json:"role"`
		InvitationToken string `json:"invitation_token"`
	}
	if err := httpx.DecodeJSON(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	joined, err := a.svc.Join(r.Context(), hid(r), c.UserID, c.Email, b.Role, b.InvitationToken)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if joined {
		status = http.StatusCreated
	}
	var v participantView
	err = a.svc.Participant(r.Context(), hid(r), c.UserID, func(h *hackathon.Hackathon) error {
		v = participantOf(h, c.UserID)
		return nil
	})
	writeJSON(w, r, status, v, err)
}

func (a *API) participants(w http.ResponseWriter, r *http.Request, c caller) {
	role, err := enumParam(r, "role", hackathon.Roles()...)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, offset, err := page(r)
	var all []participantView
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			for u, roles := range h.Participants {
				if role == "" || roles[role] {
					all = append(all, participantOf(h, u))
				}
			}
			return nil
		})
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].JoinedAt.Equal(all[j].JoinedAt) {
			return all[i].JoinedAt.Before(all[j].JoinedAt)
		}
		return all[i].UserID < all[j].UserID
	})
	writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
}

func (a *API) inviteJudges(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Emails []string `json:"emails"`
	}
	err := httpx.DecodeJSON(r, &b)
	if err == nil && len(b.Emails) == 0 {
		err = kernel.Invalid("emails", "required", "emails must list at least one address")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	invs, err := a.svc.InviteJudges(r.Context(), hid(r), c.UserID, b.Emails)
	writeJSON(w, r, http.StatusCreated, map[string]any{"invitations": invs}, err)
}

// invitation serves the mailed link: the invitation behind the token and
// how to accept it (no credentials needed: the token is the secret).
func (a *API) invitation(w http.ResponseWriter, r *http.Request) {
	v, err := a.svc.InvitationFor(r.Context(), hid(r), muxVar(r, "token"))
	writeJSON(w, r, http.StatusOK, v, err)
}
