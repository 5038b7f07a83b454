package hackathon

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// TeamNotFound is the error for a team the hackathon does not have.
func TeamNotFound(id string) error {
	return kernel.NotFound("team " + id + " not found in this hackathon")
}

// live refuses team and submission changes outside LIVE.
func (h *Hackathon) live(what string) error {
	if h.Status != StatusLive {
		return kernel.Conflict("the hackathon is "+h.Status+": "+what+" is possible only while it is LIVE", nil)
	}
	return nil
}

// teamEditor refuses a caller who is neither a builder of the team nor an
// organiser.
func (h *Hackathon) teamEditor(by string, t *Team, what string) error {
	if t.Members[by] == RoleBuilder || h.IsOrganizer(by) {
		return nil
	}
	return kernel.Forbidden("only the team's builders and the hackathon's organisers may " + what)
}

func (h *Hackathon) nameTaken(name, except string) bool {
	for id, t := range h.Teams {
		if id != except && strings.EqualFold(t.Name, name) {
			return true
		}
	}
	return false
}

// CreateTeam decides a new team while LIVE, by a builder (who becomes its
// first member; a builder is in at most one team) or an organiser. Team
// names are unique in the hackathon, ignoring case.
func (h *Hackathon) CreateTeam(by, id, name, description string, at time.Time) ([]kernel.Event, error) {
	name, description, err := TeamText(name, description)
	if err != nil {
		return nil, err
	}
	builder := h.HasRole(by, RoleBuilder)
	if !builder && !h.IsOrganizer(by) {
		return nil, kernel.Forbidden("join the hackathon as a builder before creating a team")
	}
	if err := h.live("creating teams"); err != nil {
		return nil, err
	}
	if builder && h.TeamOf[by] != "" {
		return nil, kernel.Conflict("you are already in team "+h.TeamOf[by]+": a builder is in at most one team per hackathon", nil)
	}
	if h.nameTaken(name, "") {
		return nil, kernel.Conflict("a team called "+name+" already exists in this hackathon", nil)
	}
	evs := []kernel.Event{&TeamSaved{TeamID: id, Name: name, Description: description, Created: true, By: by, At: at}}
	if builder {
		evs = append(evs, &TeamMemberAdded{TeamID: id, UserID: by, Role: RoleBuilder, By: by, At: at})
	}
	return evs, nil
}

// UpdateTeam decides a partial update of a team's name or description.
func (h *Hackathon) UpdateTeam(by, id string, p TextPatch, at time.Time) ([]kernel.Event, error) {
	t := h.Teams[id]
	if t == nil {
		return nil, TeamNotFound(id)
	}
	if err := h.teamEditor(by, t, "update it"); err != nil {
		return nil, err
	}
	if err := h.open("updating teams"); err != nil {
		return nil, err
	}
	name, desc := t.Name, t.Description
	p.apply("name", &name)
	p.apply("description", &desc)
	name, desc, err := TeamText(name, desc)
	if err != nil {
		return nil, err
	}
	if h.nameTaken(name, id) {
		return nil, kernel.Conflict("a team called "+name+" already exists in this hackathon", nil)
	}
	changed := changedFields(p, map[string]string{"name": t.Name, "description": t.Description},
		map[string]string{"name": name, "description": desc})
	if len(changed) == 0 {
		return nil, nil
	}
	return []kernel.Event{&TeamSaved{TeamID: id, Name: name, Description: desc, Changed: changed, By: by, At: at}}, nil
}

// DeleteTeam decides removing a team without a submission, while LIVE.
func (h *Hackathon) DeleteTeam(by, id string, at time.Time) ([]kernel.Event, error) {
	t := h.Teams[id]
	if t == nil {
		return nil, TeamNotFound(id)
	}
	if err := h.teamEditor(by, t, "delete it"); err != nil {
		return nil, err
	}
	if err := h.live("deleting teams"); err != nil {
		return nil, err
	}
	if t.Submission != "" {
		return nil, kernel.Conflict("team "+id+" has submission "+t.Submission+": delete the submission first", nil)
	}
	return []kernel.Event{&TeamDeleted{TeamID: id, By: by, At: at}}, nil
}

// AddMember decides putting user in a team while LIVE as a builder (a user
// who joined as builder and is in no other team) or a mentor (a user who
// joined as mentor). A builder may add themselves or be added by a builder
// of the team or an organiser; a mentor adds themselves or is added by an
// organiser. Being a member already changes nothing.
func (h *Hackathon) AddMember(by, teamID, user, role string, at time.Time) ([]kernel.Event, error) {
	if role == "" {
		role = RoleBuilder
	}
	if role != RoleBuilder && role != RoleMentor {
		return nil, kernel.Invalid("role", "enum:builder,mentor", "role must be builder or mentor")
	}
	t := h.Teams[teamID]
	if t == nil {
		return nil, TeamNotFound(teamID)
	}
	allowed := by == user || h.IsOrganizer(by) || (role == RoleBuilder && t.Members[by] == RoleBuilder)
	if !allowed {
		if role == RoleMentor {
			return nil, kernel.Forbidden("only the mentor themselves or an organiser may add a mentor")
		}
		return nil, kernel.Forbidden("only the builder themselves, a builder of the team or an organiser may add a builder")
	}
	if err := h.live("changing teams"); err != nil {
		return nil, err
	}
	if !h.HasRole(user, role) {
		return nil, kernel.E(kernel.KindUnprocessable, "user "+user+" has not joined this hackathon as "+role)
	}
	if t.Members[user] == role {
		return nil, nil
	}
	if t.Members[user] != "" {
		return nil, kernel.Conflict("user "+user+" is already in this team as "+t.Members[user], nil)
	}
	if role == RoleBuilder && h.TeamOf[user] != "" {
		return nil, kernel.Conflict("user "+user+" is already in team "+h.TeamOf[user]+": a builder is in at most one team per hackathon", nil)
	}
	return []kernel.Event{&TeamMemberAdded{TeamID: teamID, UserID: user, Role: role, By: by, At: at}}, nil
}

// RemoveMember decides taking user out of a team while LIVE: the user
// themselves, a builder of the team or an organiser.
func (h *Hackathon) RemoveMember(by, teamID, user string, at time.Time) ([]kernel.Event, error) {
	t := h.Teams[teamID]
	if t == nil {
		return nil, TeamNotFound(teamID)
	}
	if by != user {
		if err := h.teamEditor(by, t, "remove members"); err != nil {
			return nil, err
		}
	}
	if t.Members[user] == "" {
		return nil, kernel.NotFound("user " + user + " is not a member of team " + teamID)
	}
	if err := h.live("changing teams"); err != nil {
		return nil, err
	}
	return []kernel.Event{&TeamMemberRemoved{TeamID: teamID, UserID: user, By: by, At: at}}, nil
}
