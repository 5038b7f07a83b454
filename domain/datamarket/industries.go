package datamarket

import (
	"slices"
	"strings"
)

// Industry is one of the industries /seed takes and /industries lists. A
// business belongs to it when its NAICS code starts with one of the
// prefixes; general has none and holds every business.
type Industry struct {
	Key         string   `json:"key"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	NAICS       []string `json:"naics"`
}

// The prefixes, from the 2017 NAICS table (naics2017.tsv). Where a code's
// title is the same at the 4-, 5- and 6-digit levels the shortest is used,
// so that a business coded only to the industry group matches too.
//
//   - saas: 5112 Software Publishers; 5182 Data Processing, Hosting, and
//     Related Services (cloud and hosted services); 541511 Custom Computer
//     Programming Services and 541512 Computer Systems Design Services (the
//     rest of 54151, facilities management and other computer services, is
//     IT service work, not software products).
//   - ecommerce: 4541 Electronic Shopping and Mail-Order Houses, the retail
//     of goods sold online (NAICS 2017 has no online-only code).
//   - finance: 52 Finance and Insurance, the whole sector.
//   - healthcare: 621 Ambulatory Health Care Services, 622 Hospitals, 623
//     Nursing and Residential Care Facilities; sector 62 also holds 624
//     Social Assistance (child day care, food banks), which is not health
//     care.
//   - realestate: 531 Real Estate (lessors, agents and brokers, property
//     managers, appraisers); the rest of sector 53 is renting out cars,
//     equipment and intangible assets.
var industries = []Industry{
	{"saas", "SaaS and software", "Software publishers, hosting and data processing, custom programming and systems design.",
		[]string{"5112", "5182", "541511", "541512"}},
	{"ecommerce", "E-commerce", "Retailers selling online or by mail order.",
		[]string{"4541"}},
	{"finance", "Finance and insurance", "Banks, lenders, payment processors, investment firms and insurers.",
		[]string{"52"}},
	{"healthcare", "Health care", "Clinics, physicians and dentists, labs, home health, hospitals and nursing care.",
		[]string{"621", "622", "623"}},
	{"realestate", "Real estate", "Property lessors, real estate agents and brokers, property managers and appraisers.",
		[]string{"531"}},
	{"general", "General", "Every business, whatever its industry.",
		nil},
}

// Industries returns the industries in the order saas, ecommerce, finance,
// healthcare, realestate, general. The slice is the caller's to change.
func Industries() []Industry {
	out := make([]Industry, len(industries))
	for i, in := range industries {
		in.NAICS = slices.Clone(in.NAICS)
		out[i] = in
	}
	return out
}

// IndustryByKey finds an industry by its key, ignoring case and surrounding
// spaces.
func IndustryByKey(k string) (Industry, bool) {
	k = strings.ToLower(strings.TrimSpace(k))
	for _, in := range Industries() {
		if in.Key == k {
			return in, true
		}
	}
	return Industry{}, false
}

// Matches reports whether a business with the NAICS code naics belongs to
// the industry. General matches every business, with or without a code;
// any other industry matches only a valid code (ValidNAICS) that starts
// with one of its prefixes.
func (i Industry) Matches(naics string) bool {
	if len(i.NAICS) == 0 {
		return true
	}
	if !ValidNAICS(naics) {
		return false
	}
	for _, p := range i.NAICS {
		if strings.HasPrefix(naics, p) {
			return true
		}
	}
	return false
}
