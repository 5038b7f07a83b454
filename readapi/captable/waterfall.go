package captable

import (
	"net/http"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/waterfall"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

type classPayout struct {
	ShareClassID  string  `json:"shareClassId"`
	Name          string  `json:"name"`
	Converted     bool    `json:"converted"`
	CapReached    bool    `json:"capReached"`
	Preference    num.Num `json:"preference"`
	Participation num.Num `json:"participation"`
	Total         num.Num `json:"total"`
	PerShare      num.Num `json:"perShare"`
}

type holderPayout struct {
	StakeholderID string             `json:"stakeholderId"`
	Name          string             `json:"name"`
	Total         num.Num            `json:"total"`
	TotalRounded  string             `json:"totalRounded"`
	ByClass       map[string]num.Num `json:"bySecurity"`
}

type breakpoint struct {
	ExitValue    num.Num `json:"exitValue"`
	ShareClassID string  `json:"shareClassId,omitempty"`
	Event        string  `json:"event"`
}

type waterfallBody struct {
	CompanyID        string         `json:"companyId"`
	AsOfDate         captable.Day   `json:"asOfDate"`
	ExitValue        num.Num        `json:"exitValue"`
	TransactionCosts num.Num        `json:"transactionCosts"`
	Debt             num.Num        `json:"debt"`
	Distributed      num.Num        `json:"distributedToEquity"`
	PerCommonShare   num.Num        `json:"perCommonShare"`
	Classes          []classPayout  `json:"classes"`
	Holders          []holderPayout `json:"holders"`
	Breakpoints      []breakpoint   `json:"breakpoints,omitempty"`
	// Round is the modeled round applied before the exit, if any.
	Round *captable.Committed `json:"round,omitempty"`
}

func (a *API) waterfall(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	var in captable.WaterfallInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	day := a.today()
	input, names, round, err := a.exitInput(r, c.Company, day, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := waterfall.Run(input)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	b := waterfallBody{CompanyID: c.Company, AsOfDate: captable.DayOf(day), ExitValue: res.ExitValue, TransactionCosts: res.TransactionCosts,
		Debt: res.Debt, Distributed: res.Distributed, PerCommonShare: res.PerCommonShare, Classes: []classPayout{}, Holders: []holderPayout{}, Round: round}
	for _, cp := range res.Classes {
		b.Classes = append(b.Classes, classPayout{ShareClassID: cp.ID, Name: cp.Name, Converted: cp.Converted, CapReached: cp.CapReached,
			Preference: cp.Preference, Participation: cp.Participation, Total: cp.Total, PerShare: cp.PerShare})
	}
	totals := make([]num.Num, len(res.Holders))
	for i, h := range res.Holders {
		totals[i] = h.Total
	}
	rounded := waterfall.RoundCents(totals)
	for i, h := range res.Holders {
		b.Holders = append(b.Holders, holderPayout{StakeholderID: h.HolderID, Name: names[h.HolderID], Total: h.Total,
			TotalRounded: rounded[i].Fixed(2), ByClass: h.ByClass})
	}
	if in.IncludeBreakpoints == nil || *in.IncludeBreakpoints {
		max := num.Max(in.ExitValue.Mul(num.Int(4)), num.Int(1))
		if in.MaxExitValue != nil {
			if in.MaxExitValue.Sign() <= 0 {
				httpx.WriteError(w, r, kernel.Invalid("maxExitValue", "positive", "maxExitValue must be greater than 0"))
				return
			}
			max = *in.MaxExitValue
		}
		bps, err := waterfall.Breakpoints(input, max)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		for _, bp := range bps {
			b.Breakpoints = append(b.Breakpoints, breakpoint{ExitValue: bp.ExitValue, ShareClassID: bp.ClassID, Event: bp.Event})
		}
	}
	writeJSON(w, r, http.StatusOK, b)
}

// exitInput builds the waterfall's input from the caller's company today,
// after closing the modeled round on a private replay when one is given.
func (a *API) exitInput(r *http.Request, company string, day time.Time, in captable.WaterfallInput) (
	input waterfall.Input, names map[string]string, round *captable.Committed, err error) {
	names = map[string]string{}
	build := func(co *captable.Company) error {
		var err error
		input, err = co.ExitInput(day, in)
		for id, s := range co.Stakeholders {
			names[id] = s.Name
		}
		return err
	}
	if in.Round == nil {
		err = a.svc.View(r.Context(), company, build)
		return
	}
	co, err := a.svc.Replay(r.Context(), company, time.Time{}, time.Time{})
	if err != nil {
		return
	}
	res, err := co.ApplyRound(*in.Round, day)
	if err != nil {
		return
	}
	round = &res
	err = build(co)
	return
}
