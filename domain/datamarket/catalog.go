package datamarket

import (
	"hash/fnv"
	"net/netip"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// The five metros of the SMB directory, by key.
var Metros = []string{"nyc", "sf", "la", "seattle", "austin"}

// Infrastructures a domain record may carry: the seed's five, Vercel,
// "other" (resolved, matched nothing known) and "unknown" (not looked up
// or could not be). The filter takes every one of them.
var Infrastructures = []string{"AWS", "Cloudflare", "Google Cloud", "Azure", "GoDaddy", "Vercel", "other", "unknown"}

// Web3EntityTypes are the seed's web3 entity types.
var Web3EntityTypes = []string{"bitcoin_mining", "blockchain_startup", "stablecoin", "consulting", "bitcoin_atm", "regulation", "legislator_champion"}

// ParcelCities are the seed's parcel city filter values.
var ParcelCities = []string{"SANTA CRUZ", "WATSONVILLE", "APTOS", "SCOTTS VALLEY", "CAPITOLA"}

// Catalog lists every dataset, public ones first in the seed's order.
func Catalog() []*Dataset { return catalog }

// Lookup returns the dataset of a key.
func Lookup(key string) (*Dataset, bool) {
	for _, d := range catalog {
		if d.Key == key {
			return d, true
		}
	}
	return nil, false
}

// Keys lists the datasets' keys.
func Keys() []string {
	out := make([]string, len(catalog))
	for i, d := range catalog {
		out[i] = d.Key
	}
	return out
}

var catalog = []*Dataset{smbDirectory, whoisEnrichment, montanaLivestock, montanaWeb3, scParcels,
	ipRanges("aws", "AWS"), ipRanges("google", "Google Cloud"), ipRanges("azure", "Azure"), ipRanges("cloudflare", "Cloudflare")}

var smbDirectory = &Dataset{
	Key: "smb-directory", Path: "/smb-directory", Title: "SMB directory",
	Description: "Small and medium businesses in five US metro areas (New York, San Francisco, Los Angeles, Seattle, Austin) with category, NAICS code and a technology flag.",
	Keywords:    []string{"businesses", "smb", "directory", "naics"},
	Spatial:     "New York NY, San Francisco CA, Los Angeles CA, Seattle WA, Austin TX (United States)",
	Columns: []Column{
		{Name: "business_name", Type: Text, Required: true, MaxLen: 200, Description: "the business's name"},
		{Name: "category", Type: Text, MaxLen: 120, Description: "the business's category as the source gives it"},
		{Name: "city", Type: Text, Required: true, MaxLen: 100, Description: "the city"},
		{Name: "state", Type: Text, Required: true, Normalize: strings.ToUpper, Check: checkState, Description: "two-letter US state or territory code"},
		{Name: "is_tech", Type: Bool, Default: "false", Description: "a technology business"},
		{Name: "naics", Type: Text, Check: checkNAICS, Description: "a 2017 NAICS code (2 to 6 digits)"},
		{Name: "phone", Type: Text, MaxLen: 40, Description: "phone number"},
		{Name: "website", Type: Text, MaxLen: 300, Description: "website address"},
		{Name: "city_key", Type: Text, Required: true, Derived: true, Normalize: strings.ToLower, Enum: Metros,
			Description: "the metro key (nyc, sf, la, seattle, austin); derived from city and state for the five cities themselves, else given in the file"},
		{Name: "industry", Type: Text, Derived: true, Description: "the /seed industry the NAICS code falls in (saas, ecommerce, finance, healthcare, realestate), or null"},
		{Name: "business_key", Type: Text, Derived: true, Hidden: true},
		{Name: "business_hash", Type: Int, Derived: true, Hidden: true},
	},
	Search:   []string{"business_name", "category"},
	Filters:  []Filter{{Param: "city", Column: "city_key", Values: Metros}, {Param: "tech_only", Column: "is_tech", Flag: true}},
	Facets:   []string{"city_key", "is_tech", "industry"},
	Indexes:  []Index{{Columns: []string{"city_key"}}, {Columns: []string{"industry"}}, {Columns: []string{"business_hash"}}},
	Envelope: "data", Refresh: "0 2 * * 0", Periodicity: "R/P1W", Public: true,
	Derive: deriveSMB,
}

var whoisEnrichment = &Dataset{
	Key: "whois-enrichment", Path: "/whois-enrichment", Title: "Domain (WHOIS) enrichment",
	Description: "Domains with the organisation behind them, registrar, hosting infrastructure, age and country; enrichment records the evidence of each looked-up value.",
	Keywords:    []string{"domains", "whois", "rdap", "infrastructure"},
	Columns: []Column{
		{Name: "domain", Type: Text, Required: true, MaxLen: 253, Normalize: normalizeDomain, Check: checkDomain, Description: "a registrable domain name"},
		{Name: "org_name", Type: Text, MaxLen: 200, Description: "the organisation the domain belongs to"},
		{Name: "registrar", Type: Text, MaxLen: 200, Description: "the registrar"},
		{Name: "infrastructure", Type: Text, Enum: Infrastructures, Default: "unknown", Normalize: normalizeInfrastructure, Description: "hosting: AWS, Cloudflare, Google Cloud, Azure, GoDaddy, Vercel, other or unknown"},
		{Name: "domain_age_days", Type: Int, Min: 0, Max: 40000, Description: "days since registration"},
		{Name: "country", Type: Text, Normalize: strings.ToUpper, Check: checkCountry, Description: "ISO 3166-1 alpha-2 country code"},
		{Name: "evidence", Type: JSON, Description: "what each enriched value was read from (enrichment versions)"},
		{Name: "org_key", Type: Text, Derived: true, Hidden: true},
	},
	Search:   []string{"domain", "org_name", "registrar"},
	Filters:  []Filter{{Param: "infrastructure", Column: "infrastructure", Values: Infrastructures}},
	Facets:   []string{"infrastructure"},
	Indexes:  []Index{{Columns: []string{"infrastructure"}}, {Columns: []string{"org_key"}, Using: "hash"}, {Columns: []string{"domain"}, Using: "hash"}},
	Unique:   "domain",
	Envelope: "data", Refresh: "0 3 * * 3", Periodicity: "R/P1W", Public: true,
	Derive: func(r Row) { r[7] = orgKey(r[1]) },
}

var montanaLivestock = &Dataset{
	Key: "montana-livestock", Path: "/montana/livestock", Title: "Montana livestock markets",
	Description: "Livestock auction markets in Montana with location, sale schedule and whether each is an acquisition target.",
	Keywords:    []string{"livestock", "auction", "montana", "agriculture"},
	Spatial:     "Montana, United States",
	Columns: []Column{
		{Name: "name", Type: Text, Required: true, MaxLen: 200, Description: "the market's name"},
		{Name: "city", Type: Text, MaxLen: 100, Description: "city"},
		{Name: "county", Type: Text, MaxLen: 100, Description: "county"},
		{Name: "address", Type: Text, MaxLen: 300, Description: "street address"},
		{Name: "phone", Type: Text, MaxLen: 40, Description: "phone number"},
		{Name: "website", Type: Text, MaxLen: 300, Description: "website address"},
		{Name: "sale_schedule", Type: Text, MaxLen: 200, Description: "when sales are held"},
		{Name: "species", Type: Text, MaxLen: 200, Description: "livestock sold (cattle, sheep, horses…)"},
		{Name: "acquisition_target", Type: Bool, Default: "false", Description: "flagged as an acquisition target"},
		{Name: "notes", Type: Text, MaxLen: 2000, Description: "notes"},
	},
	Search:   []string{"name", "city", "county", "species"},
	Filters:  []Filter{{Param: "acquisition_targets_only", Column: "acquisition_target", Flag: true}},
	Facets:   []string{"acquisition_target"},
	Envelope: "records", Refresh: "0 4 * * 0", Periodicity: "R/P1W", Public: true,
}

var montanaWeb3 = &Dataset{
	Key: "montana-web3", Path: "/montana/web3", Title: "Montana web3 entities",
	Description: "Web3 organisations and actors in Montana: bitcoin mining, blockchain startups, stablecoins, consulting, bitcoin ATMs, regulation and legislative champions.",
	Keywords:    []string{"web3", "blockchain", "bitcoin", "montana"},
	Spatial:     "Montana, United States",
	Columns: []Column{
		{Name: "name", Type: Text, Required: true, MaxLen: 200, Description: "the entity's name"},
		{Name: "entity_type", Type: Text, Required: true, Normalize: strings.ToLower, Enum: Web3EntityTypes, Description: "one of " + strings.Join(Web3EntityTypes, ", ")},
		{Name: "city", Type: Text, MaxLen: 100, Description: "city"},
		{Name: "website", Type: Text, MaxLen: 300, Description: "website address"},
		{Name: "description", Type: Text, MaxLen: 2000, Description: "what the entity does"},
		{Name: "source_url", Type: Text, MaxLen: 500, Description: "where the entry was found"},
	},
	Search:   []string{"name", "city", "description"},
	Filters:  []Filter{{Param: "entity_type", Column: "entity_type", Values: Web3EntityTypes}},
	Facets:   []string{"entity_type"},
	Envelope: "records", Refresh: "30 4 * * 0", Periodicity: "R/P1W", Public: true,
}

var scParcels = &Dataset{
	Key: "sc-county-parcels", Path: "/sc-county/parcels", Title: "Santa Cruz County parcels",
	Description: "Assessor parcels of Santa Cruz County, California: parcel number, situs address, city, land use and assessed values.",
	Keywords:    []string{"parcels", "assessor", "real estate", "santa cruz"},
	Spatial:     "Santa Cruz County, California, United States",
	Columns: []Column{
		{Name: "apn", Type: Text, Required: true, MaxLen: 20, Description: "assessor's parcel number"},
		{Name: "situs_address", Type: Text, MaxLen: 300, Description: "the parcel's street address"},
		{Name: "city", Type: Text, MaxLen: 100, Normalize: strings.ToUpper, Description: "situs city, upper case (SANTA CRUZ, WATSONVILLE, …)"},
		{Name: "use_type", Type: Text, MaxLen: 100, Description: "land use description"},
		{Name: "use_code", Type: Text, MaxLen: 20, Description: "land use code"},
		{Name: "acreage", Type: Float, Min: 0, Max: 1e7, Description: "area in acres"},
		{Name: "land_value", Type: Int, Min: 0, Max: 1e13, Description: "assessed land value, USD"},
		{Name: "improvement_value", Type: Int, Min: 0, Max: 1e13, Description: "assessed improvement value, USD"},
		{Name: "year_built", Type: Int, Min: 1600, Max: 2200, Description: "year the main structure was built"},
		{Name: "zoning", Type: Text, MaxLen: 50, Description: "zoning designation"},
	},
	Search:   []string{"apn", "situs_address", "use_type"},
	Filters:  []Filter{{Param: "city", Column: "city", Values: ParcelCities}, {Param: "use_type", Column: "use_type"}},
	Facets:   []string{"city"},
	Indexes:  []Index{{Columns: []string{"city"}}, {Columns: []string{"use_type"}}},
	Unique:   "apn",
	Envelope: "records", Refresh: "0 5 1 * *", Periodicity: "R/P1M", Public: true,
}

// ipRanges is a cloud provider's published address ranges, imported from
// the provider's official format; enrichment matches addresses to them.
func ipRanges(key, provider string) *Dataset {
	return &Dataset{
		Key: "ip-ranges-" + key, Title: provider + " IP ranges",
		Description: provider + "'s published IP address ranges, imported from its official format; used by domain enrichment.",
		Keywords:    []string{"ip ranges", "cloud", strings.ToLower(provider)},
		Columns: []Column{
			{Name: "prefix", Type: Text, Required: true, MaxLen: 50, Check: checkPrefix, Description: "an IPv4 or IPv6 prefix (CIDR)"},
			{Name: "service", Type: Text, MaxLen: 200, Description: "the provider's service name"},
			{Name: "region", Type: Text, MaxLen: 100, Description: "the provider's region"},
		},
		Envelope: "data",
	}
}

// KeyHash is the 64-bit FNV-1a hash of a lookup key (a normalized
// organisation name), stored beside it: an index of integers builds
// several times faster than one of text.
func KeyHash(key string) int64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int64(h.Sum64())
}

