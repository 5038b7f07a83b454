package httpx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/strata-platform/strata/domain/kernel"
)

// MaxJSONDepth is how deeply objects and arrays may nest in a request body.
// Every body the platform accepts nests a few levels; the limit keeps a
// hostile body from costing stack and time.
const MaxJSONDepth = 64

// CheckJSONText checks a JSON document before it is decoded: every string in
// it (object member names and values) must be valid UTF-8 with no NUL
// character (PostgreSQL cannot store U+0000 in text or jsonb, so such a
// string would poison every event that carried it), no object may repeat a
// member name, and nesting stops at MaxJSONDepth. encoding/json would
// silently replace invalid UTF-8 with U+FFFD and keep the last of duplicate
// members; both are refused here instead.
//
// Failures are invalid errors naming the member's path (e.g. "tags[2]",
// "investors[0].name", or "body" at the top) and one of the rules "utf8",
// "no_nul", "duplicate_key", "max_depth"; a document that is not JSON at all
// is left to the decoder. The token scanner is jsontext from
// github.com/go-json-experiment/json (the module that became Go's
// encoding/json/v2), which checks UTF-8 and duplicate names itself.
func CheckJSONText(doc []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	depth := 0
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return jsonTextError(doc, err)
		}
		switch tok.Kind() {
		case '{', '[':
			if depth++; depth > MaxJSONDepth {
				return kernel.Invalid("body", "max_depth",
					fmt.Sprintf("objects and arrays may nest at most %d levels deep", MaxJSONDepth))
			}
		case '}', ']':
			depth--
		case '"':
			if strings.IndexByte(tok.String(), 0) >= 0 {
				field := pointerField(dec.StackPointer())
				return kernel.Invalid(field, "no_nul", "text may not contain the NUL character (U+0000)")
			}
		}
	}
}

// jsonTextError turns a scanner error into a client error. A plain syntax
// error is left to encoding/json (nil), which reports it in the decoder's
// terms; the document is not decoded past it either way.
func jsonTextError(doc []byte, err error) error {
	var syn *jsontext.SyntacticError
	if !errors.As(err, &syn) {
		return nil
	}
	field := pointerField(syn.JSONPointer)
	msg := syn.Err.Error()
	switch {
	case errors.Is(err, jsontext.ErrDuplicateName):
		return kernel.Invalid(field, "duplicate_key", "this member appears more than once in its object")
	case strings.Contains(msg, "UTF-8") || strings.Contains(msg, "surrogate"):
		return kernel.Invalid(field, "utf8", "text must be valid UTF-8 (no invalid bytes or unpaired surrogate escapes)")
	case !utf8.Valid(doc):
		return kernel.Invalid("body", "utf8", "the body must be valid UTF-8")
	}
	return nil
}

// pointerField writes a JSON pointer ("/investors/0/name") as the dotted
// field path the error bodies use ("investors[0].name"); the root is "body".
func pointerField(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.ParseUint(tok, 10, 64); err == nil && isArrayIndex(tok) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}

// isArrayIndex tells a pointer token that indexes an array. A JSON pointer
// does not distinguish "0" the index from "0" a member name; member names
// that are numbers are rare in request bodies and read the same either way.
func isArrayIndex(tok string) bool {
	return tok != "" && (tok == "0" || tok[0] != '0')
}
