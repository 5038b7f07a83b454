package hackathon

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/hackathon"
	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

func muxVar(r *http.Request, name string) string { return mux.Vars(r)[name] }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// textBody is the body of the track, prize, team and submission routes:
// each present string field goes into the patch.
type textBody struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Color       *string `json:"color"`
	Amount      *number `json:"amount"`
	Currency    *string `json:"currency"`
	TrackID     *string `json:"track_id"`
	TeamID      *string `json:"team_id"`
	ProjectName *string `json:"project_name"`
}

func (b textBody) patch(allowed ...string) (hackathon.TextPatch, error) {
	p := hackathon.TextPatch{}
	set := func(name string, v *string) error {
		if v == nil {
			return nil
		}
		if !slices.Contains(allowed, name) {
			return kernel.Invalid(name, "unknown_field", name+" is not a field of this resource")
		}
		p[name] = *v
		return nil
	}
	var amount *string
	if b.Amount != nil {
		s := b.Amount.String()
		amount = &s
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"name", b.Name}, {"description", b.Description}, {"color", b.Color}, {"amount", amount}, {"currency", b.Currency},
		{"track_id", b.TrackID}, {"team_id", b.TeamID}, {"project_name", b.ProjectName}} {
		if err := set(f.name, f.v); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func decodePatch(r *http.Request, allowed ...string) (hackathon.TextPatch, error) {
	var b textBody
	if err := httpx.DecodeJSON(r, &b); err != nil {
		return nil, err
	}
	return b.patch(allowed...)
}

// trackView is a track as the API shows it.
type trackView struct {
	ID          string `json:"id"`
	HackathonID string `json:"hackathon_id"`
	hackathon.Track
}

// prizeView is a prize as the API shows it; amount is a number.
type prizeView struct {
	ID          string       `json:"id"`
	HackathonID string       `json:"hackathon_id"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Amount      *json.Number `json:"amount"`
	Currency    *string      `json:"currency"`
	TrackID     *string      `json:"track_id"`
}

func prizeOf(h *hackathon.Hackathon, id string, p hackathon.Prize) prizeView {
	v := prizeView{ID: id, HackathonID: h.ID, Name: p.Name, Description: p.Description}
	if p.Amount != "" {
		n := json.Number(p.Amount)
		v.Amount = &n
	}
	if p.Currency != "" {
		v.Currency = &p.Currency
	}
	if p.TrackID != "" {
		v.TrackID = &p.TrackID
	}
	return v
}

// resource serves the create, list, get, patch and delete routes of a
// sub-resource kept in the hackathon's fold (tracks, prizes).
type resourceDef[V any] struct {
	fields []string
	create func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error)
	patch  func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error)
	del    func(h *hackathon.Hackathon, by, id string) ([]kernel.Event, error)
	view   func(h *hackathon.Hackathon, id string) (V, bool)
	ids    func(h *hackathon.Hackathon) []string
	param  string
	notFnd func(id string) error
}

func (res resourceDef[V]) write(a *API, w http.ResponseWriter, r *http.Request, c caller, status int, id string) {
	var v V
	err := a.view(r, c, func(h *hackathon.Hackathon) error {
		var ok bool
		if v, ok = res.view(h, id); !ok {
			return res.notFnd(id)
		}
		return nil
	})
	writeJSON(w, r, status, v, err)
}

func (res resourceDef[V]) handlers(a *API) (create, list, get, patch, del func(http.ResponseWriter, *http.Request, caller)) {
	create = func(w http.ResponseWriter, r *http.Request, c caller) {
		p, err := decodePatch(r, res.fields...)
		id := cmd.NewID()
		if err == nil {
			err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return res.create(h, c.UserID, id, p) })
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		res.write(a, w, r, c, http.StatusCreated, id)
	}
	list = func(w http.ResponseWriter, r *http.Request, c caller) {
		limit, offset, err := page(r)
		var all []V
		if err == nil {
			err = a.view(r, c, func(h *hackathon.Hackathon) error {
				for _, id := range res.ids(h) {
					v, _ := res.view(h, id)
					all = append(all, v)
				}
				return nil
			})
		}
		writeJSON(w, r, http.StatusOK, pageOf(all, limit, offset), err)
	}
	get = func(w http.ResponseWriter, r *http.Request, c caller) {
		res.write(a, w, r, c, http.StatusOK, muxVar(r, res.param))
	}
	patch = func(w http.ResponseWriter, r *http.Request, c caller) {
		id := muxVar(r, res.param)
		p, err := decodePatch(r, res.fields...)
		if err == nil {
			err = a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return res.patch(h, c.UserID, id, p) })
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		res.write(a, w, r, c, http.StatusOK, id)
	}
	del = func(w http.ResponseWriter, r *http.Request, c caller) {
		id := muxVar(r, res.param)
		if err := a.do(r, c, func(h *hackathon.Hackathon) ([]kernel.Event, error) { return res.del(h, c.UserID, id) }); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
	return
}

func (a *API) tracks() resourceDef[trackView] {
	now := a.svc.Now
	return resourceDef[trackView]{fields: []string{"name", "description", "color"}, param: "track_id", notFnd: hackathon.TrackNotFound,
		create: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.SaveTrack(by, id, true, p, now())
		},
		patch: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.SaveTrack(by, id, false, p, now())
		},
		del: func(h *hackathon.Hackathon, by, id string) ([]kernel.Event, error) {
			return h.DeleteTrack(by, id, now())
		},
		view: func(h *hackathon.Hackathon, id string) (trackView, bool) {
			t, ok := h.Tracks[id]
			return trackView{ID: id, HackathonID: h.ID, Track: t}, ok
		},
		ids: func(h *hackathon.Hackathon) []string { return sortedKeys(h.Tracks) },
	}
}

func (a *API) prizes() resourceDef[prizeView] {
	now := a.svc.Now
	return resourceDef[prizeView]{fields: []string{"name", "description", "amount", "currency", "track_id"}, param: "prize_id",
		notFnd: func(id string) error { return kernel.NotFound("prize " + id + " not found in this hackathon") },
		create: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.SavePrize(by, id, true, p, now())
		},
		patch: func(h *hackathon.Hackathon, by, id string, p hackathon.TextPatch) ([]kernel.Event, error) {
			return h.SavePrize(by, id, false, p, now())
		},
		del: func(h *hackathon.Hackathon, by, id string) ([]kernel.Event, error) {
			return h.DeletePrize(by, id, now())
		},
		view: func(h *hackathon.Hackathon, id string) (prizeView, bool) {
			p, ok := h.Prizes[id]
			return prizeOf(h, id, p), ok
		},
		ids: func(h *hackathon.Hackathon) []string { return sortedKeys(h.Prizes) },
	}
}
