package voice

import (
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Number types (the seed's).
const (
	TypeLocal    = "local"
	TypeTollFree = "toll_free"
	TypeMobile   = "mobile"
)

// Routing types of inbound calls.
const (
	RouteIVR     = "ivr"
	RouteQueue   = "queue"
	RouteForward = "forward"
)

// Number is one number of the inventory, folded from its stream.
type Number struct {
	ID, Phone, Country, NumberType, Region, Provider string
	Capabilities                                     []string
	Tenant                                           string // the owner; empty while available
	FriendlyName                                     string
	Routing                                          *Routing
	ImportedAt, PurchasedAt                          time.Time
}

// Exists reports whether the number was imported.
func (n *Number) Exists() bool { return n.ID != "" }

// Apply folds one event into the number.
func (n *Number) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *NumberImported:
		*n = Number{ID: e.NumberID, Phone: e.Phone, Country: e.Country, NumberType: e.NumberType, Region: e.Region,
			Provider: e.Provider, Capabilities: e.Capabilities, ImportedAt: e.At}
	case *NumberPurchased:
		n.Tenant, n.FriendlyName, n.PurchasedAt, n.Routing = e.Tenant, e.FriendlyName, e.At, nil
	case *NumberConfigured:
		if e.FriendlyName != "" {
			n.FriendlyName = e.FriendlyName
		}
		if e.Routing != nil {
			r := *e.Routing
			n.Routing = &r
		}
	case *NumberReleased:
		n.Tenant, n.FriendlyName, n.Routing, n.PurchasedAt = "", "", nil, time.Time{}
	}
}

// OwnedBy reports whether tenant holds the number.
func (n *Number) OwnedBy(tenant string) bool { return n.Exists() && tenant != "" && n.Tenant == tenant }

// CheckNumberType refuses a type other than local, toll_free and mobile.
func CheckNumberType(field, v string) error {
	switch v {
	case TypeLocal, TypeTollFree, TypeMobile:
		return nil
	case "":
		return kernel.Invalid(field, "required", field+" is required")
	}
	return kernel.Invalid(field, "enum:local,toll_free,mobile", field+" must be one of local, toll_free, mobile")
}

// CheckCountry refuses a country that is not an ISO 3166-1 alpha-2 code
// in upper case.
func CheckCountry(field, v string) error {
	if v == "" {
		return kernel.Invalid(field, "required", field+" is required")
	}
	if len(v) != 2 || v[0] < 'A' || v[0] > 'Z' || v[1] < 'A' || v[1] > 'Z' {
		return kernel.Invalid(field, "iso3166_alpha2", field+" must be an ISO 3166-1 alpha-2 country code such as US or GB")
	}
	return nil
}

// Import decides adding a number to the inventory; one already imported
// makes nothing.
func (n *Number) Import(e NumberImported) ([]kernel.Event, error) {
	if n.Exists() {
		return nil, nil
	}
	if err := CheckE164("phone_number", e.Phone); err != nil {
		return nil, err
	}
	if err := CheckCountry("country", e.Country); err != nil {
		return nil, err
	}
	if err := CheckNumberType("number_type", e.NumberType); err != nil {
		return nil, err
	}
	return []kernel.Event{&e}, nil
}

// Purchase decides assigning the number to tenant: only an available
// number can be bought (409 otherwise; one the tenant holds already makes
// nothing).
func (n *Number) Purchase(tenant, friendly, by string, at time.Time) ([]kernel.Event, error) {
	if !n.Exists() {
		return nil, kernel.NotFound("phone_number is not in the number inventory")
	}
	if n.Tenant == tenant {
		return nil, nil
	}
	if n.Tenant != "" {
		return nil, kernel.Conflict("phone_number is not available", nil)
	}
	friendly = strings.TrimSpace(friendly)
	if err := CheckText("friendly_name", friendly, 0, 64); err != nil {
		return nil, err
	}
	return []kernel.Event{&NumberPurchased{NumberID: n.ID, Tenant: tenant, FriendlyName: friendly, By: by, At: at}}, nil
}

// Configure decides a partial change of name and routing by the owner.
func (n *Number) Configure(tenant, friendly string, routing *Routing, by string, at time.Time) ([]kernel.Event, error) {
	if !n.OwnedBy(tenant) {
		return nil, kernel.NotFound("number not found")
	}
	friendly = strings.TrimSpace(friendly)
	if err := CheckText("friendly_name", friendly, 0, 64); err != nil {
		return nil, err
	}
	if routing != nil {
		switch routing.Type {
		case RouteIVR, RouteQueue, RouteForward, RouteVoicemail:
		case "":
			return nil, kernel.Invalid("routing.type", "required", "routing.type is required")
		default:
			return nil, kernel.Invalid("routing.type", "enum:ivr,queue,forward,voicemail", "routing.type must be one of ivr, queue, forward, voicemail")
		}
		if routing.Type == RouteForward {
			if err := CheckE164("routing.target_id", routing.TargetID); err != nil {
				return nil, err
			}
		} else if err := CheckText("routing.target_id", routing.TargetID, 0, 100); err != nil {
			return nil, err
		}
		if routing.Type == RouteIVR {
			if err := CheckMenu(routing.Menu); err != nil {
				return nil, err
			}
		} else if len(routing.Menu) > 0 {
			return nil, kernel.Invalid("routing.menu", "ivr_only", "routing.menu is for routing.type ivr")
		}
	}
	if friendly == "" && routing == nil {
		return nil, kernel.Invalid("friendly_name", "required", "give friendly_name or routing to change")
	}
	return []kernel.Event{&NumberConfigured{NumberID: n.ID, FriendlyName: friendly, Routing: routing, By: by, At: at}}, nil
}

// Release decides returning the owner's number to the inventory.
func (n *Number) Release(tenant, by string, at time.Time) ([]kernel.Event, error) {
	if !n.OwnedBy(tenant) {
		return nil, kernel.NotFound("number not found")
	}
	return []kernel.Event{&NumberReleased{NumberID: n.ID, Tenant: tenant, By: by, At: at}}, nil
}
