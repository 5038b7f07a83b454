package datamarket

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// leadScore is POST /lead-score: the seed's seven rules over the request
// and the imported datasets, each with its points and evidence.
func (a *API) leadScore(w http.ResponseWriter, r *http.Request) {
	var req datamarket.LeadRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := req.Validate(); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	facts, err := a.leadFacts(r.Context(), datamarket.NormalizeOrgName(req.BusinessName))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, datamarket.ScoreLead(req, facts))
}

// leadFacts finds the organisation in the current versions: its first
// domain record (by org_name) and its first directory record, else the
// domain record, as the known organisation.
func (a *API) leadFacts(ctx context.Context, key string) (datamarket.LeadFacts, error) {
	var f datamarket.LeadFacts
	if key == "" {
		return f, nil
	}
	if p, err := a.q.at(ctx, "whois-enrichment", 0); err != nil {
		return f, err
	} else if p != nil {
		var d datamarket.DomainFact
		var org stdsql.NullString
		var age stdsql.NullInt64
		err := a.cfg.DB.QueryRowContext(ctx, fmt.Sprintf(`SELECT row_no, domain, org_name, infrastructure, domain_age_days
			FROM %s WHERE org_key = $1 ORDER BY row_no LIMIT 1`, pgx.Identifier{cmddata.RowSchema, p.Table}.Sanitize()), key).
			Scan(&d.Row, &d.Domain, &org, &d.Infrastructure, &age)
		switch {
		case err == nil:
			d.OrgName, d.Dataset, d.Version = org.String, "whois-enrichment", p.Version
			if age.Valid {
				n := int(age.Int64)
				d.AgeDays = &n
			}
			f.Domain = &d
		case !errors.Is(err, stdsql.ErrNoRows):
			return f, err
		}
	}
	if p, err := a.q.at(ctx, "smb-directory", 0); err != nil {
		return f, err
	} else if p != nil {
		o := datamarket.OrgFact{Dataset: "smb-directory", Version: p.Version}
		err := a.cfg.DB.QueryRowContext(ctx, fmt.Sprintf(`SELECT row_no, business_name FROM %s
			WHERE business_hash = $1 AND business_key = $2 ORDER BY row_no LIMIT 1`,
			pgx.Identifier{cmddata.RowSchema, p.Table}.Sanitize()), datamarket.KeyHash(key), key).Scan(&o.Row, &o.Name)
		switch {
		case err == nil:
			f.KnownOrg = &o
		case !errors.Is(err, stdsql.ErrNoRows):
			return f, err
		}
	}
	if f.KnownOrg == nil && f.Domain != nil {
		f.KnownOrg = &datamarket.OrgFact{Dataset: f.Domain.Dataset, Version: f.Domain.Version, Row: f.Domain.Row, Name: f.Domain.OrgName}
	}
	return f, nil
}
