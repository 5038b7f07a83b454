package datamarket

import (
	"fmt"
	"io"
)

// newRangesReader reads a provider's official ranges file as rows of
// prefix, service, region.
func newRangesReader(format string, r io.Reader) (cellReader, error) {
	return nil, &problem{reason: fmt.Sprintf("format %s is not read yet", format)}
}
