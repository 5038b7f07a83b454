package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
)

// Role is a member's role in a company: owners and admins change the cap
// table, viewers read it, and only owners manage members.
type Role string

// The roles, most powerful first.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleViewer Role = "viewer"
)

// CanWrite reports whether the role may change the cap table.
func (r Role) CanWrite() bool { return r == RoleOwner || r == RoleAdmin }

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleOwner || r == RoleAdmin || r == RoleViewer }

// Stakeholder types.
const (
	StakeholderFounder     = "FOUNDER"
	StakeholderInvestor    = "INVESTOR"
	StakeholderEmployee    = "EMPLOYEE"
	StakeholderAdvisor     = "ADVISOR"
	StakeholderBoardMember = "BOARD_MEMBER"
)

// StakeholderTypes lists the stakeholder types.
var stakeholderTypes = []string{StakeholderFounder, StakeholderInvestor, StakeholderEmployee, StakeholderAdvisor, StakeholderBoardMember}

// Stakeholder is a person or entity that holds (or will hold) equity.
type Stakeholder struct {
	ID    string    `json:"stakeholderId"`
	Name  string    `json:"name"`
	Email string    `json:"email,omitempty"`
	Type  string    `json:"type"`
	Title string    `json:"title,omitempty"`
	At    time.Time `json:"at"`
}

// Share class types.
const (
	ClassCommon    = "COMMON"
	ClassPreferred = "PREFERRED"
	ClassPool      = "OPTIONS_POOL"
	ClassWarrant   = "WARRANT"
)

var classTypes = []string{ClassCommon, ClassPreferred, ClassPool, ClassWarrant}

// Anti-dilution protections of a preferred class.
const (
	AntiDilutionNone        = "NONE"
	AntiDilutionBroadBased  = "BROAD_BASED"
	AntiDilutionNarrowBased = "NARROW_BASED"
	AntiDilutionFullRatchet = "FULL_RATCHET"
)

var antiDilutions = []string{AntiDilutionNone, AntiDilutionBroadBased, AntiDilutionNarrowBased, AntiDilutionFullRatchet}

// Bases of NARROW_BASED weighted-average protection: what counts as A, the
// shares outstanding before the new issue. Definitions differ in practice,
// so a class names its own.
const (
	// AntiDilutionBaseOutstandingPreferred counts the preferred outstanding,
	// as converted (every preferred class). It is the default.
	AntiDilutionBaseOutstandingPreferred = "OUTSTANDING_PREFERRED"
	// AntiDilutionBaseOutstandingShares counts all outstanding shares, common
	// and preferred as converted, leaving out options, RSUs, warrants and the
	// unissued pool.
	AntiDilutionBaseOutstandingShares = "OUTSTANDING_SHARES"
)

var antiDilutionBases = []string{AntiDilutionBaseOutstandingPreferred, AntiDilutionBaseOutstandingShares}

// ShareClass is a class of stock, the option pool, or a warrant reserve.
// TotalShares is what is authorized (for the pool: its size). For preferred
// stock, PricePerShare is the original issue price, LiquidationPreference a
// multiple of it, ParticipationCap a multiple of it capping the total a
// participating class receives (zero: uncapped), and Seniority ranks the
// preferences (1 is paid first; equal ranks are pari passu).
// AntiDilutionBase is a NARROW_BASED class's base (an AntiDilutionBase...
// constant) and empty for every other protection; it was added to schema
// version 1 of the class events, so a class recorded before it has none,
// which NarrowBase reads as the default.
type ShareClass struct {
	ID                    string    `json:"shareClassId"`
	Name                  string    `json:"name"`
	Type                  string    `json:"type"`
	TotalShares           num.Num   `json:"totalShares"`
	PricePerShare         num.Num   `json:"pricePerShare"`
	LiquidationPreference num.Num   `json:"liquidationPreference"`
	ConversionRatio       num.Num   `json:"conversionRatio"`
	Participating         bool      `json:"participating"`
	ParticipationCap      num.Num   `json:"participationCap"`
	Seniority             int       `json:"seniority"`
	AntiDilution          string    `json:"antiDilution"`
	AntiDilutionBase      string    `json:"antiDilutionBase,omitempty"`
	At                    time.Time `json:"at"`
}

