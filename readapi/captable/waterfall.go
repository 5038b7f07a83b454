package captable

import (
	"net/http"

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
}

func (a *API) waterfall(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	var in captable.WaterfallInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	day := a.today()
	var input waterfall.Input
	names := map[string]string{}
	err := a.svc.View(r.Context(), c.Company, func(co *captable.Company) error {
		var err error
		input, err = co.ExitInput(day, in)
		for id, s := range co.Stakeholders {
			names[id] = s.Name
		}
		return err
	})
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
		Debt: res.Debt, Distributed: res.Distributed, PerCommonShare: res.PerCommonShare, Classes: []classPayout{}, Holders: []holderPayout{}}
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
