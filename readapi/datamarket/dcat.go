package datamarket

import (
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// catalog is GET /catalog.json: the public datasets that have data as a
// DCAT-US 1.1 catalog (Project Open Data's data.json), each with when its
// data last changed, its licence and its JSON distribution. A dataset
// with nothing imported is left out: it has no modification date (which
// DCAT-US requires) and nothing to distribute; /datasets lists it.
func (a *API) catalog(w http.ResponseWriter, r *http.Request) {
	sums, err := a.summaries(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	base := strings.TrimSuffix(a.cfg.BaseURL, "/")
	list := []map[string]any{}
	for _, s := range sums {
		if s.LastUpdated == nil {
			continue
		}
		d, _ := datamarket.Lookup(s.Dataset)
		ds := map[string]any{
			"@type": "dcat:Dataset", "title": d.Title, "description": d.Description, "keyword": d.Keywords,
			"identifier": base + Base + "/datasets/" + d.Key, "accessLevel": "public",
			"publisher":          map[string]any{"@type": "org:Organization", "name": a.cfg.Publisher},
			"contactPoint":       contact(a.cfg),
			"accrualPeriodicity": d.Periodicity,
			"describedBy":        base + Base + "/datasets/" + d.Key,
			"distribution": []map[string]any{{"@type": "dcat:Distribution", "title": d.Title + " (JSON API)",
				"accessURL": base + Base + d.Path, "mediaType": "application/json", "format": "API"}},
		}
		if d.Spatial != "" {
			ds["spatial"] = d.Spatial
		}
		ds["modified"] = s.LastUpdated.UTC().Format(time.RFC3339)
		if s.Provenance != nil {
			if s.Provenance.License != "" {
				ds["license"] = s.Provenance.License
			}
			ds["source"] = s.Provenance.Source
			ds["sample"] = s.Provenance.Sample
		}
		list = append(list, ds)
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"@context":    "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld",
		"@type":       "dcat:Catalog",
		"conformsTo":  "https://project-open-data.cio.gov/v1.1/schema",
		"describedBy": "https://project-open-data.cio.gov/v1.1/schema/catalog.json",
		"dataset":     list,
	})
}

// contact is the catalog's contact point: the publisher, with its
// address when one is configured (DCAT-US asks for hasEmail).
func contact(cfg Config) map[string]any {
	c := map[string]any{"@type": "vcard:Contact", "fn": cfg.Publisher}
	if cfg.ContactEmail != "" {
		c["hasEmail"] = "mailto:" + cfg.ContactEmail
	}
	return c
}
