package hackathon

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// years bounds the hackathon's dates.
var years = httpx.Years{Min: 2000, Max: 2100}

// hackathonView is a hackathon as the API shows it.
type hackathonView struct {
	ID              string    `json:"id"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	StartDate       time.Time `json:"start_date"`
	EndDate         time.Time `json:"end_date"`
	Status          string    `json:"status"`
	Location        string    `json:"location"`
	IsOnline        bool      `json:"is_online"`
	MaxParticipants *int      `json:"max_participants"`
	CreatedBy       string    `json:"created_by"`
	Organizers      []string  `json:"organizers"`
	Participants    int       `json:"participant_count"`
	Teams           int       `json:"team_count"`
	Submissions     int       `json:"submission_count"`
	CreatedAt       time.Time `json:"created_at"`
}

func viewOf(h *hackathon.Hackathon) hackathonView {
	d := h.Details
	return hackathonView{ID: h.ID, Name: d.Name, Description: d.Description, StartDate: d.StartDate, EndDate: d.EndDate,
		Status: h.Status, Location: d.Location, IsOnline: d.IsOnline, MaxParticipants: d.MaxParticipants,
		CreatedBy: h.CreatedBy, Organizers: sortedKeys(h.Organizers), Participants: h.Builders, Teams: len(h.Teams),
		Submissions: len(h.Submissions), CreatedAt: h.CreatedAt}
}

// hackathonBody is the body of POST and PATCH: dates are RFC 3339 text.
type hackathonBody struct {
	Name            *string         `json:"name"`
	Description     *string         `json:"description"`
	StartDate       *string         `json:"start_date"`
	EndDate         *string         `json:"end_date"`
	Location        *string         `json:"location"`
	IsOnline        *bool           `json:"is_online"`
	MaxParticipants json.RawMessage `json:"max_participants"`
}

// patch turns the body into a details patch.
func (b hackathonBody) patch() (hackathon.DetailsPatch, error) {
	p := hackathon.DetailsPatch{Name: b.Name, Description: b.Description, Location: b.Location, IsOnline: b.IsOnline}
	for _, f := range []struct {
		name string
		v    *string
		dst  **time.Time
	}{{"start_date", b.StartDate, &p.StartDate}, {"end_date", b.EndDate, &p.EndDate}} {
		if f.v != nil {
			t, err := httpx.ParseDateTime(f.name, *f.v, years, true)
			if err != nil {
				return p, err
			}
			*f.dst = &t
		}
	}
	switch s := string(b.MaxParticipants); s {
	case "":
	case "null":
		p.ClearMaxParticipants = true
	default:
		var n int
		if err := json.Unmarshal(b.MaxParticipants, &n); err != nil {
			return p, kernel.Invalid("max_participants", "integer", "max_participants must be a whole number or null")
		}
		p.MaxParticipants = &n
	}
	return p, nil
}

func (a *API) createHackathon(w http.ResponseWriter, r *http.Request, c caller) {
	var b hackathonBody
	if err := httpx.DecodeJSON(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if b.StartDate == nil {
		httpx.WriteError(w, r, kernel.Invalid("start_date", "required", "start_date is required (ISO 8601)"))
		return
	}
	if b.EndDate == nil {
		httpx.WriteError(w, r, kernel.Invalid("end_date", "required", "end_date is required (ISO 8601)"))
		return
	}
	p, err := b.patch()
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var d hackathon.Details
	if p.Name != nil {
		d.Name = *p.Name
	}
	if p.Description != nil {
		d.Description = *p.Description
	}
	if p.Location != nil {
		d.Location = *p.Location
	}
	d.StartDate, d.EndDate = *p.StartDate, *p.EndDate
	if p.IsOnline != nil {
		d.IsOnline = *p.IsOnline
	}
	d.MaxParticipants = p.MaxParticipants
	id, err := a.svc.Create(r.Context(), c.UserID, d)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeHackathon(w, r, c, http.StatusCreated, id)
}

func (a *API) writeHackathon(w http.ResponseWriter, r *http.Request, c caller, status int, id string) {
	var v hackathonView
	err := a.svc.View(r.Context(), id, c.UserID, func(h *hackathon.Hackathon) error {
		v = viewOf(h)
		return nil
	})
	writeJSON(w, r, status, v, err)
}

func (a *API) getHackathon(w http.ResponseWriter, r *http.Request, c caller) {
	a.writeHackathon(w, r, c, http.StatusOK, hid(r))
}

func (a *API) patchHackathon(w http.ResponseWriter, r *http.Request, c caller) {
	var b hackathonBody
	if err := httpx.DecodeJSON(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	p, err := b.patch()
	if err == nil {
		err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.Update(c.UserID, p, a.svc.Now()) })
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeHackathon(w, r, c, http.StatusOK, hid(r))
}

func (a *API) setStatus(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Status string `json:"status"`
	}
	err := httpx.DecodeJSON(r, &b)
	if err == nil && b.Status == "" {
		err = kernel.Invalid("status", "required", "status is required: LIVE or COMPLETED")
	}
	if err == nil {
		err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.SetStatus(c.UserID, b.Status, a.svc.Now())
		})
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeHackathon(w, r, c, http.StatusOK, hid(r))
}

func (a *API) addOrganizer(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		UserID string `json:"user_id"`
	}
	err := httpx.DecodeJSON(r, &b)
	if err == nil && b.UserID == "" {
		err = kernel.Invalid("user_id", "required", "user_id is required")
	}
	if err == nil {
		err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
			return h.AddOrganizer(c.UserID, b.UserID, a.svc.Now())
		})
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeHackathon(w, r, c, http.StatusOK, hid(r))
}

func (a *API) removeOrganizer(w http.ResponseWriter, r *http.Request, c caller) {
	user := muxVar(r, "user_id")
	err := a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		return h.RemoveOrganizer(c.UserID, user, a.svc.Now())
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// listHackathons lists the hackathons the caller may see (LIVE and
// COMPLETED ones, and DRAFTs they organise), newest first.
func (a *API) listHackathons(w http.ResponseWriter, r *http.Request, c caller) {
	status, err := enumParam(r, "status", hackathon.StatusDraft, hackathon.StatusLive, hackathon.StatusCompleted)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit, offset, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := listOf[hackathonView]{Items: []hackathonView{}, Limit: limit, Offset: offset}
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+hackathonColumns+`, count(*) OVER ()
		FROM rm_hackathon_v1.hackathons h
		WHERE (status <> 'DRAFT' OR organizers @> ARRAY[$1::text]) AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, hackathon_id DESC LIMIT $3 OFFSET $4`, c.UserID, status, limit, offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scanHackathon(rows, &out.Total)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		out.Items = append(out.Items, v)
	}
	if err := rows.Err(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if len(out.Items) == 0 && offset > 0 {
		err = a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_hackathon_v1.hackathons
			WHERE (status <> 'DRAFT' OR organizers @> ARRAY[$1::text]) AND ($2 = '' OR status = $2)`, c.UserID, status).Scan(&out.Total)
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// hackathonColumns are the columns scanHackathon reads, from alias h.
const hackathonColumns = `h.hackathon_id, h.name, h.description, h.start_date, h.end_date, h.status, h.location, h.is_online,
	h.max_participants, h.created_by, array_to_json(h.organizers)::text, h.builders,
	(SELECT count(*) FROM rm_hackathon_v1.teams t WHERE t.hackathon_id = h.hackathon_id),
	(SELECT count(*) FROM rm_hackathon_v1.submissions s WHERE s.hackathon_id = h.hackathon_id), h.created_at`

type scanner interface{ Scan(dest ...any) error }

func scanHackathon(row scanner, extra ...any) (hackathonView, error) {
	var v hackathonView
	var max *int64
	var orgs string
	dest := append([]any{&v.ID, &v.Name, &v.Description, &v.StartDate, &v.EndDate, &v.Status, &v.Location, &v.IsOnline,
		&max, &v.CreatedBy, &orgs, &v.Participants, &v.Teams, &v.Submissions, &v.CreatedAt}, extra...)
	if err := row.Scan(dest...); err != nil {
		return v, err
	}
	if max != nil {
		n := int(*max)
		v.MaxParticipants = &n
	}
	if err := json.Unmarshal([]byte(orgs), &v.Organizers); err != nil {
		return v, err
	}
	v.StartDate, v.EndDate, v.CreatedAt = v.StartDate.UTC(), v.EndDate.UTC(), v.CreatedAt.UTC()
	return v, nil
}