// deriveSMB fills city_key (from the city for the five cities
// themselves), industry and the lookup key.
func deriveSMB(r Row) {
	if r[8] == nil {
		if k := metroOf(r[2], r[3]); k != "" {
			r[8] = k
		}
	}
	if code, ok := r[5].(string); ok {
		for _, ind := range industries {
			if len(ind.NAICS) > 0 && ind.Matches(code) {
				r[9] = ind.Key
				break
			}
		}
	}
	r[10] = orgKey(r[0])
	if k, ok := r[10].(string); ok {
		r[11] = KeyHash(k)
	}
}

// metroCities are the city names (lower case, with their state) read as
// one of the five metros; any other city needs city_key in the file.
var metroCities = map[string]string{
	"new york|NY": "nyc", "new york city|NY": "nyc", "nyc|NY": "nyc", "manhattan|NY": "nyc", "brooklyn|NY": "nyc",
	"queens|NY": "nyc", "bronx|NY": "nyc", "the bronx|NY": "nyc", "staten island|NY": "nyc",
	"san francisco|CA": "sf", "los angeles|CA": "la", "seattle|WA": "seattle", "austin|TX": "austin",
}

func metroOf(city, state any) string {
	c, _ := city.(string)
	s, _ := state.(string)
	return metroCities[strings.ToLower(c)+"|"+s]
}

