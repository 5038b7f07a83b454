package num

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"0", "0"}, {"1200", "1200"}, {"-0.5", "-0.5"}, {"1.114437", "1.114437"},
		{"007.50", "7.5"}, {"11764705.88", "11764705.88"},
	} {
		n, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		if n.String() != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, n, tc.want)
		}
	}
	for _, bad := range []string{"", "-", "+1", "1.", ".5", "1e3", "1/3", "abc", "1.2.3", " 1", "12345678901234567890123456789012345678901"} {
		if _, err := Parse(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) err = %v, want ErrSyntax", bad, err)
		}
	}
}

func TestArithmeticIsExact(t *testing.T) {
	third := Int(1).Div(Int(3))
	if got := third.Mul(Int(3)); !got.Equal(Int(1)) {
		t.Fatalf("1/3*3 = %s", got)
	}
	if got := MustParse("0.1").Add(MustParse("0.2")); !got.Equal(MustParse("0.3")) {
		t.Fatalf("0.1+0.2 = %s", got)
	}
	if got := third.String(); got != "0.333333333333" {
		t.Fatalf("1/3 = %s", got)
	}
	if got := Ratio(2, 3).String(); got != "0.666666666667" {
		t.Fatalf("2/3 = %s", got)
	}
	if got := Ratio(1, 8).String(); got != "0.125" {
		t.Fatalf("1/8 = %s", got)
	}
}

func TestRounding(t *testing.T) {
	for _, tc := range []struct {
		in          Num
		places      int
		round, down string
	}{
		{MustParse("588235.294"), 0, "588235", "588235"},
		{MustParse("2.5"), 0, "3", "2"},
		{MustParse("-2.5"), 0, "-3", "-3"},
		{Ratio(20000000, 13), 2, "1538461.54", "1538461.53"},
		{MustParse("1.1144370"), 6, "1.114437", "1.114437"},
	} {
		if got := tc.in.Round(tc.places).String(); got != tc.round {
			t.Errorf("Round(%s, %d) = %s, want %s", tc.in, tc.places, got, tc.round)
		}
		if got := tc.in.RoundDown(tc.places).String(); got != tc.down {
			t.Errorf("RoundDown(%s, %d) = %s, want %s", tc.in, tc.places, got, tc.down)
		}
	}
	if got := MustParse("-1.5").Floor().String(); got != "-2" {
		t.Errorf("Floor(-1.5) = %s", got)
	}
	if got := MustParse("1.2").Ceil().String(); got != "2" {
		t.Errorf("Ceil(1.2) = %s", got)
	}
	if got := Ratio(1, 3).Fixed(4); got != "0.3333" {
		t.Errorf("Fixed = %s", got)
	}
}

func TestJSON(t *testing.T) {
	var v struct {
		A Num `json:"a"`
		B Num `json:"b"`
		C Num `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"a": 5000000, "b": "0.34", "c": 1.5e3}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A.String() != "5000000" || v.B.String() != "0.34" || v.C.String() != "1500" {
		t.Fatalf("decoded %s %s %s", v.A, v.B, v.C)
	}
	out, _ := json.Marshal(v)
	if string(out) != `{"a":5000000,"b":0.34,"c":1500}` {
		t.Fatalf("encoded %s", out)
	}
	for _, bad := range []string{`{"a": null}`, `{"a": "x"}`, `{"a": true}`, `{"a": "1e999999"}`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("decoded %s without error", bad)
		}
	}
}

func TestZeroValueAndImmutability(t *testing.T) {
	var z Num
	if !z.IsZero() || z.String() != "0" || !z.Add(Int(2)).Equal(Int(2)) {
		t.Fatal("zero value is not 0")
	}
	a := Int(5)
	_ = a.Add(Int(1))
	_ = a.Neg()
	if !a.Equal(Int(5)) {
		t.Fatal("operation changed its operand")
	}
	if n, ok := MustParse("-7.9").Int64(); !ok || n != -7 {
		t.Fatalf("Int64 = %d %v", n, ok)
	}
	if !Sum(Int(1), Int(2), Ratio(1, 2)).Equal(MustParse("3.5")) {
		t.Fatal("Sum")
	}
	if !Min(Int(1), Int(2)).Equal(Int(1)) || !Max(Int(1), Int(2)).Equal(Int(2)) {
		t.Fatal("Min/Max")
	}
}

func TestJSONErrorNamesTheField(t *testing.T) {
	var v struct {
		Terms struct {
			Cap Num `json:"valuationCap"`
		} `json:"terms"`
	}
	err := json.Unmarshal([]byte(`{"terms": {"valuationCap": "4M"}}`), &v)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "terms.valuationCap" {
		t.Fatalf("err = %#v, want an UnmarshalTypeError for terms.valuationCap", err)
	}
}
