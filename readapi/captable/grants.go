package captable

import (
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

func (a *API) listGrants(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	p, err := page(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f := proj.GrantFilter{StakeholderID: r.URL.Query().Get("stakeholderId"), Status: r.URL.Query().Get("status")}
	data, total, err := proj.Grants(r.Context(), a.db, c.Company, f, p, a.today())
	writeList(w, r, p, data, total, err)
}

func (a *API) getGrant(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	v, err := proj.Grant(r.Context(), a.db, c.Company, id(r), a.today())
	writeOne(w, r, http.StatusOK, "equity grant", v, err)
}

// grantDone answers a grant command with the grant as it now reads.
func (a *API) grantDone(w http.ResponseWriter, r *http.Request, c caller, gid string, status int) {
	v, err := proj.Grant(r.Context(), a.db, c.Company, gid, a.today())
	writeOne(w, r, status, "equity grant", v, err)
}

func (a *API) createGrant(w http.ResponseWriter, r *http.Request) {
	var in captable.GrantInput
	gid := a.svc.NewID()
	if c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) { return co.IssueGrant(gid, in, a.today()) }); ok {
		a.grantDone(w, r, c, gid, http.StatusCreated)
	}
}

// grantUpdate is the body of PUT /equity-grants/{id}: new terms for a
// pending grant, or a status move (ACTIVE accepts, CANCELLED cancels,
// TERMINATED terminates on terminationDate).
type grantUpdate struct {
	captable.GrantInput
	Status             string       `json:"status"`
	TerminationDate    captable.Day `json:"terminationDate"`
	EffectiveDate      captable.Day `json:"effectiveDate"`
	CancellationReason string       `json:"cancellationReason"`
}

func (a *API) updateGrant(w http.ResponseWriter, r *http.Request) {
	var in grantUpdate
	c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) {
		on := in.EffectiveDate.Time
		if on.IsZero() {
			on = a.today()
		}
		switch in.Status {
		case "":
			return co.UpdateGrant(id(r), in.GrantInput, a.today())
		case captable.StatusActive:
			return co.Accept(id(r), on, a.today())
		case captable.StatusCancelled:
			return co.Cancel(id(r), in.CancellationReason, on, a.today())
		case captable.StatusTerminated:
			t := in.TerminationDate.Time
			if t.IsZero() {
				t = on
			}
			return co.Terminate(id(r), t, in.ExerciseWindowDays, a.today())
		}
		return nil, kernel.Invalid("status", "one_of", "status may be set to ACTIVE, CANCELLED or TERMINATED; exercises use POST /equity-grants/{id}/exercise")
	})
	if ok {
		a.grantDone(w, r, c, id(r), http.StatusOK)
	}
}

func (a *API) acceptGrant(w http.ResponseWriter, r *http.Request) {
	var in struct {
		AcceptedOn captable.Day `json:"acceptedOn"`
	}
	if err := optionalBody(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if c, ok := a.command(w, r, nil, func(co *captable.Company) ([]kernel.Event, error) {
		return co.Accept(id(r), a.or(in.AcceptedOn), a.today())
	}); ok {
		a.grantDone(w, r, c, id(r), http.StatusOK)
	}
}

func (a *API) exerciseGrant(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Quantity     num.Num      `json:"quantity"`
		ExerciseDate captable.Day `json:"exerciseDate"`
	}
	if c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) {
		return co.Exercise(id(r), in.Quantity, a.or(in.ExerciseDate), a.today())
	}); ok {
		a.grantDone(w, r, c, id(r), http.StatusOK)
	}
}

func (a *API) terminateGrant(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TerminationDate    captable.Day `json:"terminationDate"`
		ExerciseWindowDays *int         `json:"exerciseWindowDays"`
	}
	if c, ok := a.command(w, r, &in, func(co *captable.Company) ([]kernel.Event, error) {
		return co.Terminate(id(r), a.or(in.TerminationDate), in.ExerciseWindowDays, a.today())
	}); ok {
		a.grantDone(w, r, c, id(r), http.StatusOK)
	}
}

func (a *API) cancelGrant(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CancellationDate captable.Day `json:"cancellationDate"`
		Reason           string       `json:"reason"`
	}
	if err := optionalBody(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if c, ok := a.command(w, r, nil, func(co *captable.Company) ([]kernel.Event, error) {
		return co.Cancel(id(r), in.Reason, a.or(in.CancellationDate), a.today())
	}); ok {
		a.grantDone(w, r, c, id(r), http.StatusOK)
	}
}

// optionalBody decodes a body when there is one (none means defaults); a
// bad one is refused like any other.
func optionalBody(r *http.Request, dst any) error {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	return httpx.DecodeJSON(r, dst)
}

// or is the day given, or today.
func (a *API) or(d captable.Day) time.Time {
	if d.IsZero() {
		return a.today()
	}
	return d.Time
}

type vestingBody struct {
	GrantID         string        `json:"grantId"`
	AsOf            captable.Day  `json:"asOf"`
	Quantity        num.Num       `json:"quantity"`
	VestingSchedule string        `json:"vestingSchedule"`
	VestingRounding string        `json:"vestingRounding"`
	VestingStart    captable.Day  `json:"vestingStartDate"`
	FullyVestedDate captable.Day  `json:"fullyVestedDate"`
	Vested          num.Num       `json:"vestedQuantity"`
	Unvested        num.Num       `json:"unvestedQuantity"`
	Forfeited       num.Num       `json:"forfeitedQuantity"`
	Exercised       num.Num       `json:"exercisedQuantity"`
	TerminatedOn    captable.Day  `json:"terminatedOn"`
	Installments    []installment `json:"installments"`
}

// installment is a vesting installment with a calendar date.
type installment struct {
	Date       captable.Day `json:"date"`
	Quantity   num.Num      `json:"quantity"`
	Cumulative num.Num      `json:"cumulativeVested"`
}

func (a *API) grantVesting(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	asOf, err := dayParam(r, "asOf")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if asOf.IsZero() {
		asOf = a.today()
	}
	g, err := proj.Grant(r.Context(), a.db, c.Company, id(r), asOf)
	if err != nil {
		writeOne(w, r, http.StatusOK, "equity grant", g, err)
		return
	}
	s := g.Schedule()
	b := vestingBody{GrantID: g.ID, AsOf: captable.DayOf(asOf), Quantity: g.Quantity, VestingSchedule: g.VestingSchedule,
		VestingRounding: g.VestingRounding, VestingStart: g.VestingStartDate, FullyVestedDate: g.FullyVestedDate,
		Exercised: g.ExercisedQuantity, TerminatedOn: g.TerminatedOn, Installments: []installment{}}
	for _, in := range s.Installments() {
		b.Installments = append(b.Installments, installment{Date: captable.DayOf(in.Date), Quantity: in.Quantity, Cumulative: in.Cumulative})
	}
	b.Vested = g.VestedQuantity
	if !g.TerminatedOn.IsZero() && !asOf.Before(g.TerminatedOn.Time) {
		b.Forfeited = g.ForfeitedQuantity
	}
	b.Unvested = g.Quantity.Sub(b.Vested).Sub(b.Forfeited)
	writeJSON(w, r, http.StatusOK, b)
}
