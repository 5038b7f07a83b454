package hackathon

import (
	"encoding/json"
	"net/http"
	"slices"

	cmd "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// criterionBody is a criterion as clients send it: numbers for weight,
// min and max.
type criterionBody struct {
	Key    string  `json:"key"`
	Name   string  `json:"name"`
	Weight *number `json:"weight"`
	Min    *number `json:"min"`
	Max    *number `json:"max"`
}

// rubricBody is the body of POST and PATCH .../rubrics.
type rubricBody struct {
	Name     *string          `json:"name"`
	Criteria *[]criterionBody `json:"criteria"`
	TieBreak *[]string        `json:"tie_break"`
	IsActive *bool            `json:"is_active"`
}

func num(n *number) string {
	if n == nil {
		return ""
	}
	return n.String()
}

// criterionView shows a criterion's numbers as numbers.
type criterionView struct {
	Key    string      `json:"key"`
	Name   string      `json:"name"`
	Weight json.Number `json:"weight"`
	Min    json.Number `json:"min"`
	Max    json.Number `json:"max"`
}

// rubricView is a rubric as the API shows it.
type rubricView struct {
	ID           string          `json:"id"`
	HackathonID  string          `json:"hackathon_id"`
	Name         string          `json:"name"`
	Criteria     []criterionView `json:"criteria"`
	TieBreak     []string        `json:"tie_break"`
	TopCriterion string          `json:"top_criterion"`
	IsActive     bool            `json:"is_active"`
	Locked       bool            `json:"locked"`
}

func rubricOf(h *hackathon.Hackathon, id string) (rubricView, bool) {
	rb, ok := h.Rubrics[id]
	if !ok {
		return rubricView{}, false
	}
	v := rubricView{ID: id, HackathonID: h.ID, Name: rb.Name, TieBreak: slices.Clone(rb.TieBreak), TopCriterion: rb.TopCriterion(),
		IsActive: id == h.ActiveRubric, Locked: id == h.ActiveRubric && h.JudgingStarted()}
	for _, c := range rb.Criteria {
		v.Criteria = append(v.Criteria, criterionView{Key: c.Key, Name: c.Name, Weight: json.Number(c.Weight),
			Min: json.Number(c.Min), Max: json.Number(c.Max)})
	}
	return v, true
}

// merge applies the body to a rubric and names the fields it changed.
func (b rubricBody) merge(old hackathon.Rubric) (hackathon.Rubric, []string) {
	r := old
	var changed []string
	if b.Name != nil && *b.Name != old.Name {
		r.Name = *b.Name
		changed = append(changed, "name")
	}
	if b.Criteria != nil {
		r.Criteria = nil
		for _, c := range *b.Criteria {
			r.Criteria = append(r.Criteria, hackathon.Criterion{Key: c.Key, Name: c.Name, Weight: num(c.Weight), Min: num(c.Min), Max: num(c.Max)})
		}
		if r.Criteria == nil {
			r.Criteria = []hackathon.Criterion{}
		}
		changed = append(changed, "criteria")
	}
	if b.TieBreak != nil {
		r.TieBreak = *b.TieBreak
		changed = append(changed, "tie_break")
	}
	return r, changed
}

func (a *API) saveRubric(w http.ResponseWriter, r *http.Request, c caller, create bool) {
	var b rubricBody
	if err := httpx.DecodeJSON(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if b.IsActive != nil && !*b.IsActive {
		httpx.WriteError(w, r, kernel.Invalid("is_active", "true_only", "is_active can only be set to true: activate another rubric instead"))
		return
	}
	id := muxVar(r, "rubric_id")
	if create {
		id = cmd.NewID()
	}
	status := http.StatusOK
	if create {
		status = http.StatusCreated
	}
	err := a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) {
		rb, changed := b.merge(h.Rubrics[id])
		if !create && len(changed) > 0 {
			// A change of the criteria or ladder is decided on the whole
			// rubric, checked again.
			rb, err := rb.Normalize()
			if err != nil {
				return nil, err
			}
			if rubricsEqual(rb, h.Rubrics[id]) {
				changed = nil
			}
		}
		return h.SaveRubric(c.UserID, id, create, rb, changed, b.IsActive != nil && *b.IsActive, a.svc.Now())
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.writeRubric(w, r, c, status, id)
}

func rubricsEqual(a, b hackathon.Rubric) bool {
	return a.Name == b.Name && slices.Equal(a.Criteria, b.Criteria) && slices.Equal(a.TieBreak, b.TieBreak)
}

func (a *API) writeRubric(w http.ResponseWriter, r *http.Request, c caller, status int, id string) {
	var v rubricView
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		if id == "" {
			id = h.ActiveRubric
			if id == "" {
				return kernel.NotFound("the hackathon has no active rubric yet")
			}
		}
		var ok bool
		if v, ok = rubricOf(h, id); !ok {
			return hackathon.RubricNotFound(id)
		}
		return nil
	})
	writeJSON(w, r, status, v, err)
}

func (a *API) createRubric(w http.ResponseWriter, r *http.Request, c caller) {
	a.saveRubric(w, r, c, true)
}
func (a *API) patchRubric(w http.ResponseWriter, r *http.Request, c caller) {
	a.saveRubric(w, r, c, false)
}
func (a *API) getRubric(w http.ResponseWriter, r *http.Request, c caller) {
	a.writeRubric(w, r, c, http.StatusOK, muxVar(r, "rubric_id"))
}
func (a *API) activeRubric(w http.ResponseWriter, r *http.Request, c caller) {
	a.writeRubric(w, r, c, http.StatusOK, "")
}

func (a *API) listRubrics(w http.ResponseWriter, r *http.Request, c caller) {
	limit, offset, err := page(r)
	var all []rubricView
	if err == nil {
		err = a.view(r, c, func(h *hackathon.Hackathon) error {
			for _, id := range sortedKeys(h.Rubrics) {
				v, _ := rubricOf(h, id)
				all = append(all, v)
			}
			return nil
		})
	}
	writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
}

func (a *API) deleteRubric(w http.ResponseWriter, r *http.Request, c caller) {
	id := muxVar(r, "rubric_id")
	if err := a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return h.DeleteRubric(c.UserID, id, a.svc.Now()) }); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
