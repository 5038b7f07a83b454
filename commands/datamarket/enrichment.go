package datamarket

import (
	"bufio"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/strata-platform/strata/commands/datamarket/enrich"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
)

// Domains is the dataset enrichment reads and writes.
const Domains = "whois-enrichment"

// enrichWorkers is how many domains are looked up at once.
const enrichWorkers = 8

// domainRow is one row of the domains dataset as enrichment reads and
// writes it.
type domainRow struct {
	Domain         string          `json:"domain"`
	OrgName        *string         `json:"org_name"`
	Registrar      *string         `json:"registrar"`
	Infrastructure string          `json:"infrastructure"`
	AgeDays        *int64          `json:"domain_age_days"`
	Country        *string         `json:"country"`
	Evidence       json.RawMessage `json:"evidence"`
}

// Enrich looks up every domain of the current domains version (DNS
// against the imported cloud ranges and known name-server patterns, RDAP
// for registrar and age) and imports the result as a new version derived
// from it, every value with its evidence. A value enrichment could not
// determine keeps the imported one (its evidence says so) or is unknown;
// nothing is guessed. cfg.Ranges, when nil, is read from the current
// versions of the ip-ranges datasets (and the packaged Cloudflare
// snapshot when none of Cloudflare's is imported).
func (s *Service) Enrich(ctx context.Context, cfg enrich.Config, by string) (*Result, error) {
	p, err := s.currentTable(ctx, Domains)
	if err != nil {
		return nil, err
	}
	if p.table == "" {
		return nil, kernel.Conflict("whois-enrichment has no published version to enrich; import its domains first", nil)
	}
	rows, err := s.domainRows(ctx, p.table)
	if err != nil {
		return nil, err
	}
	if cfg.Ranges == nil {
		if cfg.Ranges, err = s.Ranges(ctx); err != nil {
			return nil, err
		}
	}
	if cfg.Now == nil {
		cfg.Now = s.clock.Now
	}
	en := enrich.New(cfg)
	var wg sync.WaitGroup
	next := make(chan int)
	for range enrichWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i] = merge(rows[i], en.Enrich(ctx, rows[i].Domain), p.version)
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	path, err := writeNDJSON(rows)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path)
	return s.Import(ctx, Domains, Source{Location: path, Format: "ndjson", License: p.license, By: by,
		Name: fmt.Sprintf("enrichment of %s v%d", Domains, p.version), DerivedFrom: p.version}, nil)
}

// merge takes what enrichment found over the imported values; a value it
// could not find keeps the imported one, with evidence saying so.
func merge(r domainRow, res enrich.Result, from int) domainRow {
	ev := res.Evidence
	kept := func(field string) {
		ev = append(ev, enrich.Evidence{Field: field, Source: "import",
			Detail: fmt.Sprintf("enrichment could not determine it; the value imported in version %d is kept", from)})
	}
	if res.Infrastructure != enrich.Unknown {
		r.Infrastructure = res.Infrastructure
	} else if r.Infrastructure != "" && r.Infrastructure != enrich.Unknown {
		kept("infrastructure")
	} else {
		r.Infrastructure = enrich.Unknown
	}
	if res.Registrar != nil {
		r.Registrar = res.Registrar
	} else if r.Registrar != nil {
		kept("registrar")
	}
	if res.AgeDays != nil {
		n := int64(*res.AgeDays)
		r.AgeDays = &n
	} else if r.AgeDays != nil {
		kept("domain_age_days")
	}
	raw, _ := json.Marshal(map[string]any{"checked_at": res.CheckedAt, "registered_at": res.RegisteredAt, "findings": ev})
	r.Evidence = raw
	return r
}

type currentPointer struct {
	version int
	table   string
	license string
}

// currentTable is a dataset's current version and row table ("" when it
// has none).
func (s *Service) currentTable(ctx context.Context, dataset string) (currentPointer, error) {
	var p currentPointer
	var prov []byte
	err := s.store.DB().QueryRowContext(ctx, `SELECT c.version, c.row_table, v.provenance FROM rm_datamarket_v1.current c
		JOIN rm_datamarket_v1.versions v USING (dataset, version) WHERE c.dataset = $1`, dataset).Scan(&p.version, &p.table, &prov)
	if errors.Is(err, stdsql.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	var pv datamarket.Provenance
	if err := json.Unmarshal(prov, &pv); err != nil {
		return p, err
	}
	p.license = pv.License
	return p, nil
}

func (s *Service) domainRows(ctx context.Context, table string) ([]domainRow, error) {
	rs, err := s.store.DB().QueryContext(ctx, fmt.Sprintf(`SELECT domain, org_name, registrar, infrastructure, domain_age_days, country
		FROM %s ORDER BY row_no`, pgx.Identifier{RowSchema, table}.Sanitize()))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []domainRow
	for rs.Next() {
		var r domainRow
		if err := rs.Scan(&r.Domain, &r.OrgName, &r.Registrar, &r.Infrastructure, &r.AgeDays, &r.Country); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// Ranges reads the current versions of the providers' ranges; Cloudflare's
// packaged snapshot stands in while none of Cloudflare's is imported.
func (s *Service) Ranges(ctx context.Context) (*enrich.Ranges, error) {
	var all []enrich.Range
	for key := range rangeFormats {
		d, _ := datamarket.Lookup(key)
		provider := d.Title[:len(d.Title)-len(" IP ranges")]
		p, err := s.currentTable(ctx, key)
		if err != nil {
			return nil, err
		}
		if p.table == "" {
			if snap, _, ok := enrich.Snapshot(rangeFormats[key]); ok {
				all = append(all, snap...)
			}
			continue
		}
		rs, err := s.store.DB().QueryContext(ctx, fmt.Sprintf(`SELECT prefix, coalesce(service, ''), coalesce(region, '') FROM %s`,
			pgx.Identifier{RowSchema, p.table}.Sanitize()))
		if err != nil {
			return nil, err
		}
		for rs.Next() {
			var pfx, svc, region string
			if err := rs.Scan(&pfx, &svc, &region); err != nil {
				rs.Close()
				return nil, err
			}
			if pp, err := netip.ParsePrefix(pfx); err == nil {
				all = append(all, enrich.Range{Provider: provider, Prefix: pp, Service: svc, Region: region})
			}
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, err
		}
	}
	return enrich.NewRanges(all), nil
}

func writeNDJSON(rows []domainRow) (string, error) {
	f, err := os.CreateTemp("", "strata-enrich-*.ndjson")
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			f.Close()
			os.Remove(f.Name())
			return "", err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), f.Close()
}
