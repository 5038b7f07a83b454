package hackathon

import (
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
)

// Criterion defaults: weight 1, scores from 1 to 5 (the scale Devpost's
// judges know).
const (
	DefaultWeight = "1"
	DefaultMin    = "1"
	DefaultMax    = "5"
)

// Normalize checks a rubric: a name; 1 to MaxCriteria criteria with unique
// keys (^[a-z][a-z0-9_]{0,39}$), a name (the key when empty), a positive
// weight with at most four decimals (default 1), min below max with at most
// two decimals (default 1 and 5); a valid tie-break ladder (the default
// ladder when empty).
func (r Rubric) Normalize() (Rubric, error) {
	var err error
	if r.Name, err = text("name", r.Name, MaxName, true, false); err != nil {
		return r, err
	}
	if len(r.Criteria) == 0 {
		return r, kernel.Invalid("criteria", "required", "criteria must list at least one criterion {key, name, weight, min, max}")
	}
	if len(r.Criteria) > MaxCriteria {
		return r, kernel.Invalid("criteria", "max_items:"+strconv.Itoa(MaxCriteria), "criteria must list at most "+strconv.Itoa(MaxCriteria)+" criteria")
	}
	out := make([]Criterion, len(r.Criteria))
	seen := map[string]bool{}
	for i, c := range r.Criteria {
		if out[i], err = c.normalize("criteria[" + strconv.Itoa(i) + "]"); err != nil {
			return r, err
		}
		if seen[out[i].Key] {
			return r, kernel.Invalid("criteria["+strconv.Itoa(i)+"].key", "unique", "criterion key "+out[i].Key+" appears twice")
		}
		seen[out[i].Key] = true
	}
	r.Criteria = out
	if len(r.TieBreak) == 0 {
		r.TieBreak = judging.DefaultLadder()
	}
	if err := judging.ValidateLadder(r.TieBreak); err != nil {
		return r, kernel.Invalid("tie_break", "ladder", "tie_break: "+err.Error())
	}
	r.TieBreak = slices.Clone(r.TieBreak)
	return r, nil
}

func (c Criterion) normalize(at string) (Criterion, error) {
	c.Key = strings.TrimSpace(c.Key)
	if !criterionKey.MatchString(c.Key) {
		return c, kernel.Invalid(at+".key", "pattern:^[a-z][a-z0-9_]{0,39}$", at+".key must be lower case letters, digits and _ starting with a letter (at most 40)")
	}
	var err error
	if c.Name, err = text(at+".name", c.Name, MaxName, false, false); err != nil {
		return c, err
	}
	if c.Name == "" {
		c.Name = c.Key
	}
	c.Weight = orDefault(c.Weight, DefaultWeight)
	w, err := parseDecimal(at+".weight", c.Weight, 4)
	if err != nil {
		return c, err
	}
	if w.Sign() <= 0 || w.Cmp(big.NewRat(MaxCriterionValue, 1)) > 0 {
		return c, kernel.Invalid(at+".weight", "range:>0", at+".weight must be greater than 0 and at most "+strconv.Itoa(MaxCriterionValue))
	}
	c.Min, c.Max = orDefault(c.Min, DefaultMin), orDefault(c.Max, DefaultMax)
	lo, err := parseDecimal(at+".min", c.Min, 2)
	if err != nil {
		return c, err
	}
	hi, err := parseDecimal(at+".max", c.Max, 2)
	if err != nil {
		return c, err
	}
	limit := big.NewRat(MaxCriterionValue, 1)
	if new(big.Rat).Abs(lo).Cmp(limit) > 0 || new(big.Rat).Abs(hi).Cmp(limit) > 0 {
		return c, kernel.Invalid(at+".max", "range", at+".min and .max must be within ±"+strconv.Itoa(MaxCriterionValue))
	}
	if lo.Cmp(hi) >= 0 {
		return c, kernel.Invalid(at+".max", "gt:min", at+".max must be greater than "+at+".min")
	}
	c.Weight, c.Min, c.Max = formatDecimal(w), formatDecimal(lo), formatDecimal(hi)
	return c, nil
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s == "" {
		return def
	}
	return s
}

// totalTolerance is how far a client's total_score may be from the exact
// weighted total: it must agree to two decimals.
var totalTolerance = big.NewRat(5, 1000)

// Score checks a judge's scores against the rubric and returns them as
// canonical decimal text with the exact weighted total Σ weight × score.
// Every criterion must be present and within [min, max] (at most two
// decimals), no other key may appear, and total must agree with the
// weighted total to two decimals (else the error names the expected
// value). Rule failures are unprocessable (422); malformed values invalid.
func (r Rubric) Score(scores map[string]string, total string) (map[string]string, string, error) {
	if len(scores) == 0 {
		return nil, "", kernel.Invalid("scores", "required", "scores is required: an object with a number for each criterion of the active rubric ("+strings.Join(r.keys(), ", ")+")")
	}
	for _, k := range slices.Sorted(maps.Keys(scores)) {
		if !slices.Contains(r.keys(), k) {
			return nil, "", kernel.E(kernel.KindUnprocessable, "scores."+k+" is not a criterion of the active rubric (criteria: "+strings.Join(r.keys(), ", ")+")")
		}
	}
	out := make(map[string]string, len(r.Criteria))
	sum := new(big.Rat)
	for _, c := range r.Criteria {
		v, ok := scores[c.Key]
		if !ok {
			return nil, "", kernel.E(kernel.KindUnprocessable, "scores."+c.Key+" is missing: every criterion of the active rubric must be scored")
		}
		x, err := parseDecimal("scores."+c.Key, v, 2)
		if err != nil {
			return nil, "", err
		}
		if x.Cmp(mustRat(c.Min)) < 0 || x.Cmp(mustRat(c.Max)) > 0 {
			return nil, "", kernel.E(kernel.KindUnprocessable, "scores."+c.Key+" must be from "+c.Min+" to "+c.Max+" (got "+formatDecimal(x)+")")
		}
		out[c.Key] = formatDecimal(x)
		sum.Add(sum, new(big.Rat).Mul(x, mustRat(c.Weight)))
	}
	given, err := parseDecimal("total_score", total, 6)
	if err != nil {
		return nil, "", err
	}
	if new(big.Rat).Abs(new(big.Rat).Sub(given, sum)).Cmp(totalTolerance) > 0 {
		return nil, "", kernel.E(kernel.KindUnprocessable, "total_score must equal the rubric's weighted total (the sum of weight × score) "+
			formatDecimal(sum)+" (got "+formatDecimal(given)+")")
	}
	return out, formatDecimal(sum), nil
}

func (r Rubric) keys() []string {
	keys := make([]string, len(r.Criteria))
	for i, c := range r.Criteria {
		keys[i] = c.Key
	}
	return keys
}
