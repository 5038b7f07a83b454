package captable

import (
	"net/http"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

// command decodes a body into in (when in is not nil), runs decide on the
// caller's company, waits for the read model, and returns the caller.
func (a *API) command(w http.ResponseWriter, r *http.Request, in any, decide func(c *captable.Company) ([]kernel.Event, error)) (caller, bool) {
	c, _ := callerFrom(r.Context())
	if in != nil {
		if err := httpx.DecodeJSON(r, in); err != nil {
			httpx.WriteError(w, r, err)
			return c, false
		}
	}
	app, err := a.svc.Do(r.Context(), c.Company, decide)
	if err == nil {
		err = a.settled(r, app)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return c, false
	}
	return c, true
}

func (a *API) listStakeholders(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	data, total, err := proj.Stakeholders(r.Context(), a.db, c.Company, p)
	writeList(w, r, p, data, total, err)
}

func (a *API) getStakeholder(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Stakeholder(r.Context(), a.db, c.Company, id(r))
	writeOne(w, r, http.StatusOK, "stakeholder", v, err)
}

func (a *API) createStakeholder(w http.ResponseWriter, r *http.Request) {
	var in captable.StakeholderInput
	sid := a.svc.NewID()
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.AddStakeholder(sid, in, a.svc.Now()) })
	if ok {
		v, err := proj.Stakeholder(r.Context(), a.db, c.Company, sid)
		writeOne(w, r, http.StatusCreated, "stakeholder", v, err)
	}
}

func (a *API) updateStakeholder(w http.ResponseWriter, r *http.Request) {
	var in captable.StakeholderInput
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) {
		return co.UpdateStakeholder(id(r), in, a.svc.Now())
	})
	if ok {
		v, err := proj.Stakeholder(r.Context(), a.db, c.Company, id(r))
		writeOne(w, r, http.StatusOK, "stakeholder", v, err)
	}
}

func (a *API) deleteStakeholder(w http.ResponseWriter, r *http.Request) {
	if _, ok := a.command(w, r, nil, func(co *captable.Company) ([]kernel.Event, error) { return co.RemoveStakeholder(id(r), a.svc.Now()) }); ok {
		w.WriteHeader(http.StatusNoContent)
	}
}

func (a *API) listClasses(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	data, total, err := proj.Classes(r.Context(), a.db, c.Company, p)
	writeList(w, r, p, data, total, err)
}

func (a *API) getClass(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Class(r.Context(), a.db, c.Company, id(r))
	writeOne(w, r, http.StatusOK, "share class", v, err)
}

func (a *API) createClass(w http.ResponseWriter, r *http.Request) {
	var in captable.ClassInput
	cid := a.svc.NewID()
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.CreateClass(cid, in, a.svc.Now()) })
	if ok {
		v, err := proj.Class(r.Context(), a.db, c.Company, cid)
		writeOne(w, r, http.StatusCreated, "share class", v, err)
	}
}

func (a *API) updateClass(w http.ResponseWriter, r *http.Request) {
	var in captable.ClassInput
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.UpdateClass(id(r), in, a.svc.Now()) })
	if ok {
		v, err := proj.Class(r.Context(), a.db, c.Company, id(r))
		writeOne(w, r, http.StatusOK, "share class", v, err)
	}
}

func (a *API) listValuations(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	data, total, err := proj.Valuations(r.Context(), a.db, c.Company, p)
	writeList(w, r, p, data, total, err)
}

func (a *API) getValuation(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Valuation(r.Context(), a.db, c.Company, id(r))
	writeOne(w, r, http.StatusOK, "valuation", v, err)
}

func (a *API) latestValuation(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Valuation(r.Context(), a.db, c.Company, "")
	if err == proj.ErrNotFound {
		httpx.WriteError(w, r, kernel.NotFound("the company has no valuation yet"))
		return
	}
	writeOne(w, r, http.StatusOK, "valuation", v, err)
}

func (a *API) createValuation(w http.ResponseWriter, r *http.Request) {
	var in captable.ValuationInput
	vid := a.svc.NewID()
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.RecordValuation(vid, in, a.svc.Now()) })
	if ok {
		v, err := proj.Valuation(r.Context(), a.db, c.Company, vid)
		writeOne(w, r, http.StatusCreated, "valuation", v, err)
	}
}

func (a *API) listSAFEs(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	data, total, err := proj.SAFEs(r.Context(), a.db, c.Company, p)
	writeList(w, r, p, data, total, err)
}

func (a *API) getSAFE(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.SAFE(r.Context(), a.db, c.Company, id(r))
	writeOne(w, r, http.StatusOK, "SAFE", v, err)
}

func (a *API) createSAFE(w http.ResponseWriter, r *http.Request) {
	var in captable.SAFEInput
	sid := a.svc.NewID()
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.IssueSAFE(sid, in, a.today()) })
	if ok {
		v, err := proj.SAFE(r.Context(), a.db, c.Company, sid)
		writeOne(w, r, http.StatusCreated, "SAFE", v, err)
	}
}

func (a *API) updateSAFE(w http.ResponseWriter, r *http.Request) {
	var in captable.SAFEInput
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.UpdateSAFE(id(r), in, a.today()) })
	if ok {
		v, err := proj.SAFE(r.Context(), a.db, c.Company, id(r))
		writeOne(w, r, http.StatusOK, "SAFE", v, err)
	}
}

func (a *API) electMFN(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ElectedSAFEID string       `json:"electedSafeId"`
		ElectedOn     captable.Day `json:"electedOn"`
	}
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) {
		on := in.ElectedOn.Time
		if on.IsZero() {
			on = a.today()
		}
		return co.ElectMFN(id(r), in.ElectedSAFEID, on, a.today())
	})
	if ok {
		v, err := proj.SAFE(r.Context(), a.db, c.Company, id(r))
		writeOne(w, r, http.StatusOK, "SAFE", v, err)
	}
}