func orgKey(v any) any {
	s, _ := v.(string)
	if k := NormalizeOrgName(s); k != "" {
		return k
	}
	return nil
}

func normalizeDomain(s string) string { return strings.TrimSuffix(strings.ToLower(s), ".") }

func checkDomain(s string) (string, string) {
	if _, err := netip.ParseAddr(s); err == nil {
		return "domain", "domain must be a domain name, not an IP address"
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "domain", "domain must be a domain name (labels of letters, digits and hyphens), got " + clip(s)
		}
		for _, ch := range label {
			if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '-') {
				return "domain", "domain must be a domain name in ASCII (punycode for IDNs), got " + clip(s)
			}
		}
	}
	if _, err := publicsuffix.EffectiveTLDPlusOne(s); err != nil {
		return "domain", "domain must be under a public suffix (a registrable domain), got " + clip(s)
	}
	return "", ""
}

func normalizeInfrastructure(s string) string {
	for _, v := range Infrastructures {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return s
}

func checkNAICS(s string) (string, string) {
	if !ValidNAICS(s) {
		return "naics", "naics must be a 2017 NAICS code of 2 to 6 digits, got " + clip(s)
	}
	return "", ""
}

func checkPrefix(s string) (string, string) {
	if _, err := netip.ParsePrefix(s); err != nil {
		return "cidr", "prefix must be an IP prefix such as 192.0.2.0/24, got " + clip(s)
	}
	return "", ""
}

func checkState(s string) (string, string) {
	if !usStates[s] {
		return "state", "state must be a two-letter US state or territory code (USPS), got " + clip(s)
	}
	return "", ""
}

func checkCountry(s string) (string, string) {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return "country", "country must be an ISO 3166-1 alpha-2 code such as US, got " + clip(s)
	}
	return "", ""
}

var usStates = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI") {
		m[s] = true
	}
	return m
}()
