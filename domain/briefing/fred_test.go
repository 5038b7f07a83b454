package briefing

import (
	"strings"
	"testing"
)

type fredRow struct {
	series, id, at string
	value          float64
}

func fredRows(obs []Observation) []fredRow {
	var out []fredRow
	for _, o := range obs {
		if o.Kind != KindIndicator || o.Source != "fred" || o.Value == nil || o.At.Location().String() != "UTC" {
			panic("not a FRED indicator")
		}
		out = append(out, fredRow{o.Series, o.SourceID, o.At.Format("2006-01-02T15:04"), *o.Value})
	}
	return out
}

func TestParseFREDCSV(t *testing.T) {
	for _, c := range []struct {
		name, csv string
		want      []fredRow
	}{
		{"current download, a missing value", "observation_date,VIXCLS\n2020-03-13,57.83\n2020-03-14,.\n2020-03-16,82.69\n",
			[]fredRow{{"VIXCLS", "VIXCLS:2020-03-13", "2020-03-13T00:00", 57.83}, {"VIXCLS", "VIXCLS:2020-03-16", "2020-03-16T00:00", 82.69}}},
		{"older download", "DATE,UNRATE\r\n2024-07-01,4.3\r\n2024-08-01,4.2\r\n",
			[]fredRow{{"UNRATE", "UNRATE:2024-07-01", "2024-07-01T00:00", 4.3}, {"UNRATE", "UNRATE:2024-08-01", "2024-08-01T00:00", 4.2}}},
		{"several series, a byte-order mark, blank and empty cells", "\ufeffobservation_date,DGS10,DGS2\n2024-05-01,4.63,\n\n2024-05-02,4.58,4.87\n2024-05-03,.,.\n",
			[]fredRow{{"DGS10", "DGS10:2024-05-01", "2024-05-01T00:00", 4.63}, {"DGS10", "DGS10:2024-05-02", "2024-05-02T00:00", 4.58},
				{"DGS2", "DGS2:2024-05-02", "2024-05-02T00:00", 4.87}}},
		{"negative values", "observation_date,T10Y2Y\n2023-03-08,-1.07\n", []fredRow{{"T10Y2Y", "T10Y2Y:2023-03-08", "2023-03-08T00:00", -1.07}}},
		{"header only", "observation_date,SP500\n", nil},
	} {
		got, err := ParseFREDCSV(strings.NewReader(c.csv))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rows := fredRows(got)
		if len(rows) != len(c.want) {
			t.Errorf("%s: %+v", c.name, rows)
			continue
		}
		for i := range rows {
			if rows[i] != c.want[i] {
				t.Errorf("%s: row %d %+v, want %+v", c.name, i, rows[i], c.want[i])
			}
		}
	}
}

func TestParseFREDCSVErrors(t *testing.T) {
	for _, c := range []struct{ csv, want string }{
		{"", "empty file"},
		{"series,VIXCLS\n", "line 1: first column"},
		{"observation_date\n", "line 1: no series column"},
		{"observation_date, \n", "line 1: column 2 has no series name"},
		{"DATE,A,A\n", "line 1: series A appears twice"},
		{"DATE,VIXCLS\n2020-03-13,57.83\n03/16/2020,82.69\n", "line 3: date"},
		{"DATE,VIXCLS\n2020-03-13,57.83\n\n2020-03-16,n/a\n", "line 4: VIXCLS value"},
		{"DATE,VIXCLS\n2020-03-16,NaN\n", "line 2: VIXCLS value"},
		{"DATE,VIXCLS\n2020-03-16,1,2\n", "line 2"}, // a row with another number of fields
		{"DATE,VIXCLS\n2020-03-16,\"1\n", "line 2"},
	} {
		_, err := ParseFREDCSV(strings.NewReader(c.csv))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.csv, err, c.want)
		}
	}
}

// What FRED publishes feeds the regime: a parsed download is the
// indicators the algorithm reads.
func TestFREDCSVFeedsTheRegime(t *testing.T) {
	obs, err := ParseFREDCSV(strings.NewReader("observation_date,VIXCLS,T10Y2Y\n2020-03-13,57.83,0.53\n2020-03-16,82.69,0.47\n"))
	if err != nil {
		t.Fatal(err)
	}
	var in Inputs
	for _, o := range obs {
		in.Indicators = append(in.Indicators, Indicator{o.Series, o.At, *o.Value})
	}
	r := run(t, AlgoSentiment, in, date("2020-03-16"))
	if r.Regime.Regime != RegimeRiskOff || *r.Regime.VIX != 82.69 || *r.Regime.YieldCurve != 0.47 {
		t.Errorf("%+v", r.Regime)
	}
}
