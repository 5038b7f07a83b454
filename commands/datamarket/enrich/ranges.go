// Package enrich computes, with evidence, what a domain runs on and how old
// it is: A/AAAA/CNAME/NS lookups through a configured resolver, matched
// against imported cloud-provider ranges and known name-server and CNAME
// patterns, and the registrar and registration date from RDAP. Whatever it
// could not look up it reports as unknown, saying why; it never guesses.
package enrich

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
)

// Range is one published address prefix of a provider.
type Range struct {
	Provider string // "AWS", "Google Cloud", "Azure", "Cloudflare"
	Prefix   netip.Prefix
	Service  string // the provider's service or tag name, when it gives one
	Region   string
}

// Formats maps an importer's format name to the parser of that provider's
// official file.
var Formats = map[string]func(io.Reader) ([]Range, error){
	"aws":        ParseAWS,
	"google":     ParseGoogleCloud,
	"azure":      ParseAzure,
	"cloudflare": ParseCloudflare,
}

// ParseAWS reads AWS's ip-ranges.json.
func ParseAWS(r io.Reader) ([]Range, error) {
	var doc struct {
		SyncToken  string `json:"syncToken"`
		CreateDate string `json:"createDate"`
		Prefixes   []struct {
			IPPrefix string `json:"ip_prefix"`
			Region   string `json:"region"`
			Service  string `json:"service"`
		} `json:"prefixes"`
		IPv6Prefixes []struct {
			IPv6Prefix string `json:"ipv6_prefix"`
			Region     string `json:"region"`
			Service    string `json:"service"`
		} `json:"ipv6_prefixes"`
	}
	if err := decodeJSON(r, &doc); err != nil {
		return nil, fmt.Errorf("aws ip-ranges.json: %w", err)
	}
	// syncToken and createDate tell this file from another provider's JSON.
	if doc.SyncToken == "" || doc.CreateDate == "" {
		return nil, errors.New("aws ip-ranges.json: no syncToken or createDate: not AWS's format")
	}
	var out []Range
	for i, p := range doc.Prefixes {
		pfx, err := parsePrefix(p.IPPrefix, false)
		if err != nil {
			return nil, fmt.Errorf("aws ip-ranges.json: prefixes[%d] ip_prefix %q: %w", i, p.IPPrefix, err)
		}
		out = append(out, Range{Provider: "AWS", Prefix: pfx, Service: p.Service, Region: p.Region})
	}
	for i, p := range doc.IPv6Prefixes {
		pfx, err := parsePrefix(p.IPv6Prefix, true)
		if err != nil {
			return nil, fmt.Errorf("aws ip-ranges.json: ipv6_prefixes[%d] ipv6_prefix %q: %w", i, p.IPv6Prefix, err)
		}
		out = append(out, Range{Provider: "AWS", Prefix: pfx, Service: p.Service, Region: p.Region})
	}
	return nonEmpty("aws ip-ranges.json", out)
}

// ParseGoogleCloud reads Google's cloud.json (Google Cloud customer ranges).
func ParseGoogleCloud(r io.Reader) ([]Range, error) {
	var doc struct {
		SyncToken    string `json:"syncToken"`
		CreationTime string `json:"creationTime"`
		Prefixes     []struct {
			IPv4Prefix string `json:"ipv4Prefix"`
			IPv6Prefix string `json:"ipv6Prefix"`
			Service    string `json:"service"`
			Scope      string `json:"scope"`
		} `json:"prefixes"`
	}
	if err := decodeJSON(r, &doc); err != nil {
		return nil, fmt.Errorf("google cloud.json: %w", err)
	}
	if doc.SyncToken == "" || doc.CreationTime == "" {
		return nil, errors.New("google cloud.json: no syncToken or creationTime: not Google's format")
	}
	var out []Range
	for i, p := range doc.Prefixes {
		var (
			pfx netip.Prefix
			err error
		)
		switch {
		case p.IPv4Prefix != "" && p.IPv6Prefix != "":
			err = errors.New("has both ipv4Prefix and ipv6Prefix")
		case p.IPv4Prefix != "":
			pfx, err = parsePrefix(p.IPv4Prefix, false)
		case p.IPv6Prefix != "":
			pfx, err = parsePrefix(p.IPv6Prefix, true)
		default:
			err = errors.New("has neither ipv4Prefix nor ipv6Prefix")
		}
		if err != nil {
			return nil, fmt.Errorf("google cloud.json: prefixes[%d] %q: %w", i, p.IPv4Prefix+p.IPv6Prefix, err)
		}
		out = append(out, Range{Provider: "Google Cloud", Prefix: pfx, Service: p.Service, Region: p.Scope})
	}
	return nonEmpty("google cloud.json", out)
}

