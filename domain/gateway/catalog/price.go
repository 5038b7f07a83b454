package catalog

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxPricePlaces bounds a price's decimal places, so every price is exact
// and no file's "0.1234567890123456789" is silently rounded.
const MaxPricePlaces = 12

// jsonNumber is the grammar of a JSON number (RFC 8259 §6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParsePrice reads a price as an exact rational; ok is false when p is not
// a non-negative decimal of at most MaxPricePlaces places. An empty price
// is zero.
func ParsePrice(p json.Number) (*big.Rat, bool) {
	s := string(p)
	if s == "" {
		return new(big.Rat), true
	}
	if r, ok := parsedPrices.Load(s); ok {
		return new(big.Rat).Set(r.(*big.Rat)), true
	}
	r, ok := parsePrice(s)
	if ok && parsedCount.Add(1) <= maxParsedPrices {
		parsedPrices.Store(s, new(big.Rat).Set(r))
	}
	return r, ok
}

// The valid prices read so far (every request's cost reads its model's
// three), up to maxParsedPrices of them: a catalog has a few dozen.
var (
	parsedPrices sync.Map // string -> *big.Rat, never modified
	parsedCount  atomic.Int64
)

const maxParsedPrices = 4096

func parsePrice(s string) (*big.Rat, bool) {
	if !jsonNumber.MatchString(s) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() < 0 {
		return nil, false
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(MaxPricePlaces), nil)))
	if !scaled.IsInt() {
		return nil, false
	}
	return r, true
}

// canonicalPrice writes a valid price in its shortest decimal form ("0.20"
// and "2e-1" are "0.2", "" is "0"); an invalid one is kept as written for
// validation to refuse.
func canonicalPrice(p json.Number) json.Number {
	r, ok := ParsePrice(p)
	if !ok {
		return p
	}
	s := r.FloatString(MaxPricePlaces)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return json.Number(s)
}

// isZeroPrice reports whether a canonical price is zero.
func isZeroPrice(p json.Number) bool { return p == "" || p == "0" }
