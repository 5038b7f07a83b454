package datamarket

import (
	"fmt"
	"io"
	"sort"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
)

// rangeFormats are the providers' official range formats, by the
// reference dataset that takes each.
var rangeFormats = map[string]string{"ip-ranges-aws": "aws", "ip-ranges-google": "google", "ip-ranges-azure": "azure", "ip-ranges-cloudflare": "cloudflare"}

// checkFormat refuses a format the dataset does not take: public
// datasets take csv and ndjson; a provider's ranges take its official
// format (or csv/ndjson of prefix, service, region).
func checkFormat(d *datamarket.Dataset, format string) error {
	if format == "csv" || format == "ndjson" {
		return nil
	}
	if want := rangeFormats[d.Key]; want == format {
		return nil
	}
	msg := fmt.Sprintf("%s takes csv or ndjson", d.Key)
	if want, ok := rangeFormats[d.Key]; ok {
		msg = fmt.Sprintf("%s takes %s's official format (%s), csv or ndjson", d.Key, d.Title, want)
	}
	return kernel.Invalid("format", "enum", msg+", not "+format)
}

// newReader reads a file of the format as cells.
func newReader(d *datamarket.Dataset, format string, r io.Reader) (cellReader, error) {
	switch format {
	case "csv":
		cr, err := newCSVReader(r)
		if err != nil {
			return nil, &problem{reason: err.Error()}
		}
		return cr, nil
	case "ndjson":
		cols := make([]string, 0, len(d.Columns))
		for _, c := range d.Columns {
			if !c.Hidden {
				cols = append(cols, c.Name)
			}
		}
		return newNDJSONReader(r, cols), nil
	}
	return newRangesReader(format, r)
}

// sortFacets orders facet counts by their values, for stable events.
func sortFacets(f []datamarket.FacetCount) {
	sort.Slice(f, func(i, j int) bool { return fmt.Sprint(f[i].Values...) < fmt.Sprint(f[j].Values...) })
}
