package catalog

import (
	_ "embed"
	"fmt"
)

// builtinJSON is the development catalog: models with ids strata-dev-*,
// served by the development upstream ("dev"), with development prices. It
// is not a real vendor's price list: the seed does not reproduce model ids,
// because they carry vendor and family names. Operators import their own
// (`strata models import FILE`).
//
//go:embed builtin.json
var builtinJSON []byte

// BuiltinName names the built-in catalog in catalog.imported events.
const BuiltinName = "builtin.json"

// Builtin returns the built-in development catalog, parsed: a 7B text model
// (free tier, the free and basic default), a 32B code model (professional,
// the professional and enterprise default; 32,768 max tokens, tools), a
// reasoning model without tool calling (basic), a frontier model (basic;
// 8,192 max tokens, tools, images), an embedding model (free), one retired
// alias, and the four routers (professional).
func Builtin() File {
	f, err := Parse(builtinJSON)
	if err != nil {
		panic(fmt.Sprintf("catalog: the built-in catalog does not parse: %v", err)) // a test keeps it valid
	}
	return f
}

// BuiltinJSON returns the built-in catalog file as shipped.
func BuiltinJSON() []byte { return append([]byte(nil), builtinJSON...) }
