// Package captable is the cap table's domain: the company aggregate (its
// stakeholders, share classes, equity grants, SAFEs and valuations), the
// decisions that turn commands into events, and the fold that turns events
// back into a cap table at any date. It computes from values, never from
// rows; the calculators live in its subpackages (num, vesting, rounds,
// waterfall).
//
// Dates: every event that changes who holds what carries its business date
// (Dated), and a cap table "as of" a day is the fold of the events whose
// business date is on or before that day. Reference data (the company,
// members, stakeholders, share class terms, documents) is not dated: it is
// applied whatever the day, so an as-of view still names its holders.
package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/domain/kernel"
)

// StreamCompany is the stream type of a company: every cap-table fact of
// one company is on its stream, so one optimistic version check covers the
// rules that span resources (pool availability, unique emails, numbering).
const StreamCompany = "captable.company"

// CompanyCreated opens a company's stream.
type CompanyCreated struct {
	CompanyID string    `json:"companyId"`
	Name      string    `json:"name"`
	CreatedBy string    `json:"createdBy"`
	At        time.Time `json:"at"`
}

// MemberAdded gives an account a role in the company (or changes it).
type MemberAdded struct {
	AccountID string    `json:"accountId"`
	Role      Role      `json:"role"`
	At        time.Time `json:"at"`
}

// StakeholderAdded records a new stakeholder.
type StakeholderAdded struct {
	Stakeholder
}

// StakeholderUpdated replaces a stakeholder's details.
type StakeholderUpdated struct {
	Stakeholder
}

// StakeholderRemoved removes a stakeholder that holds nothing.
type StakeholderRemoved struct {
	StakeholderID string    `json:"stakeholderId"`
	At            time.Time `json:"at"`
}

// ShareClassCreated records a class of stock (or the option pool, or a
// warrant reserve) with its terms.
type ShareClassCreated struct {
	ShareClass
}

// ShareClassUpdated replaces a class's terms. It is reference data (it
// applies whatever the day) unless EffectiveDate is set: an update of a
// class that dated events have changed (a round's authorization, an
// anti-dilution adjustment) carries their results in its terms, so it takes
// effect on the day it was made, and an as-of view before that day keeps
// the class as it stood.
type ShareClassUpdated struct {
	ShareClass
	EffectiveDate *time.Time `json:"effectiveDate,omitempty"`
}

// GrantIssued records an equity grant on its grant date.
type GrantIssued struct {
	Grant
}

// GrantUpdated replaces the terms of a grant that is still pending.
type GrantUpdated struct {
	Grant
}

// GrantAccepted: the holder accepted the grant (PENDING -> ACTIVE).
type GrantAccepted struct {
	GrantID string    `json:"grantId"`
	On      time.Time `json:"acceptedOn"`
}

// GrantExercised: Quantity units were exercised (options, warrants) or
// settled (RSUs) on On; common shares of ShareClassID were issued and
// StrikePaid was paid.
type GrantExercised struct {
	GrantID      string    `json:"grantId"`
	Quantity     num.Num   `json:"quantity"`
	StrikePaid   num.Num   `json:"strikePaid"`
	ShareClassID string    `json:"shareClassId"`
	On           time.Time `json:"exercisedOn"`
}

// GrantTerminated: the holder's service ended on On. Unvested units are
// forfeited (returned to the pool for awards, repurchased for restricted
// stock); vested awards stay exercisable until the window ends.
type GrantTerminated struct {
	GrantID string `json:"grantId"`
	vesting.Termination
}

// GrantExpired: units still unexercised after the exercise window (or the
// grant's expiration date) lapsed and went back to the pool.
type GrantExpired struct {
	GrantID  string    `json:"grantId"`
	Quantity num.Num   `json:"quantity"`
	On       time.Time `json:"expiredOn"`
}

// GrantCancelled: every outstanding unit was cancelled (returned to the pool
// for awards, to the class's unissued shares for stock).
type GrantCancelled struct {
	GrantID  string    `json:"grantId"`
	Quantity num.Num   `json:"quantity"`
	Reason   string    `json:"reason,omitempty"`
	On       time.Time `json:"cancelledOn"`
}

