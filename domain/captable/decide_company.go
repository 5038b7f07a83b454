package captable

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// NewCompany returns the events that create a company owned by owner.
func NewCompany(id, name, owner string, now time.Time) ([]kernel.Event, error) {
	if err := required("companyName", name); err != nil {
		return nil, err
	}
	return []kernel.Event{
		&CompanyCreated{CompanyID: id, Name: strings.TrimSpace(name), CreatedBy: owner, At: now},
		&MemberAdded{AccountID: owner, Role: RoleOwner, At: now},
	}, nil
}

// AddMember gives account a role, or changes it. The last owner cannot be
// demoted.
func (c *Company) AddMember(account string, role Role, now time.Time) ([]kernel.Event, error) {
	if !role.Valid() {
		return nil, oneOf("role", string(role), []string{string(RoleOwner), string(RoleAdmin), string(RoleViewer)})
	}
	if c.Members[account] == RoleOwner && role != RoleOwner && c.owners() == 1 {
		return nil, conflict("role", "last_owner", "the company's last owner cannot be demoted")
	}
	if c.Members[account] == role {
		return nil, nil
	}
	return []kernel.Event{&MemberAdded{AccountID: account, Role: role, At: now}}, nil
}

func (c *Company) owners() int {
	n := 0
	for _, r := range c.Members {
		if r == RoleOwner {
			n++
		}
	}
	return n
}

// StakeholderInput is the body of a stakeholder create or update.
type StakeholderInput struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Type  string `json:"type"`
	Title string `json:"title"`
}

func (c *Company) checkStakeholder(id string, in StakeholderInput) (StakeholderInput, error) {
	if err := required("name", in.Name); err != nil {
		return in, err
	}
	if err := oneOf("type", in.Type, stakeholderTypes); err != nil {
		return in, err
	}
	if len(in.Title) > maxName {
		return in, kernel.Invalid("title", "max_length", fmt.Sprintf("title must be at most %d characters", maxName))
	}
	e, err := email("email", in.Email)
	if err != nil {
		return in, err
	}
	in.Email, in.Name, in.Title = e, strings.TrimSpace(in.Name), strings.TrimSpace(in.Title)
	if other, ok := c.byEmail[e]; e != "" && ok && other != id {
		return in, conflict("email", "unique", "a stakeholder with email "+e+" already exists in this company")
	}
	return in, nil
}

// AddStakeholder records a new stakeholder; an email already used by
// another stakeholder of the company is a conflict.
func (c *Company) AddStakeholder(id string, in StakeholderInput, now time.Time) ([]kernel.Event, error) {
	in, err := c.checkStakeholder(id, in)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&StakeholderAdded{Stakeholder{ID: id, Name: in.Name, Email: in.Email, Type: in.Type, Title: in.Title, At: now}}}, nil
}

// Stakeholder returns a live (not removed) stakeholder or a not-found error.
func (c *Company) Stakeholder(id string) (*StakeholderState, error) {
	s := c.Stakeholders[id]
	if s == nil || s.Removed {
		return nil, notFound("stakeholder", id)
	}
	return s, nil
}

// UpdateStakeholder replaces a stakeholder's details.
func (c *Company) UpdateStakeholder(id string, in StakeholderInput, now time.Time) ([]kernel.Event, error) {
	if _, err := c.Stakeholder(id); err != nil {
		return nil, err
	}
	in, err := c.checkStakeholder(id, in)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&StakeholderUpdated{Stakeholder{ID: id, Name: in.Name, Email: in.Email, Type: in.Type, Title: in.Title, At: now}}}, nil
}

// RemoveStakeholder removes a stakeholder that holds no grant or SAFE; one
// that does is a conflict (cancel or transfer its equity first).
func (c *Company) RemoveStakeholder(id string, now time.Time) ([]kernel.Event, error) {
	if _, err := c.Stakeholder(id); err != nil {
		return nil, err
	}
	for _, gid := range c.GrantOrder {
		g := c.Grants[gid]
		if g.StakeholderID == id && (!g.Outstanding().IsZero() || !g.Exercised.IsZero()) {
			return nil, conflict("stakeholderId", "holds_equity", "the stakeholder holds grant "+g.GrantNumber+"; cancel it before removing the stakeholder")
		}
	}
	for _, sid := range c.SAFEOrder {
		if c.SAFEs[sid].InvestorID == id {
			return nil, conflict("stakeholderId", "holds_equity", "the stakeholder holds SAFE "+sid+"; it cannot be removed")
		}
	}
	return []kernel.Event{&StakeholderRemoved{StakeholderID: id, At: now}}, nil
}
