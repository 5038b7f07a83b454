package briefing

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// UnmarshalJSON reads an observation, its at as an RFC 3339 time or a
// date (YYYY-MM-DD, 00:00 UTC: an indicator's date as FRED writes it).
// Unknown fields are refused.
func (o *Observation) UnmarshalJSON(b []byte) error {
	type plain Observation
	var v struct {
		plain
		At json.RawMessage `json:"at"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*o = Observation(v.plain)
	o.At = time.Time{}
	if len(v.At) == 0 || string(v.At) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(v.At, &s); err != nil {
		return kernel.Invalid("at", "datetime", "at must be an RFC 3339 time or a date YYYY-MM-DD")
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		o.At = t.UTC()
		return nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		o.At = t
		return nil
	}
	return kernel.Invalid("at", "datetime", "at must be an RFC 3339 time or a date YYYY-MM-DD, got "+strconvQuote(s))
}

func strconvQuote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}
