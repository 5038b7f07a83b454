package datamarket

import (
	"io"

	"github.com/strata-platform/strata/commands/datamarket/enrich"
)

// rangesReader yields a provider's official ranges file (enrich.Formats)
// as rows of prefix, service, region.
type rangesReader struct {
	ranges []enrich.Range
	i      int
}

// newRangesReader parses the whole file (the providers' files are JSON
// documents or short lists); a file that does not parse is refused whole.
func newRangesReader(format string, r io.Reader) (cellReader, error) {
	parse, ok := enrich.Formats[format]
	if !ok {
		return nil, &problem{reason: "unknown ranges format " + format}
	}
	rs, err := parse(r)
	if err != nil {
		return nil, &problem{reason: err.Error()}
	}
	return &rangesReader{ranges: rs}, nil
}

func (r *rangesReader) Header() []string { return []string{"prefix", "service", "region"} }

func (r *rangesReader) Next() ([]string, error) {
	if r.i >= len(r.ranges) {
		return nil, io.EOF
	}
	x := r.ranges[r.i]
	r.i++
	return []string{x.Prefix.String(), x.Service, x.Region}, nil
}