// ParseAzure reads an Azure service tags file (ServiceTags_Public_*.json).
// Service is the tag's name ("AzureCloud.westeurope", "Storage", ...).
func ParseAzure(r io.Reader) ([]Range, error) {
	var doc struct {
		ChangeNumber *int   `json:"changeNumber"`
		Cloud        string `json:"cloud"`
		Values       []struct {
			Name       string `json:"name"`
			ID         string `json:"id"`
			Properties struct {
				Region          string   `json:"region"`
				AddressPrefixes []string `json:"addressPrefixes"`
			} `json:"properties"`
		} `json:"values"`
	}
	if err := decodeJSON(r, &doc); err != nil {
		return nil, fmt.Errorf("azure service tags: %w", err)
	}
	if doc.ChangeNumber == nil || doc.Cloud == "" {
		return nil, errors.New("azure service tags: no changeNumber or cloud: not Azure's format")
	}
	var out []Range
	for i, v := range doc.Values {
		if v.Name == "" {
			return nil, fmt.Errorf("azure service tags: values[%d] has no name", i)
		}
		for j, p := range v.Properties.AddressPrefixes {
			pfx, err := parsePrefix(p, strings.Contains(p, ":"))
			if err != nil {
				return nil, fmt.Errorf("azure service tags: values[%d] %q addressPrefixes[%d] %q: %w", i, v.Name, j, p, err)
			}
			out = append(out, Range{Provider: "Azure", Prefix: pfx, Service: v.Name, Region: v.Properties.Region})
		}
	}
	return nonEmpty("azure service tags", out)
}

// ParseCloudflare reads Cloudflare's ips-v4 or ips-v6 list: one CIDR a line.
func ParseCloudflare(r io.Reader) ([]Range, error) {
	var out []Range
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		pfx, err := parsePrefix(line, strings.Contains(line, ":"))
		if err != nil {
			return nil, fmt.Errorf("cloudflare list: line %d %q: %w", n, line, err)
		}
		out = append(out, Range{Provider: "Cloudflare", Prefix: pfx})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cloudflare list: %w", err)
	}
	return nonEmpty("cloudflare list", out)
}

func decodeJSON(r io.Reader, v any) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// parsePrefix refuses host bits and the wrong family: a published list
// holding either is damaged, and importing it would misattribute addresses.
func parsePrefix(s string, want6 bool) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, errors.New("not a CIDR prefix")
	}
	if p.Addr().Is6() != want6 {
		if want6 {
			return netip.Prefix{}, errors.New("not an IPv6 prefix")
		}
		return netip.Prefix{}, errors.New("not an IPv4 prefix")
	}
	if p.Masked() != p {
		return netip.Prefix{}, fmt.Errorf("has host bits set (the network is %s)", p.Masked())
	}
	return p, nil
}

// nonEmpty refuses a file with no prefixes: that is a truncated or wrong
// download, and importing it would silently drop a provider.
func nonEmpty(what string, rs []Range) ([]Range, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s: no prefixes", what)
	}
	return rs, nil
}

// Ranges answers which imported range holds an address.
type Ranges struct {
	byPrefix map[netip.Prefix]Range
	// Prefix lengths present, longest first, per family: a lookup tries
	// each length once, so it costs a few map probes however many prefixes.
	lens4, lens6 []int
}

// NewRanges indexes rs. When one prefix is listed more than once (Azure
// repeats a prefix under the region tag and the service tags), the first
// listing is kept.
func NewRanges(rs []Range) *Ranges {
	t := &Ranges{byPrefix: make(map[netip.Prefix]Range, len(rs))}
	seen4, seen6 := map[int]bool{}, map[int]bool{}
	for _, r := range rs {
		p := r.Prefix.Masked()
		if !p.IsValid() {
			continue
		}
		if _, dup := t.byPrefix[p]; dup {
			continue
		}
		r.Prefix = p
		t.byPrefix[p] = r
		if p.Addr().Is4() {
			seen4[p.Bits()] = true
		} else {
			seen6[p.Bits()] = true
		}
	}
	t.lens4, t.lens6 = longestFirst(seen4), longestFirst(seen6)
	return t
}

func longestFirst(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b int) int { return cmp.Compare(b, a) })
	return out
}

// Len is the number of distinct prefixes.
func (t *Ranges) Len() int {
	if t == nil {
		return 0
	}
	return len(t.byPrefix)
}

// Lookup returns the most specific range holding addr.
func (t *Ranges) Lookup(addr netip.Addr) (Range, bool) {
	if t == nil || !addr.IsValid() {
		return Range{}, false
	}
	addr = addr.Unmap().WithZone("")
	lens := t.lens6
	if addr.Is4() {
		lens = t.lens4
	}
	for _, n := range lens {
		p, err := addr.Prefix(n)
		if err != nil {
			continue
		}
		if r, ok := t.byPrefix[p]; ok {
			return r, true
		}
	}
	return Range{}, false
}
