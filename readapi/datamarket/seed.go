package datamarket

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

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
	prospects, pv, bkeys, err := a.prospects(r.Context(), industry, city, limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	domains, dv, err := a.domainsOf(r.Context(), bkeys, limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"prospects": prospects, "domains": domains,
		"stats":    map[string]any{"industry": industry, "city": nullable(city), "prospects_count": len(prospects), "domains_count": len(domains)},
		"versions": map[string]any{"smb-directory": pv, "whois-enrichment": dv}})
}

// prospects reads up to limit directory records of the industry and city
// in row order, with their lookup keys.
func (a *API) prospects(ctx context.Context, industry, city string, limit int) ([]json.RawMessage, any, []string, error) {
	smb, _ := datamarket.Lookup("smb-directory")
	p, err := a.q.at(ctx, smb.Key, 0)
	if err != nil || p == nil {
		return []json.RawMessage{}, nil, nil, err
	}
	q := query{filters: map[string]any{}, limit: limit}
	if industry != "general" {
		q.filters["industry"] = industry
	}
	if city != "" {
		q.filters["city_key"] = city
	}
	recs, err := a.q.rowsWhere(ctx, smb, p, q, []string{"industry", "city_key"})
	if err != nil {
		return nil, nil, nil, err
	}
	bkeys := make([]string, 0, len(recs))
	for _, rec := range recs {
		var v struct {
			Name string `json:"business_name"`
		}
		if json.Unmarshal(rec, &v) == nil {
			if k := datamarket.NormalizeOrgName(v.Name); k != "" {
				bkeys = append(bkeys, k)
			}
		}
	}
	return recs, p.Version, bkeys, nil
}

// domainsOf reads the domain records whose organisation is one of keys.
func (a *API) domainsOf(ctx context.Context, keys []string, limit int) ([]json.RawMessage, any, error) {
	whois, _ := datamarket.Lookup("whois-enrichment")
	p, err := a.q.at(ctx, whois.Key, 0)
	if err != nil || p == nil || len(keys) == 0 {
		if p != nil {
			return []json.RawMessage{}, p.Version, err
		}
		return []json.RawMessage{}, nil, err
	}
	recs, err := a.q.rowsIn(ctx, whois, p, "org_key", keys, limit)
	return recs, p.Version, err
}

// rowsWhere reads rows with equality filters on any columns (not only
// the public filters), in row order.
func (q *reader) rowsWhere(ctx context.Context, d *datamarket.Dataset, p *pointer, qq query, cols []string) ([]json.RawMessage, error) {
	var conds []string
	var args []any
	for _, c := range cols {
		if v, ok := qq.filters[c]; ok {
			args = append(args, v)
			conds = append(conds, fmt.Sprintf("%s = $%d", pgx.Identifier{c}.Sanitize(), len(args)))
		}
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	return q.selectRows(ctx, d, p, where, args, qq.limit, 0)
}

// rowsIn reads rows whose column is one of values, in row order.
func (q *reader) rowsIn(ctx context.Context, d *datamarket.Dataset, p *pointer, col string, values []string, limit int) ([]json.RawMessage, error) {
	return q.selectRows(ctx, d, p, " WHERE "+pgx.Identifier{col}.Sanitize()+" = ANY($1)", []any{values}, limit, 0)
}
