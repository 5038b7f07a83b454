package datamarket

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Seed limits (the seed: limit 10-5000, default 500).
const (
	DefaultSeedLimit = 500
	MinSeedLimit     = 10
	MaxSeedLimit     = 5000
)

// industries is GET /industries: the /seed industries with the NAICS
// codes that define them and how many directory businesses each has.
func (a *API) industries(w http.ResponseWriter, r *http.Request) {
	smb, _ := datamarket.Lookup("smb-directory")
	p, err := a.q.at(r.Context(), smb.Key, 0)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := []map[string]any{}
	for _, ind := range datamarket.Industries() {
		codes := []map[string]any{}
		for _, c := range ind.NAICS {
			n, _ := datamarket.LookupNAICS(c)
			codes = append(codes, map[string]any{"code": c, "title": n.Title})
		}
		item := map[string]any{"key": ind.Key, "name": ind.Name, "description": ind.Description, "naics": codes, "businesses": nil}
		if p != nil {
			q := query{filters: map[string]any{}}
			if len(ind.NAICS) > 0 {
				q.filters["industry"] = ind.Key
			}
			n, _ := facetTotal(smb, p, q)
			item["businesses"] = n
		}
		out = append(out, item)
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"industries": out})
}

// seed is GET /seed: directory businesses of an industry (and city) as
// prospects, with the domain records of those same organisations.
func (a *API) seed(w http.ResponseWriter, r *http.Request) {
	keys := []string{}
	for _, ind := range datamarket.Industries() {
		keys = append(keys, ind.Key)
	}
	industry, err := enumParam(r, "industry", keys)
	if err == nil && industry == "" {
		industry = "general"
	}
	var city string
	if err == nil {
		city, err = enumParam(r, "city", datamarket.Metros)
	}
	var limit int
	if err == nil {
		limit, err = httpx.IntParam(r, "limit", DefaultSeedLimit, MinSeedLimit, MaxSeedLimit)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	prospects, domains, pv, dv, err := a.seedRows(r.Context(), industry, city, limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"prospects": prospects, "domains": domains,
		"stats":    map[string]any{"industry": industry, "city": nullable(city), "prospects_count": len(prospects), "domains_count": len(domains)},
		"versions": map[string]any{"smb-directory": pv, "whois-enrichment": dv}})
}

// seedRows reads up to limit directory records of the industry and city
// in row order (prospects), and the domain records whose organisation is
// one of theirs, in one query each (the prospects' keys are a subquery).
func (a *API) seedRows(ctx context.Context, industry, city string, limit int) (prospects, domains []json.RawMessage, pv, dv any, err error) {
	prospects, domains = []json.RawMessage{}, []json.RawMessage{}
	smb, _ := datamarket.Lookup("smb-directory")
	whois, _ := datamarket.Lookup("whois-enrichment")
	ps, err := a.q.at(ctx, smb.Key, 0)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	pw, err := a.q.at(ctx, whois.Key, 0)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if pw != nil {
		dv = pw.Version
	}
	if ps == nil {
		return prospects, domains, nil, dv, nil
	}
	var conds []string
	var args []any
	if industry != "general" {
		args = append(args, industry)
		conds = append(conds, fmt.Sprintf("industry = $%d", len(args)))
	}
	if city != "" {
		args = append(args, city)
		conds = append(conds, fmt.Sprintf("city_key = $%d", len(args)))
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	if prospects, err = a.q.selectRows(ctx, smb, ps, where, args, limit, 0); err != nil {
		return nil, nil, nil, nil, err
	}
	if pw != nil && len(prospects) > 0 {
		sub := fmt.Sprintf(" WHERE org_key IN (SELECT business_key FROM %s%s ORDER BY row_no LIMIT $%d)",
			pgx.Identifier{cmddata.RowSchema, ps.Table}.Sanitize(), where, len(args)+1)
		if domains, err = a.q.selectRows(ctx, whois, pw, sub, append(args, limit), limit, 0); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	return prospects, domains, ps.Version, dv, nil
}
