package captable

import (
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/captable"
	"github.com/strata-platform/strata/readapi/httpx"
)

// defaultTop is how many stakeholders GET /cap-table lists by default.
const defaultTop = 10

// summaryBody is GET /cap-table: the seed's fields plus provenance.
type summaryBody struct {
	CompanyID         string                `json:"companyId"`
	AsOfDate          captable.Day          `json:"asOfDate"`
	KnownAt           *time.Time            `json:"knownAt,omitempty"`
	Source            string                `json:"source"` // "projection" or "replay"
	TotalAuthorized   num.Num               `json:"totalAuthorizedShares"`
	TotalIssued       num.Num               `json:"totalIssuedShares"`
	FullyDiluted      num.Num               `json:"fullyDilutedShares"`
	OutstandingAwards num.Num               `json:"outstandingAwards"`
	UnallocatedPool   num.Num               `json:"unallocatedPool"`
	ShareClasses      []captable.ClassLine  `json:"shareClasses"`
	TopStakeholders   []captable.HolderLine `json:"topStakeholders"`
}

func bodyOf(s captable.Summary, source string, knownAt time.Time, top int) summaryBody {
	b := summaryBody{CompanyID: s.CompanyID, AsOfDate: captable.DayOf(s.AsOf), Source: source, TotalAuthorized: s.TotalAuthorized,
		TotalIssued: s.TotalIssued, FullyDiluted: s.FullyDiluted, OutstandingAwards: s.OutstandingAwards,
		UnallocatedPool: s.UnallocatedPool, ShareClasses: s.Classes, TopStakeholders: s.Holders}
	if !knownAt.IsZero() {
		b.KnownAt = &knownAt
	}
	if b.ShareClasses == nil {
		b.ShareClasses = []captable.ClassLine{}
	}
	if top > 0 && len(b.TopStakeholders) > top {
		b.TopStakeholders = b.TopStakeholders[:top]
	}
	if b.TopStakeholders == nil {
		b.TopStakeholders = []captable.HolderLine{}
	}
	return b
}

// asOf reads asOfDate and knownAt; replay reports whether either was given.
func (a *API) asOf(r *http.Request) (day, knownAt time.Time, replay bool, err error) {
	if day, err = dayParam(r, "asOfDate"); err != nil {
		return
	}
	if knownAt, err = instantParam(r, "knownAt"); err != nil {
		return
	}
	replay = !day.IsZero() || !knownAt.IsZero()
	if day.IsZero() {
		day = a.today()
	}
	return
}

func (a *API) capTable(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	top := defaultTop
	if v := r.URL.Query().Get("top"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			httpx.WriteError(w, r, kernel.Invalid("top", "range:1-1000", "top must be a whole number from 1 to 1000"))
			return
		}
		top = n
	}
	day, knownAt, replay, err := a.asOf(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !replay {
		s, err := proj.Summary(r.Context(), a.db, c.Company, day, top)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		writeJSON(w, r, http.StatusOK, bodyOf(s, "projection", time.Time{}, top))
		return
	}
	co, err := a.svc.Replay(r.Context(), c.Company, day, knownAt)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, bodyOf(co.Summary(day), "replay", knownAt, top))
}

// fullyDilutedBody is GET /cap-table/fully-diluted: every holder with every
// security it holds.
type fullyDilutedBody struct {
	summaryBody
	// TopStakeholders hides the summary's list: Holders has every holder.
	TopStakeholders *struct{}          `json:"topStakeholders,omitempty"`
	Holders         []holderSecurities `json:"holders"`
}

type holderSecurities struct {
	captable.HolderLine
	Securities []captable.Security `json:"securities"`
}

func (a *API) fullyDiluted(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	// Every holder with every security: always a fold of the store (the
	// read model keeps totals, not per-security lines).
	day, knownAt, _, err := a.asOf(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	co, err := a.svc.Replay(r.Context(), c.Company, day, knownAt)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s := co.Summary(day)
	b := fullyDilutedBody{summaryBody: bodyOf(s, "replay", knownAt, 0), Holders: []holderSecurities{}}
	secs := co.Securities(day)
	for _, h := range s.Holders {
		b.Holders = append(b.Holders, holderSecurities{HolderLine: h, Securities: secs[h.ID]})
	}
	writeJSON(w, r, http.StatusOK, b)
}

func (a *API) dilution(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	var in captable.DilutionInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	// The model is solved outside the company's lock (the search can be
	// long with many capped SAFEs); the adjustments read the company again.
	var round rounds.Round
	day := a.today()
	err := a.svc.View(r.Context(), c.Company, func(co *captable.Company) error {
		round = co.RoundInput(day, in)
		return nil
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := captable.SolveRound(round)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var adj []captable.AdjustedClass
	err = a.svc.View(r.Context(), c.Company, func(co *captable.Company) error {
		var err error
		adj, err = co.Adjustments(day, res)
		return err
	})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	extra := num.Zero
	for _, x := range adj {
		extra = extra.Add(x.AdditionalShares)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"companyId": c.Company, "asOfDate": captable.DayOf(a.today()),
		"roundSize": in.RoundSize, "preMoneyValuation": in.PreMoneyValuation, "newShareClassName": in.NewShareClassName,
		"pricingConvention": conventionOf(in.PricingConvention), "result": res, "committed": false,
		"antiDilution": adj, "newClassOwnershipAfterAdjustments": res.NewSharesExact.Div(res.PostMoneySharesExact.Add(extra))})
}

func conventionOf(c string) string {
	if c == "" {
		return rounds.DefaultConvention
	}
	return c
}
