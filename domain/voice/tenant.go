package voice

import (
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Listing is a party's entry on the do-not-call list.
type Listing struct {
	Since  time.Time
	Source string
	Reason string
}

// Tenant is a tenant's voice settings and lists, folded from its stream.
type Tenant struct {
	ID string
	// DNC maps a party (blind index) to its listing.
	DNC map[string]Listing
	// HoursOff is true when the tenant turned the calling-hours guard off.
	HoursOff bool
	// Erased counts each party's erasures (its key generation).
	Erased map[string]int
}

// Apply folds one event into the tenant.
func (t *Tenant) Apply(ev kernel.Event) {
	if t.DNC == nil {
		t.DNC, t.Erased = map[string]Listing{}, map[string]int{}
	}
	switch e := ev.(type) {
	case *DNCAdded:
		t.ID = e.Tenant
		t.DNC[e.Party] = Listing{Since: e.At, Source: e.Source, Reason: e.Reason}
	case *DNCRemoved:
		delete(t.DNC, e.Party)
	case *CallingHoursSet:
		t.ID, t.HoursOff = e.Tenant, !e.Enforced
	case *PartyErased:
		t.Erased[e.Party]++
	}
}

// Key is the subject key party's data is sealed under now.
func (t *Tenant) Key(tenant, party string) string { return PartyKey(tenant, party, t.Erased[party]) }

// Blocked reports whether party is on the do-not-call list.
func (t *Tenant) Blocked(party string) bool {
	_, ok := t.DNC[party]
	return ok
}

// DoNotCall is the refusal of a call or message to a listed party: 451.
func DoNotCall(field string) error {
	return &kernel.Error{Kind: kernel.KindUnavailableForLegalReasons, Field: field, Rule: "do_not_call",
		Code:    "do_not_call",
		Message: field + " is on the organization's do-not-call list"}
}

// AddDNC decides putting party on the list; a party already listed makes
// nothing (the first listing's date and source stay).
func (t *Tenant) AddDNC(tenant, party, number, source, reason, by string, at time.Time) ([]kernel.Event, error) {
	if t.Blocked(party) {
		return nil, nil
	}
	if err := CheckText("reason", reason, 0, 500); err != nil {
		return nil, err
	}
	return []kernel.Event{&DNCAdded{Tenant: tenant, Party: party, Source: source, Reason: reason, By: by, At: at,
		Remote: &Remote{Number: number}}}, nil
}

// RemoveDNC decides taking party off the list; a party not listed makes
// nothing.
func (t *Tenant) RemoveDNC(tenant, party, source, by string, at time.Time) []kernel.Event {
	if !t.Blocked(party) {
		return nil
	}
	return []kernel.Event{&DNCRemoved{Tenant: tenant, Party: party, Source: source, By: by, At: at}}
}

// SetCallingHours decides turning the guard on or off.
func (t *Tenant) SetCallingHours(tenant string, enforced bool, by string, at time.Time) []kernel.Event {
	if t.HoursOff == !enforced {
		return nil
	}
	return []kernel.Event{&CallingHoursSet{Tenant: tenant, Enforced: enforced, By: by, At: at}}
}

// Calling hours: calls may start from 08:00 to 21:00, the callee's local
// time (the TCPA's window, 47 CFR 64.1200(c)(1), is 8 a.m. to 9 p.m.).
const (
	CallingHoursStart = 8
	CallingHoursEnd   = 21
)

// CheckCallingHours refuses a call at now unless it falls inside the
// calling hours in every one of zones: a number whose zone is ambiguous
// (several zones) takes the strictest window, their intersection. No zone
// at all (the number's place is unknown) is refused too: the guard cannot
// show the call is allowed.
func CheckCallingHours(now time.Time, zones []*time.Location) error {
	if len(zones) == 0 {
		return &kernel.Error{Kind: kernel.KindUnprocessable, Field: "to_number", Rule: "calling_hours",
			Code:    "calling_hours",
			Message: "to_number's time zone is unknown, so calling hours (08:00-21:00 local) cannot be checked; the organization may turn the guard off"}
	}
	for _, z := range zones {
		local := now.In(z)
		if h := local.Hour(); h < CallingHoursStart || h >= CallingHoursEnd {
			return &kernel.Error{Kind: kernel.KindUnprocessable, Field: "to_number", Rule: "calling_hours",
				Code: "calling_hours",
				Message: fmt.Sprintf("calls are allowed from %02d:00 to %02d:00 in the callee's local time; it is %s in %s",
					CallingHoursStart, CallingHoursEnd, local.Format("15:04"), z.String())}
		}
	}
	return nil
}
