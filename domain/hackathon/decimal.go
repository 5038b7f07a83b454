package hackathon

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
)

// parseDecimal reads decimal text ("4", "3.5", "-0.25") with at most
// places digits after the point, exactly.
func parseDecimal(field, s string, places int) (*big.Rat, error) {
	bad := kernel.Invalid(field, "decimal", field+" must be a number with at most "+strconv.Itoa(places)+" decimal places")
	s = strings.TrimSpace(s)
	digits := strings.TrimPrefix(s, "-")
	intPart, frac, hasPoint := strings.Cut(digits, ".")
	if intPart == "" || len(frac) > places || (hasPoint && frac == "") || len(digits) > 30 {
		return nil, bad
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return nil, bad
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, bad
	}
	return r, nil
}

// mustRat reads decimal text recorded in an event (validated when it was
// decided); unreadable text counts as zero.
func mustRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return new(big.Rat)
	}
	return r
}

// cmpDecimal compares two decimal texts.
func cmpDecimal(a, b string) int { return mustRat(a).Cmp(mustRat(b)) }

// formatDecimal writes r exactly as decimal text without trailing zeros;
// r must have a finite decimal expansion of at most 12 places (products
// and sums of the rubric's decimals do).
func formatDecimal(r *big.Rat) string {
	s := r.FloatString(12)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// DecimalFloat converts recorded decimal text to a float64 (for
// statistics, which are not money).
func DecimalFloat(s string) float64 {
	f, _ := mustRat(s).Float64()
	return f
}
