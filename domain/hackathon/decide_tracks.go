package hackathon

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// TextPatch is a partial update of text fields by JSON name: a present key
// sets the field ("" clears an optional one).
type TextPatch map[string]string

func (p TextPatch) apply(field string, dst *string) {
	if v, ok := p[field]; ok {
		*dst = v
	}
}

func changedFields(p TextPatch, before, after map[string]string) []string {
	var c []string
	for _, f := range []string{"name", "description", "color", "amount", "currency", "track_id", "project_name", "team_id"} {
		if _, ok := p[f]; ok && before[f] != after[f] {
			c = append(c, f)
		}
	}
	return c
}

// TrackNotFound is the error for a track the hackathon does not have.
func TrackNotFound(id string) error {
	return kernel.NotFound("track " + id + " not found in this hackathon")
}

// SaveTrack decides creating (id new) or patching a track, by an organiser,
// before COMPLETED.
func (h *Hackathon) SaveTrack(by, id string, create bool, p TextPatch, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage tracks"); err != nil {
		return nil, err
	}
	old, exists := h.Tracks[id]
	if !create && !exists {
		return nil, TrackNotFound(id)
	}
	if create && exists {
		return nil, kernel.Conflict("track "+id+" already exists", nil)
	}
	if err := h.open("changing tracks"); err != nil {
		return nil, err
	}
	t := old
	p.apply("name", &t.Name)
	p.apply("description", &t.Description)
	p.apply("color", &t.Color)
	t, err := t.Normalize()
	if err != nil {
		return nil, err
	}
	changed := changedFields(p, map[string]string{"name": old.Name, "description": old.Description, "color": old.Color},
		map[string]string{"name": t.Name, "description": t.Description, "color": t.Color})
	if !create && len(changed) == 0 {
		return nil, nil
	}
	return []kernel.Event{&TrackSaved{TrackID: id, Track: t, Created: create, Changed: changed, By: by, At: at}}, nil
}

// DeleteTrack decides removing a track that no submission or prize uses.
func (h *Hackathon) DeleteTrack(by, id string, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage tracks"); err != nil {
		return nil, err
	}
	if _, ok := h.Tracks[id]; !ok {
		return nil, TrackNotFound(id)
	}
	if err := h.open("changing tracks"); err != nil {
		return nil, err
	}
	for _, s := range h.Submissions {
		if s.TrackID == id {
			return nil, kernel.Conflict("track "+id+" has submissions: move them to another track first", nil)
		}
	}
	for _, p := range h.Prizes {
		if p.TrackID == id {
			return nil, kernel.Conflict("track "+id+" has prizes: delete them or move them first", nil)
		}
	}
	return []kernel.Event{&TrackDeleted{TrackID: id, By: by, At: at}}, nil
}

// SavePrize decides creating or patching a prize, by an organiser, before
// COMPLETED; its track must exist.
func (h *Hackathon) SavePrize(by, id string, create bool, p TextPatch, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage prizes"); err != nil {
		return nil, err
	}
	old, exists := h.Prizes[id]
	if !create && !exists {
		return nil, kernel.NotFound("prize " + id + " not found in this hackathon")
	}
	if create && exists {
		return nil, kernel.Conflict("prize "+id+" already exists", nil)
	}
	if err := h.open("changing prizes"); err != nil {
		return nil, err
	}
	n := old
	for f, dst := range map[string]*string{"name": &n.Name, "description": &n.Description, "amount": &n.Amount,
		"currency": &n.Currency, "track_id": &n.TrackID} {
		p.apply(f, dst)
	}
	n, err := n.Normalize()
	if err != nil {
		return nil, err
	}
	if _, ok := h.Tracks[n.TrackID]; n.TrackID != "" && !ok {
		return nil, kernel.Invalid("track_id", "exists", "track_id "+n.TrackID+" is not a track of this hackathon")
	}
	view := func(x Prize) map[string]string {
		return map[string]string{"name": x.Name, "description": x.Description, "amount": x.Amount, "currency": x.Currency, "track_id": x.TrackID}
	}
	changed := changedFields(p, view(old), view(n))
	if !create && len(changed) == 0 {
		return nil, nil
	}
	return []kernel.Event{&PrizeSaved{PrizeID: id, Prize: n, Created: create, Changed: changed, By: by, At: at}}, nil
}

// DeletePrize decides removing a prize.
func (h *Hackathon) DeletePrize(by, id string, at time.Time) ([]kernel.Event, error) {
	if err := h.organizer(by, "manage prizes"); err != nil {
		return nil, err
	}
	if _, ok := h.Prizes[id]; !ok {
		return nil, kernel.NotFound("prize " + id + " not found in this hackathon")
	}
	if err := h.open("changing prizes"); err != nil {
		return nil, err
	}
	return []kernel.Event{&PrizeDeleted{PrizeID: id, By: by, At: at}}, nil
}
