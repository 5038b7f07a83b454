package hackathon

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Create decides a new hackathon: its details are checked and it starts
// in DRAFT with the creator as organiser.
func Create(id, by string, d Details, at time.Time) ([]kernel.Event, error) {
	d, err := d.Normalize()
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&HackathonCreated{HackathonID: id, Details: d, CreatedBy: by, At: at}}, nil
}

// DetailsPatch is a partial update of a hackathon's details: nil leaves a
// field as it is; ClearMaxParticipants removes the limit.
type DetailsPatch struct {
	Name, Description, Location *string
	StartDate, EndDate          *time.Time
	IsOnline                    *bool
	MaxParticipants             *int
	ClearMaxParticipants        bool
}

// VisibleTo reports whether user may see the hackathon: a DRAFT only its
// organisers; LIVE and COMPLETED every signed-in user.
func (h *Hackathon) VisibleTo(user string) bool {
	return h.Exists() && (h.Status != StatusDraft || h.IsOrganizer(user))
}

// organizer refuses a caller who does not organise the hackathon.
func (h *Hackathon) organizer(by, what string) error {
	if !h.IsOrganizer(by) {
		return kernel.Forbidden("only the hackathon's organisers may " + what)
	}
	return nil
}

// open refuses any change once the hackathon is COMPLETED.
func (h *Hackathon) open(what string) error {
	if h.Status == StatusCompleted {
		return kernel.Conflict("the hackathon is COMPLETED: "+what+" is no longer possible", nil)
	}
	return nil
}

// Update decides a partial update of the details, by an organiser, before
// COMPLETED. max_participants may not drop below the builders who joined.
func (h *Hackathon) Update(by string, p DetailsPatch, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "update it"); err != nil {
		return nil, err
	}
	if err := h.open("updating it"); err != nil {
		return nil, err
	}
	d := h.Details
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&d.Name, p.Name)
	set(&d.Description, p.Description)
	set(&d.Location, p.Location)
	if p.StartDate != nil {
		d.StartDate = *p.StartDate
	}
	if p.EndDate != nil {
		d.EndDate = *p.EndDate
	}
	if p.IsOnline != nil {
		d.IsOnline = *p.IsOnline
	}
	if p.ClearMaxParticipants {
		d.MaxParticipants = nil
	} else if p.MaxParticipants != nil {
		n := *p.MaxParticipants
		d.MaxParticipants = &n
	}
	d, err := d.Normalize()
	if err != nil {
		return nil, err
	}
	if d.MaxParticipants != nil && *d.MaxParticipants < h.Builders {
		return nil, kernel.Conflict("max_participants may not be below the builders who already joined", nil)
	}
	changed := changedDetails(h.Details, d)
	if len(changed) == 0 {
		return nil, nil
	}
	return []kernel.Event{&HackathonUpdated{Details: d, Changed: changed, By: by, At: at}}, nil
}

func changedDetails(a, b Details) []string {
	var c []string
	add := func(name string, differ bool) {
		if differ {
			c = append(c, name)
		}
	}
	add("name", a.Name != b.Name)
	add("description", a.Description != b.Description)
	add("start_date", !a.StartDate.Equal(b.StartDate))
	add("end_date", !a.EndDate.Equal(b.EndDate))
	add("location", a.Location != b.Location)
	add("is_online", a.IsOnline != b.IsOnline)
	add("max_participants", (a.MaxParticipants == nil) != (b.MaxParticipants == nil) ||
		(a.MaxParticipants != nil && *a.MaxParticipants != *b.MaxParticipants))
	return c
}

// SetStatus decides a status move by an organiser: DRAFT -> LIVE -> COMPLETED,
// one step at a time, never back. Moving to the current status changes
// nothing.
func (h *Hackathon) SetStatus(by, to string, at time.Time) ([]kernel.Event, error) {
	if to != StatusDraft && to != StatusLive && to != StatusCompleted {
		return nil, kernel.Invalid("status", "enum:DRAFT,LIVE,COMPLETED", "status must be one of DRAFT, LIVE, COMPLETED")
	}
	if err := h.organizer(by, "change its status"); err != nil {
		return nil, err
	}
	if to == h.Status {
		return nil, nil
	}
	next := map[string]string{StatusDraft: StatusLive, StatusLive: StatusCompleted}[h.Status]
	if to != next {
		return nil, kernel.Conflict("the hackathon is "+h.Status+": it can move only DRAFT -> LIVE -> COMPLETED, one step at a time", nil)
	}
	return []kernel.Event{&StatusChanged{From: h.Status, To: to, By: by, At: at}}, nil
}

// AddOrganizer decides making user a co-organiser.
func (h *Hackathon) AddOrganizer(by, user string, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "add organisers"); err != nil {
		return nil, err
	}
	if err := h.open("adding organisers"); err != nil {
		return nil, err
	}
	if h.IsOrganizer(user) {
		return nil, nil
	}
	return []kernel.Event{&OrganizerAdded{UserID: user, By: by, At: at}}, nil
}

// RemoveOrganizer decides ending a co-organiser's role; the creator stays.
func (h *Hackathon) RemoveOrganizer(by, user string, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "remove organisers"); err != nil {
		return nil, err
	}
	if err := h.open("removing organisers"); err != nil {
		return nil, err
	}
	if user == h.CreatedBy {
		return nil, kernel.Conflict("the hackathon's creator is always an organiser", nil)
	}
	if !h.IsOrganizer(user) {
		return nil, kernel.NotFound("user " + user + " is not an organiser of this hackathon")
	}
	return []kernel.Event{&OrganizerRemoved{UserID: user, By: by, At: at}}, nil
}
