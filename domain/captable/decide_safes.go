package captable

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// SAFEInput is the body of a SAFE create or update. valuationCap 0 or
// absent means no cap; discountRate is a fraction (0.2 for 20%), 0 or
// absent meaning none.
type SAFEInput struct {
	InvestorID       string   `json:"investorId"`
	InvestmentAmount num.Num  `json:"investmentAmount"`
	ValuationCap     *num.Num `json:"valuationCap"`
	DiscountRate     *num.Num `json:"discountRate"`
	SafeType         string   `json:"safeType"`
	IssueDate        Day      `json:"issueDate"`
	Notes            string   `json:"notes"`
}

func (c *Company) safeFrom(id string, in SAFEInput, today time.Time) (SAFE, error) {
	s := SAFE{ID: id, InvestorID: in.InvestorID, InvestmentAmount: in.InvestmentAmount,
		SAFETerms: SAFETerms{SafeType: in.SafeType}, IssueDate: in.IssueDate.Time, Notes: strings.TrimSpace(in.Notes)}
	if in.ValuationCap != nil {
		s.ValuationCap = *in.ValuationCap
	}
	if in.DiscountRate != nil {
		s.DiscountRate = *in.DiscountRate
	}
	if in.InvestorID == "" {
		return s, kernel.Invalid("investorId", "required", "investorId is required (a stakeholder id)")
	}
	if _, err := c.Stakeholder(in.InvestorID); err != nil {
		return s, kernel.Invalid("investorId", "exists", "investorId names no stakeholder of this company")
	}
	if err := positive("investmentAmount", s.InvestmentAmount); err != nil {
		return s, err
	}
	if err := nonNegative("valuationCap", s.ValuationCap); err != nil {
		return s, err
	}
	if s.DiscountRate.Sign() < 0 || !s.DiscountRate.Less(num.Int(1)) {
		return s, kernel.Invalid("discountRate", "fraction", "discountRate must be a fraction from 0 up to (not including) 1, e.g. 0.2 for 20%")
	}
	if err := oneOf("safeType", s.SafeType, safeTypes); err != nil {
		return s, err
	}
	return s, dateRequired("issueDate", s.IssueDate, today)
}

// IssueSAFE records a SAFE.
func (c *Company) IssueSAFE(id string, in SAFEInput, today time.Time) ([]kernel.Event, error) {
	s, err := c.safeFrom(id, in, today)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&SAFEIssued{s}}, nil
}

// SAFE returns a SAFE or a not-found error.
func (c *Company) SAFE(id string) (*SAFEState, error) {
	s := c.SAFEs[id]
	if s == nil {
		return nil, notFound("SAFE", id)
	}
	return s, nil
}

// UpdateSAFE changes an unconverted SAFE; absent fields keep their values.
func (c *Company) UpdateSAFE(id string, in SAFEInput, today time.Time) ([]kernel.Event, error) {
	cur, err := c.SAFE(id)
	if err != nil {
		return nil, err
	}
	if cur.Converted != nil {
		return nil, kernel.Invalid("safeId", "converted", "a converted SAFE cannot change")
	}
	merged := SAFEInput{InvestorID: cur.InvestorID, InvestmentAmount: cur.InvestmentAmount, SafeType: cur.SafeType,
		IssueDate: DayOf(cur.IssueDate), Notes: cur.Notes}
	capv, disc := cur.ValuationCap, cur.DiscountRate
	merged.ValuationCap, merged.DiscountRate = &capv, &disc
	if in.InvestorID != "" {
		merged.InvestorID = in.InvestorID
	}
	if !in.InvestmentAmount.IsZero() {
		merged.InvestmentAmount = in.InvestmentAmount
	}
	if in.ValuationCap != nil {
		merged.ValuationCap = in.ValuationCap
	}
	if in.DiscountRate != nil {
		merged.DiscountRate = in.DiscountRate
	}
	if in.SafeType != "" {
		merged.SafeType = in.SafeType
	}
	if !in.IssueDate.IsZero() {
		merged.IssueDate = in.IssueDate
	}
	if in.Notes != "" {
		merged.Notes = in.Notes
	}
	s, err := c.safeFrom(id, merged, today)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&SAFEUpdated{s}}, nil
}

// ElectMFN records an MFN SAFE holder's election of a later SAFE's terms:
// the elected SAFE must be another unconverted SAFE of the company issued
// on or after the MFN SAFE, and the election is dated on.
func (c *Company) ElectMFN(id, electedID string, on, today time.Time) ([]kernel.Event, error) {
	s, err := c.SAFE(id)
	if err != nil {
		return nil, err
	}
	if s.SafeType != SAFEMFN {
		return nil, kernel.Invalid("safeType", "mfn_only", "only an MFN SAFE can elect another SAFE's terms")
	}
	if s.Converted != nil {
		return nil, kernel.Invalid("safeId", "converted", "a converted SAFE cannot elect terms")
	}
	other := c.SAFEs[electedID]
	if other == nil || electedID == id {
		return nil, kernel.Invalid("electedSafeId", "exists", "electedSafeId must name another SAFE of this company")
	}
	if other.IssueDate.Before(s.IssueDate) {
		return nil, kernel.Invalid("electedSafeId", "later_safe", "an MFN SAFE may elect only the terms of a SAFE issued on or after it")
	}
	if err := dateRequired("electedOn", on, today); err != nil {
		return nil, err
	}
	if err := notBeforeRule("electedOn", on, "not_before_elected_issue_date", "the elected SAFE's issueDate", other.IssueDate); err != nil {
		return nil, err
	}
	return []kernel.Event{&MFNElected{SAFEID: id, ElectedSAFEID: electedID, Terms: other.Effective(), On: on}}, nil
}

// ValuationInput is the body of a valuation.
type ValuationInput struct {
	ValuationDate Day     `json:"valuationDate"`
	Methodology   string  `json:"methodology"`
	PricePerShare num.Num `json:"pricePerShare"`
	Notes         string  `json:"notes"`
}

// RecordValuation records a valuation of the common stock.
func (c *Company) RecordValuation(id string, in ValuationInput, now time.Time) ([]kernel.Event, error) {
	if err := dateRequired("valuationDate", in.ValuationDate.Time, DayOf(now).Time); err != nil {
		return nil, err
	}
	m := strings.TrimSpace(in.Methodology)
	if err := required("methodology", m); err != nil {
		return nil, err
	}
	if len(m) > 64 {
		return nil, kernel.Invalid("methodology", "max_length", "methodology must be at most 64 characters (e.g. 409A, INCOME_APPROACH)")
	}
	if err := positive("pricePerShare", in.PricePerShare); err != nil {
		return nil, err
	}
	if len(in.Notes) > 4000 {
		return nil, kernel.Invalid("notes", "max_length", "notes must be at most 4000 characters")
	}
	return []kernel.Event{&ValuationRecorded{Valuation{ID: id, ValuationDate: in.ValuationDate.Time, Methodology: m,
		PricePerShare: in.PricePerShare, Notes: in.Notes, At: now}}}, nil
}
