package enrich

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openrdap/rdap"
	"github.com/openrdap/rdap/bootstrap"
	"golang.org/x/net/publicsuffix"
)

// registration is what RDAP said about a domain.
type registration struct {
	registrar *string
	at        *time.Time
	age       *int
	evidence  []Evidence
}

// unknownRegistration explains why neither registrar nor date is known.
func unknownRegistration(query, detail string) registration {
	return registration{evidence: []Evidence{
		{Field: "registrar", Source: "rdap", Query: query, Detail: detail},
		{Field: "registered_at", Source: "rdap", Query: query, Detail: detail},
	}}
}

// registration asks the registry's RDAP service, found through the
// configured bootstrap, about the registrable domain: a registry holds
// example.co.uk, not www.example.co.uk.
func (e *Enricher) registration(ctx context.Context, name string, now time.Time) registration {
	if e.bootErr != nil {
		return unknownRegistration("", "RDAP not looked up: "+e.bootErr.Error())
	}
	if e.boot == nil {
		return unknownRegistration("", "no RDAP bootstrap configured; nothing was looked up")
	}
	zone, _ := publicsuffix.EffectiveTLDPlusOne(name) // normalize checked it

	urls, err := e.rdapServers(ctx, zone)
	if err != nil {
		return unknownRegistration(zone, err.Error())
	}

	var failures []string
	for _, server := range urls {
		ctx, cancel := context.WithTimeout(ctx, e.timeout)
		req := rdap.NewDomainRequest(zone).WithServer(server).WithContext(ctx)
		query := req.URL().String()
		client := &rdap.Client{HTTP: e.http}
		resp, err := client.Do(req)
		cancel()
		var ce *rdap.ClientError
		switch {
		case errors.As(err, &ce) && ce.Type == rdap.ObjectDoesNotExist:
			return unknownRegistration(query, "RDAP server answered 404: the registry has no record of "+zone)
		case err != nil:
			failures = append(failures, query+": "+httpFailure(resp, err))
			continue
		}
		switch obj := resp.Object.(type) {
		case *rdap.Domain:
			return fromDomain(obj, query, now)
		case *rdap.Error:
			failures = append(failures, fmt.Sprintf("%s: RDAP error %d %s", query, obj.ErrorCode, obj.Title))
		default:
			failures = append(failures, query+": the answer is not an RDAP domain object")
		}
	}
	return unknownRegistration(zone, "no RDAP server answered: "+strings.Join(failures, "; "))
}

// rdapServers returns copies of the bootstrap's server URLs for zone: the
// rdap package writes into the URL it is given, and the cached ones are
// shared between concurrent lookups.
func (e *Enricher) rdapServers(ctx context.Context, zone string) ([]*url.URL, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	q := (&bootstrap.Question{RegistryType: bootstrap.DNS, Query: zone}).WithContext(ctx)
	e.bootMu.Lock()
	ans, err := e.boot.Lookup(q)
	e.bootMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("RDAP bootstrap %s could not be read: %v", e.bootstrapURL, err)
	}
	if len(ans.URLs) == 0 {
		tld := zone[strings.LastIndexByte(zone, '.')+1:]
		return nil, fmt.Errorf("RDAP bootstrap %s lists no RDAP service for .%s", e.bootstrapURL, tld)
	}
	out := make([]*url.URL, len(ans.URLs))
	for i, u := range ans.URLs {
		c := *u
		out[i] = &c
	}
	return out, nil
}

// httpFailure says what went wrong with one RDAP server, with the HTTP
// status when there was one (the rdap package only says "no servers").
func httpFailure(resp *rdap.Response, err error) string {
	if resp != nil && len(resp.HTTP) > 0 {
		h := resp.HTTP[len(resp.HTTP)-1]
		if h.Error == nil && h.Response != nil {
			return "HTTP " + h.Response.Status
		}
		if h.Error != nil {
			return h.Error.Error()
		}
	}
	return err.Error()
}

// fromDomain reads the registrar (the vCard fn of the entity with role
// registrar) and the registration event from an RDAP domain object.
func fromDomain(d *rdap.Domain, query string, now time.Time) registration {
	var reg registration
	ev := func(field, answer, detail string) {
		reg.evidence = append(reg.evidence, Evidence{Field: field, Source: "rdap", Query: query, Answer: answer, Detail: detail})
	}

	if ent, ok := registrarEntity(d.Entities); !ok {
		ev("registrar", "", "the RDAP record names no entity with role registrar")
	} else if fn := vcardName(ent); fn == "" {
		ev("registrar", "", "the registrar entity"+handleNote(ent)+" has no vCard fn")
	} else {
		reg.registrar = &fn
		ev("registrar", fn, "vCard fn of the entity with role registrar"+handleNote(ent))
	}

	date, ok := registrationDate(d.Events)
	if !ok {
		ev("registered_at", "", "the RDAP record has no event with eventAction registration")
		return reg
	}
	at, err := time.Parse(time.RFC3339, date)
	if err != nil {
		ev("registered_at", date, "the registration eventDate is not an RFC 3339 date")
		return reg
	}
	at = at.UTC()
	reg.at = &at
	ev("registered_at", date, "eventDate of the event with eventAction registration")
	if at.After(now) {
		ev("domain_age_days", "", "the registration date is after the check time "+now.Format(time.RFC3339))
		return reg
	}
	days := int(now.Sub(at) / (24 * time.Hour))
	reg.age = &days
	ev("domain_age_days", strconv.Itoa(days), "whole days from the registration date to the check time "+now.Format(time.RFC3339))
	return reg
}

func registrarEntity(es []rdap.Entity) (rdap.Entity, bool) {
	for _, e := range es {
		for _, r := range e.Roles {
			if strings.EqualFold(r, "registrar") {
				return e, true
			}
		}
	}
	return rdap.Entity{}, false
}

func vcardName(e rdap.Entity) string {
	if e.VCard == nil {
		return ""
	}
	return strings.TrimSpace(e.VCard.Name())
}

func handleNote(e rdap.Entity) string {
	if e.Handle == "" {
		return ""
	}
	return " (handle " + e.Handle + ")"
}

func registrationDate(evs []rdap.Event) (string, bool) {
	for _, e := range evs {
		if strings.EqualFold(e.Action, "registration") {
			return e.Date, true
		}
	}
	return "", false
}