// SAFEIssued records a SAFE on its issue date.
type SAFEIssued struct {
	SAFE
}

// SAFEUpdated replaces the terms of an unconverted SAFE.
type SAFEUpdated struct {
	SAFE
}

// MFNElected: an MFN SAFE's holder elected the terms of a later SAFE.
type MFNElected struct {
	SAFEID        string    `json:"safeId"`
	ElectedSAFEID string    `json:"electedSafeId"`
	Terms         SAFETerms `json:"terms"`
	On            time.Time `json:"electedOn"`
}

// SAFEConverted: a SAFE converted into Shares of ShareClassID at Price in a
// priced round.
type SAFEConverted struct {
	SAFEID       string    `json:"safeId"`
	RoundID      string    `json:"roundId"`
	ShareClassID string    `json:"shareClassId"`
	GrantID      string    `json:"grantId"` // the stock issuance holding the shares
	Shares       num.Num   `json:"shares"`
	Price        num.Num   `json:"price"`
	Basis        string    `json:"basis"`
	On           time.Time `json:"convertedOn"`
}

// ValuationRecorded records a valuation (a 409A, a priced round...).
type ValuationRecorded struct {
	Valuation
}

// RoundClosed records a priced round committed from a model: its class,
// price and figures. The stock issuances, conversions and pool increase
// are their own events in the same append.
type RoundClosed struct {
	RoundID           string  `json:"roundId"`
	Name              string  `json:"name"`
	ShareClassID      string  `json:"shareClassId"`
	Price             num.Num `json:"price"`
	RoundSize         num.Num `json:"roundSize"`
	PreMoneyValuation num.Num `json:"preMoneyValuation"`
	// PostMoneyValuation is the model's post-money (price times the post-
	// round fully diluted shares, to the cent); zero in rounds recorded
	// before it was kept.
	PostMoneyValuation num.Num   `json:"postMoneyValuation"`
	PoolIncrease       num.Num   `json:"poolIncrease"`
	Convention         string    `json:"convention"`
	On                 time.Time `json:"closedOn"`
	// ConventionNaming says which names Convention uses:
	// ConventionNamingCooley, or 0 in rounds recorded before issue 19, whose
	// PRE_MONEY and PERCENT_OWNERSHIP were swapped. Read the convention with
	// PricingConvention. (Additive field of schema version 1.)
	ConventionNaming int `json:"conventionNaming,omitempty"`
}

// SharesAuthorized: a class's authorized shares grew by Increase on On (a
// round's new series and its pool increase). Unlike a class update, which is
// reference data, it is dated, so the cap table before the closing does not
// show the new authorization.
type SharesAuthorized struct {
	ShareClassID string    `json:"shareClassId"`
	RoundID      string    `json:"roundId,omitempty"`
	Increase     num.Num   `json:"increase"`
	On           time.Time `json:"authorizedOn"`
}

// ConversionAdjusted: anti-dilution protection changed a preferred class's
// conversion ratio because of a round priced below its conversion price.
type ConversionAdjusted struct {
	ShareClassID       string    `json:"shareClassId"`
	RoundID            string    `json:"roundId"`
	OldConversionPrice num.Num   `json:"oldConversionPrice"`
	NewConversionPrice num.Num   `json:"newConversionPrice"`
	NewConversionRatio num.Num   `json:"newConversionRatio"`
	On                 time.Time `json:"adjustedOn"`
}

// OccurredAt implementations: the business date of dated events.
func (e GrantIssued) OccurredAt() time.Time        { return e.GrantDate }
func (e GrantUpdated) OccurredAt() time.Time       { return e.GrantDate }
func (e GrantAccepted) OccurredAt() time.Time      { return e.On }
func (e GrantExercised) OccurredAt() time.Time     { return e.On }
func (e GrantTerminated) OccurredAt() time.Time    { return e.On }
func (e GrantExpired) OccurredAt() time.Time       { return e.On }
func (e GrantCancelled) OccurredAt() time.Time     { return e.On }
func (e SAFEIssued) OccurredAt() time.Time         { return e.IssueDate }
func (e SAFEUpdated) OccurredAt() time.Time        { return e.IssueDate }
func (e MFNElected) OccurredAt() time.Time         { return e.On }
func (e SAFEConverted) OccurredAt() time.Time      { return e.On }
func (e ValuationRecorded) OccurredAt() time.Time  { return e.ValuationDate }
func (e RoundClosed) OccurredAt() time.Time        { return e.On }
func (e ConversionAdjusted) OccurredAt() time.Time { return e.On }
func (e SharesAuthorized) OccurredAt() time.Time   { return e.On }

