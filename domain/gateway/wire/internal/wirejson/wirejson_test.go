package wirejson

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func rule(err error) string {
	var ke *kernel.Error
	if !errors.As(err, &ke) {
		return ""
	}
	return ke.Field + " " + ke.Rule
}

func TestReaders(t *testing.T) {
	o, err := Parse([]byte(`{"s":"x","n":null,"i":3,"f":2.5,"big":3000000000,"b":true,"o":{"k":[1]},"a":[],"str5":"5","zz":1,"aa":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Has("n") || o.Raw("n") != nil || o.Has("missing") {
		t.Error("null or missing read as present")
	}
	if s, err := o.String("n"); s != "" || err != nil {
		t.Errorf("null string: %q %v", s, err)
	}
	if i, err := o.Int("i"); err != nil || *i != 3 {
		t.Errorf("int: %v %v", i, err)
	}
	for key, want := range map[string]string{"f": "f type:integer", "big": "big type:integer", "str5": "str5 type:integer", "s": "s type:integer"} {
		if _, err := o.Int(key); rule(err) != want {
			t.Errorf("Int(%s): %v", key, err)
		}
	}
	if _, err := o.Float("str5"); rule(err) != "str5 type:number" {
		t.Errorf("Float of a string: %v", err)
	}
	if _, err := o.Bool("s"); rule(err) != "s type:boolean" {
		t.Errorf("Bool of a string: %v", err)
	}
	if b, err := o.Bool("b"); !b || err != nil {
		t.Errorf("bool: %v %v", b, err)
	}
	inner, ok, err := o.Object("o")
	if !ok || err != nil {
		t.Fatal(err)
	}
	if _, err := inner.String("k"); rule(err) != "o.k type:string" {
		t.Errorf("nested path: %v", err)
	}
	if _, err := Array(inner.Raw("k"), inner.Field("k")); err != nil {
		t.Error(err)
	}
	if _, _, err := o.Object("a"); rule(err) != "a type:object" {
		t.Errorf("Object of an array: %v", err)
	}
	// The first unknown member in name order is named.
	if err := o.Only("s", "n", "i", "f", "big", "b", "o", "a", "str5"); rule(err) != "aa unknown_field" {
		t.Errorf("Only: %v", err)
	}
	if err := o.Required("n"); rule(err) != "n required" {
		t.Errorf("Required of null: %v", err)
	}
	if _, err := Parse([]byte(`{"a":`)); rule(err) != " json" {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := Parse([]byte(`"x"`)); rule(err) != " type:object" {
		t.Errorf("not an object: %v", err)
	}
}

func TestMarshalKeepsMarkup(t *testing.T) {
	b, err := Marshal(map[string]string{"t": "<b>&</b>"})
	if err != nil || string(b) != `{"t":"<b>&</b>"}` {
		t.Fatalf("%s %v", b, err)
	}
}
