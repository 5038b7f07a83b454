package captable

import (
	"net/http"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// commitBody is POST /cap-table/dilution/commit's response: what the
// closing recorded and the stream version it recorded it at.
type commitBody struct {
	CompanyID string `json:"companyId"`
	captable.Committed
	Recorded bool  `json:"committed"`
	Version  int64 `json:"version"`
}

// commitRound turns a modeled round into events, all in one append: the
// new series, the pool increase, the investors' and converting SAFEs'
// stock, anti-dilution adjustments and the round itself.
func (a *API) commitRound(w http.ResponseWriter, r *http.Request) {
	var in captable.CommitInput
	var out captable.Committed
	c, _ := callerFrom(r.Context())
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	app, err := a.svc.Do(r.Context(), c.Company, func(co *captable.Company) ([]kernel.Event, error) {
		evs, res, err := co.CloseRound(in, a.svc.NewID, a.today())
		out = res
		return evs, err
	})
	if err == nil {
		err = a.settled(r, app)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusCreated, commitBody{CompanyID: c.Company, Committed: out, Recorded: true, Version: app.ToVersion})
}
