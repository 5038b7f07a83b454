// Package wirejson reads request bodies of the gateway's wire formats
// strictly, naming the field of every mistake (messages[2].content[0].text)
// with the rule it broke, and writes JSON as the formats' servers do.
//
// JSON null stands for an absent member everywhere: both formats' SDKs send
// null for unset optional fields.
package wirejson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/strata-platform/strata/domain/kernel"
)

// Marshal encodes v compactly, leaving <, > and & as they are (the
// formats' servers do; encoding/json would write \u003c).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Invalid builds the error of field breaking rule; the message starts with
// the field, as both formats' APIs word theirs.
func Invalid(field, rule, msg string) *kernel.Error {
	if field == "" {
		return kernel.Invalid(field, rule, msg)
	}
	return kernel.Invalid(field, rule, field+": "+msg)
}

// Index is the path of element i of the array at path.
func Index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// Obj is a JSON object of a request, with its path.
type Obj struct {
	Path string
	m    map[string]json.RawMessage
}

// Parse reads a request body, which must be one JSON object.
func Parse(body []byte) (Obj, error) {
	if !json.Valid(body) {
		return Obj{}, Invalid("", "json", "the request body is not valid JSON")
	}
	return Object(body, "")
}

// typeName names the JSON type of raw, for messages.
func typeName(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func wrongType(path, want string, raw json.RawMessage) error {
	return Invalid(path, "type:"+want, fmt.Sprintf("expected %s, got %s", article(want), typeName(raw)))
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}

// IsNull reports whether raw is absent or JSON null.
func IsNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || bytes.Equal(raw, []byte("null"))
}

// IsString reports whether raw is a JSON string.
func IsString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

// Object reads raw as an object at path.
func Object(raw json.RawMessage, path string) (Obj, error) {
	var m map[string]json.RawMessage
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &m) != nil {
		return Obj{}, wrongType(path, "object", raw)
	}
	return Obj{Path: path, m: m}, nil
}

// Array reads raw as an array at path.
func Array(raw json.RawMessage, path string) ([]json.RawMessage, error) {
	var a []json.RawMessage
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '[' || json.Unmarshal(b, &a) != nil {
		return nil, wrongType(path, "array", raw)
	}
	return a, nil
}

// String reads raw as a string at path.
func String(raw json.RawMessage, path string) (string, error) {
	var s string
	if !IsString(raw) || json.Unmarshal(raw, &s) != nil {
		return "", wrongType(path, "string", raw)
	}
	return s, nil
}

// Field is the path of member key.
func (o Obj) Field(key string) string {
	if o.Path == "" {
		return key
	}
	return o.Path + "." + key
}

// Has reports whether member key is present and not null.
func (o Obj) Has(key string) bool { return !IsNull(o.m[key]) }

// Raw is member key as it is, nil when absent or null.
func (o Obj) Raw(key string) json.RawMessage {
	if !o.Has(key) {
		return nil
	}
	return o.m[key]
}

// Only refuses the first member (in name order) not among keys
// (unknown_field).
func (o Obj) Only(keys ...string) error {
	var unknown []string
	for k := range o.m {
		if !slices.Contains(keys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return Invalid(o.Field(unknown[0]), "unknown_field", "unknown field")
}

// Required refuses a missing or null member key (required).
func (o Obj) Required(key string) error {
	if !o.Has(key) {
		return Invalid(o.Field(key), "required", "required")
	}
	return nil
}

// String reads member key as a string; "" when absent.
func (o Obj) String(key string) (string, error) {
	if !o.Has(key) {
		return "", nil
	}
	return String(o.m[key], o.Field(key))
}

// Bool reads member key as a boolean; false when absent.
func (o Obj) Bool(key string) (bool, error) {
	if !o.Has(key) {
		return false, nil
	}
	var b bool
	if raw := bytes.TrimSpace(o.m[key]); raw[0] != 't' && raw[0] != 'f' || json.Unmarshal(raw, &b) != nil {
		return false, wrongType(o.Field(key), "boolean", o.m[key])
	}
	return b, nil
}

// Float reads member key as a number; nil when absent.
func (o Obj) Float(key string) (*float64, error) {
	if !o.Has(key) {
		return nil, nil
	}
	var f float64
	raw := bytes.TrimSpace(o.m[key])
	if c := raw[0]; (c != '-' && (c < '0' || c > '9')) || json.Unmarshal(raw, &f) != nil {
		return nil, wrongType(o.Field(key), "number", o.m[key])
	}
	return &f, nil
}

// Int reads member key as an integer; nil when absent. A number with a
// fraction is refused (type:integer), as is one beyond 32 bits.
func (o Obj) Int(key string) (*int, error) {
	f, err := o.Float(key)
	if err != nil || f == nil {
		if err != nil {
			return nil, wrongType(o.Field(key), "integer", o.m[key])
		}
		return nil, nil
	}
	if *f != float64(int64(*f)) || *f > 1<<31-1 || *f < -(1<<31) {
		return nil, Invalid(o.Field(key), "type:integer", "expected an integer")
	}
	n := int(*f)
	return &n, nil
}

// Object reads member key as an object; ok is false when absent.
func (o Obj) Object(key string) (Obj, bool, error) {
	if !o.Has(key) {
		return Obj{}, false, nil
	}
	obj, err := Object(o.m[key], o.Field(key))
	return obj, err == nil, err
}

// Array reads member key as an array; nil when absent.
func (o Obj) Array(key string) ([]json.RawMessage, error) {
	if !o.Has(key) {
		return nil, nil
	}
	return Array(o.m[key], o.Field(key))
}

// JSONObject reads member key as an object and returns it compacted; nil
// when absent.
func (o Obj) JSONObject(key string) (json.RawMessage, error) {
	if !o.Has(key) {
		return nil, nil
	}
	if _, err := Object(o.m[key], o.Field(key)); err != nil {
		return nil, err
	}
	return Compact(o.m[key]), nil
}

// Compact returns valid JSON raw without insignificant space.
func Compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return json.RawMessage(b.Bytes())
}

// KindOfStatus reads an upstream's HTTP status as an error kind, for an
// error body whose type says nothing known. 529 is the messages format's
// "overloaded".
func KindOfStatus(status int) kernel.Kind {
	switch status {
	case 400, 422:
		return kernel.KindInvalid
	case 401:
		return kernel.KindUnauthenticated
	case 402:
		return kernel.KindPaymentRequired
	case 403:
		return kernel.KindForbidden
	case 404:
		return kernel.KindNotFound
	case 408, 504:
		return kernel.KindTimeout
	case 413:
		return kernel.KindTooLarge
	case 429:
		return kernel.KindRateLimited
	case 502, 503, 529:
		return kernel.KindUnavailable
	}
	return kernel.KindInternal
}