// NarrowBase is the base the class's NARROW_BASED protection counts:
// AntiDilutionBase, or AntiDilutionBaseOutstandingPreferred when none was
// recorded.
func (cl ShareClass) NarrowBase() string {
	if cl.AntiDilutionBase == "" {
		return AntiDilutionBaseOutstandingPreferred
	}
	return cl.AntiDilutionBase
}

// Grant types.
const (
	GrantOption          = "OPTION"
	GrantRSU             = "RSU"
	GrantWarrant         = "WARRANT"
	GrantRestrictedStock = "RESTRICTED_STOCK"
)

var grantTypes = []string{GrantOption, GrantRSU, GrantWarrant, GrantRestrictedStock}

// IsStock reports whether a grant type issues shares at grant (restricted
// stock) rather than a right to shares later (an award).
func IsStock(grantType string) bool { return grantType == GrantRestrictedStock }

// Grant statuses.
const (
	StatusPending            = "PENDING"
	StatusActive             = "ACTIVE"
	StatusPartiallyExercised = "PARTIALLY_EXERCISED"
	StatusExercised          = "EXERCISED"
	StatusTerminated         = "TERMINATED"
	StatusExpired            = "EXPIRED"
	StatusCancelled          = "CANCELLED"
)

// Grant is an equity grant's terms. Awards (options, RSUs, warrants) draw
// on ShareClassID (the pool or a warrant reserve) and, when exercised or
// settled, issue shares of UnderlyingShareClassID (a common class).
// Restricted stock is issued shares of ShareClassID from the grant date on;
// its vesting is the company's repurchase right lapsing.
type Grant struct {
	ID                     string            `json:"grantId"`
	GrantNumber            string            `json:"grantNumber"`
	StakeholderID          string            `json:"stakeholderId"`
	ShareClassID           string            `json:"shareClassId"`
	UnderlyingShareClassID string            `json:"underlyingShareClassId,omitempty"`
	GrantType              string            `json:"grantType"`
	Quantity               num.Num           `json:"quantity"`
	StrikePrice            num.Num           `json:"strikePrice"`
	VestingSchedule        vesting.Kind      `json:"vestingSchedule"`
	VestingStartDate       time.Time         `json:"vestingStartDate"`
	VestingRounding        vesting.Rounding  `json:"vestingRounding"`
	Tranches               []vesting.Tranche `json:"tranches,omitempty"`
	GrantDate              time.Time         `json:"grantDate"`
	ExpirationDate         *time.Time        `json:"expirationDate,omitempty"`
	ExerciseWindowDays     int               `json:"exerciseWindowDays"`
	Notes                  string            `json:"notes,omitempty"`
}

// Schedule returns the grant's vesting schedule.
func (g Grant) Schedule() vesting.Schedule {
	return vesting.Schedule{Kind: g.VestingSchedule, Start: g.VestingStartDate, Quantity: g.Quantity,
		Rounding: g.VestingRounding, Tranches: g.Tranches}
}

// SAFE types.
const (
	SAFEPreMoney  = "PRE_MONEY"
	SAFEPostMoney = "POST_MONEY"
	SAFEMFN       = "MFN"
)

var safeTypes = []string{SAFEPreMoney, SAFEPostMoney, SAFEMFN}

// SAFETerms are the conversion terms of a SAFE: a valuation cap (zero: none)
// and a discount rate as a fraction (0.2 for 20%; zero: none).
type SAFETerms struct {
	ValuationCap num.Num `json:"valuationCap"`
	DiscountRate num.Num `json:"discountRate"`
	SafeType     string  `json:"safeType"`
}

// SAFE is a simple agreement for future equity.
type SAFE struct {
	ID               string  `json:"safeId"`
	InvestorID       string  `json:"investorId"`
	InvestmentAmount num.Num `json:"investmentAmount"`
	SAFETerms
	IssueDate time.Time `json:"issueDate"`
	Notes     string    `json:"notes,omitempty"`
}

// Valuation is a valuation of the company's common stock.
type Valuation struct {
	ID            string    `json:"valuationId"`
	ValuationDate time.Time `json:"valuationDate"`
	Methodology   string    `json:"methodology"`
	PricePerShare num.Num   `json:"pricePerShare"`
	Notes         string    `json:"notes,omitempty"`
	At            time.Time `json:"at"`
}
