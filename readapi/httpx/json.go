package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
)

// WriteJSON writes v as a JSON response with the given status and
// Content-Type application/json. v is marshalled before anything is written:
// on a marshal error nothing is sent and the error is returned (pass it to
// WriteError, which answers 500). An error writing to the client is not
// reported: the client has gone and nothing can be done about it.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
	return nil
}

// DecodeJSON decodes the request body, which must be exactly one JSON value,
// into dst. Every failure it reports is a *kernel.Error a client can act on:
//
//   - Content-Type other than application/json (a charset parameter is
//     allowed and must be utf-8): unsupported_media_type (415);
//   - empty body: invalid, field "body", rule "required" (400);
//   - malformed JSON: invalid, field "body", rule "json_syntax", the message
//     names the byte offset (400);
//   - a value of the wrong type: invalid, the field's dotted path, rule
//     "type:<json type>", e.g. "amount: type:integer (must be an integer)" (400);
//   - a field dst does not have: invalid, rule "unknown_field" (400). Unknown
//     fields are rejected, not ignored, so a misspelt optional field fails
//     loudly instead of silently doing nothing;
//   - anything after the first JSON value: invalid, rule "single_value" (400);
//   - a string that is not valid UTF-8 or holds NUL, a member name repeated
//     in its object, nesting deeper than MaxJSONDepth: invalid, naming the
//     member, rules "utf8", "no_nul", "duplicate_key", "max_depth"
//     (CheckJSONText), before anything is decoded;
//   - a body over the BodyLimit: too_large (413).
//
// A json.Unmarshaler in dst may return a *kernel.Error, which is passed on as
// is; any other value it rejects is invalid, field "body", rule "json_value",
// with a generic message (its text is not shown). Only a programming error
// (dst not a non-nil pointer) comes back without a kind, i.e. internal.
func DecodeJSON(r *http.Request, dst any) error {
	if err := requireJSON(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	if r.Body == nil || r.Body == http.NoBody {
		return emptyBody()
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge(mbe.Limit)
		}
		return kernel.Invalid("body", "read", "the request body could not be read")
	}
	return DecodeJSONBytes(body, dst)
}

// DecodeJSONBytes decodes one JSON document held in memory into dst, with the
// rules of DecodeJSON (without the Content-Type and size checks): the text is
// checked first (CheckJSONText: UTF-8, no NUL, no duplicate members, nesting),
// then decoded strictly.
func DecodeJSONBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return emptyBody()
	}
	if err := CheckJSONText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return kernel.Invalid("body", "single_value", "unexpected data after the JSON value")
	}
	return nil
}

func requireJSON(contentType string) error {
	const want = "Content-Type must be application/json"
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType != "application/json" {
		return kernel.E(kernel.KindUnsupportedMediaType, want)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return kernel.E(kernel.KindUnsupportedMediaType, want+" with charset utf-8")
	}
	return nil
}

func emptyBody() error {
	return kernel.Invalid("body", "required", "request body is empty")
}

func tooLarge(limit int64) error {
	return kernel.E(kernel.KindTooLarge, "request body exceeds the limit of "+strconv.FormatInt(limit, 10)+" bytes")
}

func decodeError(err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		mbe *http.MaxBytesError
	)
	switch {
	case errors.Is(err, io.EOF):
		return emptyBody()
	case errors.As(err, &mbe):
		return tooLarge(mbe.Limit)
	case errors.As(err, &syn):
		return &kernel.Error{Kind: kernel.KindInvalid, Field: "body", Rule: "json_syntax",
			Message: fmt.Sprintf("malformed JSON at byte offset %d", syn.Offset), Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &kernel.Error{Kind: kernel.KindInvalid, Field: "body", Rule: "json_syntax",
			Message: "malformed JSON: unexpected end of input", Err: err}
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		if rule, msg, ok := jsonRule(typ.Type); ok {
			return &kernel.Error{Kind: kernel.KindInvalid, Field: field, Rule: rule, Message: msg, Err: err}
		}
		want := jsonType(typ.Type)
		return &kernel.Error{Kind: kernel.KindInvalid, Field: field, Rule: "type:" + want,
			Message: "must be " + article(want) + " " + want, Err: err}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field, uerr := strconv.Unquote(name)
		if uerr != nil {
			field = name
		}
		return &kernel.Error{Kind: kernel.KindInvalid, Field: field, Rule: "unknown_field",
			Message: "this field is not accepted here", Err: err}
	}
	var (
		ke  *kernel.Error
		inv *json.InvalidUnmarshalError
	)
	switch {
	case errors.As(err, &ke): // a json.Unmarshaler that reports its own kind
		return err
	case errors.As(err, &inv):
		return fmt.Errorf("decode JSON body: %w", err)
	}
	// A json.Unmarshaler rejected a value; its text is not known to be safe.
	return &kernel.Error{Kind: kernel.KindInvalid, Field: "body", Rule: "json_value",
		Message: "a value in the body could not be decoded", Err: err}
}

// jsonRule lets a type named by a json.UnmarshalTypeError give the rule a
// value broke (a decimal with too many places, a date out of range), for
// values of the right JSON type that are still refused.
func jsonRule(t reflect.Type) (rule, message string, ok bool) {
	if t == nil {
		return "", "", false
	}
	if r, isRule := reflect.Zero(t).Interface().(interface{ JSONRule() (string, string) }); isRule {
		rule, message = r.JSONRule()
		return rule, message, true
	}
	return "", "", false
}

// jsonType names the JSON type a Go type is decoded from.
func jsonType(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// A type may name its own JSON form ("decimal", "date"), for types that
	// decode themselves from more than one JSON type.
	if named, ok := reflect.Zero(t).Interface().(interface{ JSONType() string }); ok {
		return named.JSONType()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "value"
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
