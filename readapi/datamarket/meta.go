package datamarket

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// versionView is a version as its metadata shows it.
type versionView struct {
	Version        int                     `json:"version"`
	Status         string                  `json:"status"`
	Provenance     datamarket.Provenance   `json:"provenance"`
	RowsRead       int64                   `json:"rows_read"`
	RowsLoaded     int64                   `json:"rows_loaded"`
	RowsInvalid    int64                   `json:"rows_invalid"`
	Reason         *string                 `json:"reason"`
	StagedAt       time.Time               `json:"staged_at"`
	PublishedAt    *time.Time              `json:"published_at"`
	PurgedAt       *time.Time              `json:"purged_at"`
	Errors         []datamarket.RowError   `json:"errors,omitempty"`
	IgnoredColumns []string                `json:"ignored_columns,omitempty"`
	Facets         []datamarket.FacetCount `json:"facets,omitempty"`
}

const versionColumns = `version, status, provenance, rows_read, rows_loaded, rows_invalid, reason, staged_at, published_at, purged_at`

func scanVersion(sc interface{ Scan(...any) error }, extra ...any) (versionView, error) {
	var v versionView
	var prov []byte
	dest := append([]any{&v.Version, &v.Status, &prov, &v.RowsRead, &v.RowsLoaded, &v.RowsInvalid, &v.Reason, &v.StagedAt, &v.PublishedAt, &v.PurgedAt}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return v, err
	}
	return v, json.Unmarshal(prov, &v.Provenance)
}

// versions lists a dataset's versions, newest first.
func (a *API) versions(ctx context.Context, dataset string) ([]versionView, error) {
	rs, err := a.cfg.DB.QueryContext(ctx, `SELECT `+versionColumns+` FROM rm_datamarket_v1.versions WHERE dataset = $1 ORDER BY version DESC`, dataset)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	out := []versionView{}
	for rs.Next() {
		v, err := scanVersion(rs)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rs.Err()
}

// summary is a dataset as /stats and /datasets show it.
type summary struct {
	Dataset      string                 `json:"dataset"`
	Title        string                 `json:"title"`
	Path         string                 `json:"path"`
	TotalRecords int64                  `json:"total_records"`
	LastUpdated  *time.Time             `json:"last_updated"`
	Description  string                 `json:"description"`
	Status       string                 `json:"status"`
	Version      *int                   `json:"version"`
	Provenance   *datamarket.Provenance `json:"provenance"`
}

// summaries reads every public dataset's current version.
func (a *API) summaries(ctx context.Context) ([]summary, error) {
	rs, err := a.cfg.DB.QueryContext(ctx, `SELECT c.dataset, c.version, c.rows_loaded, c.switched_at, v.provenance
		FROM rm_datamarket_v1.current c JOIN rm_datamarket_v1.versions v USING (dataset, version)`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cur := map[string]summary{}
	for rs.Next() {
		var s summary
		var v int
		var at time.Time
		var prov []byte
		if err := rs.Scan(&s.Dataset, &v, &s.TotalRecords, &at, &prov); err != nil {
			return nil, err
		}
		s.Version, s.LastUpdated, s.Provenance = &v, &at, &datamarket.Provenance{}
		if err := json.Unmarshal(prov, s.Provenance); err != nil {
			return nil, err
		}
		cur[s.Dataset] = s
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	out := []summary{}
	for _, d := range datamarket.Catalog() {
		if !d.Public {
			continue
		}
		s, ok := cur[d.Key]
		s.Dataset, s.Title, s.Path, s.Description, s.Status = d.Key, d.Title, Base+d.Path, d.Description, "no_data"
		if ok {
			s.Status = datamarket.StatusPublished
		}
		out = append(out, s)
	}
	return out, nil
}

// stats is GET /stats: every dataset's counted rows (the rows loaded into
// its current version) and when it was last published.
func (a *API) stats(w http.ResponseWriter, r *http.Request) {
	sums, err := a.summaries(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var total int64
	for _, s := range sums {
		total += s.TotalRecords
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"datasets": sums, "total_records": total})
}

// datasets is GET /datasets: the public datasets with their provenance.
func (a *API) datasets(w http.ResponseWriter, r *http.Request) {
	sums, err := a.summaries(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"datasets": sums})
}

// dataset is GET /datasets/{dataset}: its schema, filters, refresh
// schedule and every version with its provenance.
func (a *API) dataset(w http.ResponseWriter, r *http.Request) {
	d, err := datasetVar(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	vs, err := a.versions(r.Context(), d.Key)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	cols := []map[string]any{{"name": "_row", "type": "integer", "description": "the row's number in the imported file (1 is the first data row)"}}
	for _, c := range d.Visible() {
		col := map[string]any{"name": c.Name, "type": c.Type, "required": c.Required, "description": c.Description}
		if len(c.Enum) > 0 {
			col["enum"] = c.Enum
		}
		cols = append(cols, col)
	}
	filters := []map[string]any{}
	for _, f := range d.Filters {
		fm := map[string]any{"param": f.Param, "column": f.Column}
		if f.Flag {
			fm["type"] = "boolean"
		} else if len(f.Values) > 0 {
			fm["enum"] = f.Values
		}
		filters = append(filters, fm)
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"dataset": d.Key, "title": d.Title, "description": d.Description,
		"path": pathOf(d), "public": d.Public, "columns": cols, "search": d.Search, "filters": filters, "unique": nullable(d.Unique),
		"refresh":  map[string]any{"cron": d.Refresh, "zone": datamarket.RefreshZone, "periodicity": d.Periodicity},
		"versions": vs})
}

// version is GET /datasets/{dataset}/versions/{version}: one version with
// its row errors (the first datamarket.MaxReportedErrors) and counts.
func (a *API) version(w http.ResponseWriter, r *http.Request) {
	d, err := datasetVar(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	n, err := strconv.Atoi(mux.Vars(r)["version"])
	if err != nil || n < 1 {
		httpx.WriteError(w, r, kernel.Invalid("version", "integer", "version must be a whole number from 1"))
		return
	}
	var errs, ign, facets []byte
	v, err := scanVersion(a.cfg.DB.QueryRowContext(r.Context(), `SELECT `+versionColumns+`, errors, ignored_columns, facets
		FROM rm_datamarket_v1.versions WHERE dataset = $1 AND version = $2`, d.Key, n), &errs, &ign, &facets)
	if errors.Is(err, stdsql.ErrNoRows) {
		httpx.WriteError(w, r, kernel.NotFound(fmt.Sprintf("%s has no version %d", d.Key, n)))
		return
	}
	if err == nil {
		err = unmarshalAll([]byte(errs), &v.Errors, []byte(ign), &v.IgnoredColumns, []byte(facets), &v.Facets)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, v)
}

func unmarshalAll(pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := json.Unmarshal(pairs[i].([]byte), pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}

func datasetVar(r *http.Request) (*datamarket.Dataset, error) {
	key := mux.Vars(r)["dataset"]
	d, ok := datamarket.Lookup(key)
	if !ok {
		return nil, kernel.NotFound("no dataset " + strconv.Quote(key) + "; the datasets are " + fmt.Sprint(datamarket.Keys()))
	}
	return d, nil
}

func pathOf(d *datamarket.Dataset) any {
	if d.Path == "" {
		return nil
	}
	return Base + d.Path
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
