package captable_test

import (
	"net/http"
	"testing"
)

// TestNarrowBasedBase: a NARROW_BASED class names its base. On seed's
// company (8,000,000 common, 2,000,000 Series A at $2.50) a $2M round at
// $10M pre-money prices at $1.00 and issues C = 2,000,000 shares; B = C *
// 1.00 / 2.50 = 800,000, CP2 = 2.5 * (A + B) / (A + C):
//
//	OUTSTANDING_PREFERRED (default): A = 2,000,000, CP2 = 2.5 * 2.8/4 = 1.75,
//	  ratio 10/7 = 1.428571428571 (12 places);
//	OUTSTANDING_SHARES: A = 8,000,000 + 2,000,000 = 10,000,000, CP2 = 2.5 *
//	  10.8/12 = 2.25, ratio 10/9 = 1.111111111111.
//
// Requests and responses are checked against openapi.json.
func TestNarrowBasedBase(t *testing.T) {
	w := start(t)
	v := newConformance(t)
	for _, tc := range []struct {
		base            string
		price, ratio    float64
		recordedAsField string
	}{
		{"", 1.75, 1.428571428571, "OUTSTANDING_PREFERRED"},
		{"OUTSTANDING_PREFERRED", 1.75, 1.428571428571, "OUTSTANDING_PREFERRED"},
		{"OUTSTANDING_SHARES", 2.25, 1.111111111111, "OUTSTANDING_SHARES"},
	} {
		t.Run("base "+tc.base, func(t *testing.T) {
			c := w.register("Nb", "nb-"+tc.base+"@n.test", "Narrow "+tc.base)
			terms := map[string]any{"antiDilution": "NARROW_BASED"}
			if tc.base != "" {
				terms["antiDilutionBase"] = tc.base
			}
			seed(t, c, terms)
			b := v.call(c, "POST", "/cap-table/dilution", map[string]any{"roundSize": 2000000, "preMoneyValuation": 10000000,
				"newShareClassName": "Series B"}, http.StatusOK).body
			adj := b["antiDilution"].([]any)
			if len(adj) != 1 {
				t.Fatalf("dilution %s", mustJSON(b))
			}
			a := adj[0].(map[string]any)
			if a["newConversionPrice"] != tc.price || a["newConversionRatio"] != tc.ratio || a["antiDilutionBase"] != tc.recordedAsField {
				t.Fatalf("adjustment %s, want price %v ratio %v base %s", mustJSON(a), tc.price, tc.ratio, tc.recordedAsField)
			}
		})
	}
	c := w.register("Nr", "nr@n.test", "Narrow refusals")
	v.call(c, "POST", "/share-classes", map[string]any{"name": "Seed", "type": "PREFERRED", "totalShares": 100,
		"antiDilution": "BROAD_BASED", "antiDilutionBase": "OUTSTANDING_SHARES"}, http.StatusBadRequest)
	field(t, c.do("POST", "/share-classes", map[string]any{"name": "Seed", "type": "PREFERRED", "totalShares": 100,
		"antiDilution": "BROAD_BASED", "antiDilutionBase": "OUTSTANDING_SHARES"}), 400, "VALIDATION_ERROR", "antiDilutionBase")
	field(t, c.do("POST", "/share-classes", map[string]any{"name": "Seed", "type": "PREFERRED", "totalShares": 100,
		"antiDilution": "NARROW_BASED", "antiDilutionBase": "ALL"}), 400, "VALIDATION_ERROR", "antiDilutionBase")
	created := v.call(c, "POST", "/share-classes", map[string]any{"name": "Seed", "type": "PREFERRED", "totalShares": 100,
		"antiDilution": "NARROW_BASED", "antiDilutionBase": "OUTSTANDING_SHARES"}, http.StatusCreated).body
	// The class shows its base; a class that leaves NARROW_BASED drops it.
	id := created["id"].(string)
	if got := v.call(c, "GET", "/share-classes/"+id, nil, http.StatusOK).body; got["antiDilutionBase"] != "OUTSTANDING_SHARES" {
		t.Fatalf("GET share class: %s, want antiDilutionBase OUTSTANDING_SHARES", mustJSON(got))
	}
	updated := v.call(c, "PUT", "/share-classes/"+id, map[string]any{"antiDilution": "BROAD_BASED"}, http.StatusOK).body
	if updated["antiDilutionBase"] != nil {
		t.Fatalf("after BROAD_BASED: %s, want antiDilutionBase null", mustJSON(updated))
	}
	if got := v.call(c, "GET", "/share-classes?limit=5", nil, http.StatusOK).body["data"].([]any); got[0].(map[string]any)["antiDilutionBase"] != nil {
		t.Fatalf("list: %s", mustJSON(got))
	}
}
