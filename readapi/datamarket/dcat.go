package datamarket

import (
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

// catalog is GET /catalog.json: the public datasets as a DCAT-US 1.1
// catalog (Project Open Data's data.json), each with its current
// version's modification time, licence and its JSON distribution.
func (a *API) catalog(w http.ResponseWriter, r *http.Request) {
	sums, err := a.summaries(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	base := strings.TrimSuffix(a.cfg.BaseURL, "/")
	var list []map[string]any
	for _, s := range sums {
		d, _ := datamarket.Lookup(s.Dataset)
		ds := map[string]any{
			"@type": "dcat:Dataset", "title": d.Title, "description": d.Description, "keyword": d.Keywords,
			"identifier": base + Base + "/datasets/" + d.Key, "accessLevel": "public",
			"publisher":          map[string]any{"@type": "org:Organization", "name": a.cfg.Publisher},
			"contactPoint":       map[string]any{"@type": "vcard:Contact", "fn": a.cfg.Publisher},
			"accrualPeriodicity": d.Periodicity,
			"describedBy":        base + Base + "/datasets/" + d.Key,
			"distribution": []map[string]any{{"@type": "dcat:Distribution", "title": d.Title + " (JSON API)",
				"accessURL": base + Base + d.Path, "mediaType": "application/json", "format": "API"}},
		}
		if d.Spatial != "" {
			ds["spatial"] = d.Spatial
		}
		if s.LastUpdated != nil {
			ds["modified"] = s.LastUpdated.UTC().Format(time.RFC3339)
		}
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
