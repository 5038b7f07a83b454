package datamarket

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamDataset is the stream type of a dataset's versions; one stream a
// dataset, id "datamarket-dataset:<key>".
const StreamDataset = "datamarket.dataset"

// DatasetStream names a dataset's stream.
func DatasetStream(key string) string { return "datamarket-dataset:" + key }

// Provenance is where a version's rows came from.
type Provenance struct {
	// Source is the URL or file name the rows were read from.
	Source  string `json:"source"`
	License string `json:"license"`
	// FetchedAt is when the file was read.
	FetchedAt time.Time `json:"fetched_at"`
	// SHA256 is the file's checksum (hex); a file already imported makes
	// no new version.
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
	// Format is csv, ndjson, or a provider format (ip-ranges: aws,
	// google, azure, cloudflare).
	Format string `json:"format"`
	// Sample marks the small files shipped in the repository to try the
	// API with: not real data.
	Sample bool `json:"sample"`
	// DerivedFrom is the version an enrichment read its domains from.
	DerivedFrom int `json:"derived_from,omitempty"`
}

// FacetCount is how many rows of a version have one combination of the
// dataset's facet values (in Facets order; nil for null).
type FacetCount struct {
	Values []any `json:"values"`
	Rows   int64 `json:"rows"`
}

// VersionStaged records a file read for a new version of a dataset.
type VersionStaged struct {
	Dataset    string     `json:"dataset"`
	Version    int        `json:"version"`
	Provenance Provenance `json:"provenance"`
	By         string     `json:"by"`
	At         time.Time  `json:"at"`
}

// VersionValidated records a version's rows checked and loaded: how many
// were read, loaded and left out (the first MaxReportedErrors of them
// with their reasons), and the counts by facet.
type VersionValidated struct {
	Dataset        string       `json:"dataset"`
	Version        int          `json:"version"`
	RowsRead       int64        `json:"rows_read"`
	RowsLoaded     int64        `json:"rows_loaded"`
	RowsInvalid    int64        `json:"rows_invalid"`
	Errors         []RowError   `json:"errors"`
	IgnoredColumns []string     `json:"ignored_columns"`
	Facets         []FacetCount `json:"facets"`
	// Table is the row table in schema data_rows.
	Table string    `json:"table"`
	At    time.Time `json:"at"`
}

// VersionPublished records readers switched to a version.
type VersionPublished struct {
	Dataset  string    `json:"dataset"`
	Version  int       `json:"version"`
	Previous int       `json:"previous"`
	At       time.Time `json:"at"`
}

// VersionRejected records a version refused: the file could not be read,
// or too many of its rows broke the schema. Readers stay where they were.
type VersionRejected struct {
	Dataset     string     `json:"dataset"`
	Version     int        `json:"version"`
	Reason      string     `json:"reason"`
	RowsRead    int64      `json:"rows_read"`
	RowsInvalid int64      `json:"rows_invalid"`
	Errors      []RowError `json:"errors"`
	At          time.Time  `json:"at"`
}

// VersionRetracted records a published version withdrawn; Current is the
// version readers are switched to (0: none).
type VersionRetracted struct {
	Dataset string    `json:"dataset"`
	Version int       `json:"version"`
	Reason  string    `json:"reason"`
	By      string    `json:"by"`
	Current int       `json:"current"`
	At      time.Time `json:"at"`
}

// VersionPurged records an old version's rows deleted (retention); its
// events and provenance stay.
type VersionPurged struct {
	Dataset string    `json:"dataset"`
	Version int       `json:"version"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
}

func (VersionStaged) EventType() string    { return "datamarket.version_staged" }
func (VersionValidated) EventType() string { return "datamarket.version_validated" }
func (VersionPublished) EventType() string { return "datamarket.version_published" }
func (VersionRejected) EventType() string  { return "datamarket.version_rejected" }
func (VersionRetracted) EventType() string { return "datamarket.version_retracted" }
func (VersionPurged) EventType() string    { return "datamarket.version_purged" }

// Events lists the data marketplace's event constructors.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &VersionStaged{} },
		func() kernel.Event { return &VersionValidated{} },
		func() kernel.Event { return &VersionPublished{} },
		func() kernel.Event { return &VersionRejected{} },
		func() kernel.Event { return &VersionRetracted{} },
		func() kernel.Event { return &VersionPurged{} },
	}
}

// MaxReportedErrors is how many row errors a version's events keep; the
// import's own report (CLI) lists them all.
const MaxReportedErrors = 100