// OccurredAt is the update's effective date, zero (undated) when unset.
func (e ShareClassUpdated) OccurredAt() time.Time {
	if e.EffectiveDate == nil {
		return time.Time{}
	}
	return *e.EffectiveDate
}

// EventType implementations: stable names, never derived from Go types.
func (CompanyCreated) EventType() string     { return "captable.company_created" }
func (MemberAdded) EventType() string        { return "captable.member_added" }
func (StakeholderAdded) EventType() string   { return "captable.stakeholder_added" }
func (StakeholderUpdated) EventType() string { return "captable.stakeholder_updated" }
func (StakeholderRemoved) EventType() string { return "captable.stakeholder_removed" }
func (ShareClassCreated) EventType() string  { return "captable.share_class_created" }
func (ShareClassUpdated) EventType() string  { return "captable.share_class_updated" }
func (GrantIssued) EventType() string        { return "captable.grant_issued" }
func (GrantUpdated) EventType() string       { return "captable.grant_updated" }
func (GrantAccepted) EventType() string      { return "captable.grant_accepted" }
func (GrantExercised) EventType() string     { return "captable.grant_exercised" }
func (GrantTerminated) EventType() string    { return "captable.grant_terminated" }
func (GrantExpired) EventType() string       { return "captable.grant_expired" }
func (GrantCancelled) EventType() string     { return "captable.grant_cancelled" }
func (SAFEIssued) EventType() string         { return "captable.safe_issued" }
func (SAFEUpdated) EventType() string        { return "captable.safe_updated" }
func (MFNElected) EventType() string         { return "captable.mfn_elected" }
func (SAFEConverted) EventType() string      { return "captable.safe_converted" }
func (ValuationRecorded) EventType() string  { return "captable.valuation_recorded" }
func (RoundClosed) EventType() string        { return "captable.round_closed" }
func (ConversionAdjusted) EventType() string { return "captable.conversion_adjusted" }
func (SharesAuthorized) EventType() string   { return "captable.shares_authorized" }

// CompanyEvents returns a constructor for every company event (schema
// version 1).
func CompanyEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &CompanyCreated{} },
		func() kernel.Event { return &MemberAdded{} },
		func() kernel.Event { return &StakeholderAdded{} },
		func() kernel.Event { return &StakeholderUpdated{} },
		func() kernel.Event { return &StakeholderRemoved{} },
		func() kernel.Event { return &ShareClassCreated{} },
		func() kernel.Event { return &ShareClassUpdated{} },
		func() kernel.Event { return &GrantIssued{} },
		func() kernel.Event { return &GrantUpdated{} },
		func() kernel.Event { return &GrantAccepted{} },
		func() kernel.Event { return &GrantExercised{} },
		func() kernel.Event { return &GrantTerminated{} },
		func() kernel.Event { return &GrantExpired{} },
		func() kernel.Event { return &GrantCancelled{} },
		func() kernel.Event { return &SAFEIssued{} },
		func() kernel.Event { return &SAFEUpdated{} },
		func() kernel.Event { return &MFNElected{} },
		func() kernel.Event { return &SAFEConverted{} },
		func() kernel.Event { return &ValuationRecorded{} },
		func() kernel.Event { return &RoundClosed{} },
		func() kernel.Event { return &ConversionAdjusted{} },
		func() kernel.Event { return &SharesAuthorized{} },
		func() kernel.Event { return &DocumentUploaded{} },
		func() kernel.Event { return &DocumentDeleted{} },
		func() kernel.Event { return &ReportGenerated{} },
	}
}
