package datamarket_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

type dcatDataset struct {
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Keyword     []string `json:"keyword"`
	Modified    *string  `json:"modified"`
	Publisher   *struct {
		Name string `json:"name"`
	} `json:"publisher"`
	ContactPoint *struct {
		FN string `json:"fn"`
	} `json:"contactPoint"`
	Identifier   string `json:"identifier"`
	AccessLevel  string `json:"accessLevel"`
	Distribution []struct {
		AccessURL string `json:"accessURL"`
		MediaType string `json:"mediaType"`
	} `json:"distribution"`
}

type dcatCatalog struct {
	ConformsTo string        `json:"conformsTo"`
	Dataset    []dcatDataset `json:"dataset"`
}

// checkCatalog checks the members DCAT-US 1.1 requires of every dataset
// (a non-federal catalog), except modified.
func checkCatalog(t *testing.T, w *world) dcatCatalog {
	t.Helper()
	r := w.get("/catalog.json")
	var c dcatCatalog
	if err := json.Unmarshal(r.Raw, &c); err != nil || r.Status != http.StatusOK {
		t.Fatalf("catalog: %d %s", r.Status, r.Raw)
	}
	if c.ConformsTo != "https://project-open-data.cio.gov/v1.1/schema" {
		t.Errorf("conformsTo %q", c.ConformsTo)
	}
	if len(c.Dataset) != len(publicPaths) {
		t.Fatalf("%d datasets, want %d", len(c.Dataset), len(publicPaths))
	}
	ids := map[string]bool{}
	for i, d := range c.Dataset {
		if d.Title == "" || d.Description == "" || len(d.Keyword) == 0 || d.Identifier == "" || ids[d.Identifier] || d.AccessLevel != "public" {
			t.Errorf("dataset %d: %+v", i, d)
		}
		ids[d.Identifier] = true
		if d.Publisher == nil || d.Publisher.Name == "" || d.ContactPoint == nil || d.ContactPoint.FN == "" {
			t.Errorf("%s: publisher %+v contactPoint %+v", d.Title, d.Publisher, d.ContactPoint)
		}
		if len(d.Distribution) == 0 || !strings.HasSuffix(d.Distribution[0].AccessURL, base+publicPaths[i].path) || d.Distribution[0].MediaType != "application/json" {
			t.Errorf("%s: distribution %+v", d.Title, d.Distribution)
		}
	}
	return c
}

func TestCatalogIsDCATUS(t *testing.T) {
	w := newWorld(t, false)
	w.importSamples()
	c := checkCatalog(t, w)
	for _, d := range c.Dataset {
		if d.Modified == nil {
			t.Errorf("%s: no modified", d.Title)
			continue
		}
		if at, err := time.Parse(time.RFC3339, *d.Modified); err != nil || !at.Equal(w.clock.Now()) {
			t.Errorf("%s: modified %q, want %s", d.Title, *d.Modified, w.clock.Now().Format(time.RFC3339))
		}
	}
}

// A dataset with nothing imported has no modification date, which DCAT-US
// 1.1 requires, and nothing to distribute: the catalog leaves it out until
// its first version is published.
func TestCatalogListsOnlyDatasetsWithData(t *testing.T) {
	w := newWorld(t, false)
	r := w.get("/catalog.json")
	var c dcatCatalog
	if err := json.Unmarshal(r.Raw, &c); err != nil || r.Status != http.StatusOK {
		t.Fatalf("catalog: %d %s", r.Status, r.Raw)
	}
	if len(c.Dataset) != 0 {
		t.Fatalf("no data imported, yet the catalog lists %d datasets", len(c.Dataset))
	}
	w.published("smb-directory", smbCSV(numbered("One", 3)), 1)
	r = w.get("/catalog.json")
	c = dcatCatalog{}
	if err := json.Unmarshal(r.Raw, &c); err != nil || len(c.Dataset) != 1 {
		t.Fatalf("after one import: %s", r.Raw)
	}
	if d := c.Dataset[0]; d.Title != "SMB directory" || d.Modified == nil || *d.Modified == "" {
		t.Fatalf("the imported dataset: %+v", d)
	}
}
