package datamarket

import (
	"embed"
	"path"
)

//go:embed samples/*.csv
var samples embed.FS

// SampleLicense is the provenance licence of the sample files: rows
// written for trying the API, not real businesses, domains or parcels
// (their domains are under the reserved .example TLD, phone numbers in
// the 555-01xx fiction range).
const SampleLicense = "CC0-1.0; fictional sample rows written for Strata, not real data"

// Sample is one public dataset's sample file.
type Sample struct {
	Dataset, File, License string
	Data                   []byte
}

// Samples returns the sample file of every public dataset.
func Samples() []Sample {
	var out []Sample
	for _, d := range catalog {
		if !d.Public {
			continue
		}
		name := d.Key + ".csv"
		data, err := samples.ReadFile(path.Join("samples", name))
		if err != nil {
			panic("datamarket: missing sample " + name) // embedded at build time
		}
		out = append(out, Sample{Dataset: d.Key, File: name, License: SampleLicense, Data: data})
	}
	return out
}
