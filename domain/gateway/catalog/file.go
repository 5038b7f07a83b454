package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
)

// File is a whole catalog as an operator writes it (JSON) and imports it:
// every model (live entries and retired aliases), the routers' tables and
// the default model of each tier. An import makes the catalog equal to the
// file; models cannot be dropped, only retired (see State.Import).
//
//	{
//	  "models": [
//	    {"id": "...", "provider": "...", "label": "...", "kind": "chat",
//	     "capabilities": {"intelligence": 7, "speed": 6, "cost": 4},
//	     "context_window": 131072, "max_tokens": 32768, "tags": ["code"],
//	     "tier": "professional", "pricing": {"input": 0.2, "output": 0.6, "cache_read": 0.05},
//	     "supports_tools": true, "supports_images": false, "free": false,
//	     "upstream": {"id": "dev", "model": "..."}},
//	    {"id": "old-alias", "tier": "free", "status": "retired", "replaced_by": "..."}
//	  ],
//	  "routers": [{"id": "software-engineering", "tier": "professional",
//	     "routes": {"software-engineering": "...", "knowledge-base": "...", "writing": "...", "general": "..."}}],
//	  "defaults": {"free": "...", "basic": "...", "professional": "...", "enterprise": "..."}
//	}
type File struct {
	Models   []Model         `json:"models"`
	Routers  []Router        `json:"routers,omitempty"`
	Defaults map[Tier]string `json:"defaults"`
}

// MaxFileBytes bounds a catalog file.
const MaxFileBytes = 8 << 20

// Parse reads a catalog file, fills its defaults and validates it as a
// whole. A refusal is a kernel invalid error whose field names the entry
// and its field ("models[3].max_tokens", "routers[0].routes.general") and
// whose message names the entry's id.
func Parse(data []byte) (File, error) {
	if len(data) > MaxFileBytes {
		return File{}, kernel.Invalid("file", fmt.Sprintf("max_bytes:%d", MaxFileBytes), "the catalog file is larger than 8 MiB")
	}
	var top struct {
		Models   []json.RawMessage `json:"models"`
		Routers  []json.RawMessage `json:"routers"`
		Defaults map[Tier]string   `json:"defaults"`
	}
	if err := decodeStrict(data, &top); err != nil {
		return File{}, jsonError("", err)
	}
	f := File{Defaults: top.Defaults}
	for i, raw := range top.Models {
		var m Model
		if err := decodeStrict(raw, &m); err != nil {
			return File{}, jsonError(fmt.Sprintf("models[%d]", i), err)
		}
		f.Models = append(f.Models, m)
	}
	for i, raw := range top.Routers {
		var r Router
		if err := decodeStrict(raw, &r); err != nil {
			return File{}, jsonError(fmt.Sprintf("routers[%d]", i), err)
		}
		f.Routers = append(f.Routers, r)
	}
	f = f.normalize()
	if err := f.Validate(); err != nil {
		return File{}, err
	}
	return f.canonical(), nil
}

// decodeStrict decodes exactly one JSON value, refusing unknown fields.
func decodeStrict(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the catalog object")
	}
	return nil
}

// jsonError turns a decoding error into an invalid error naming the entry
// (prefix) and the field.
func jsonError(prefix string, err error) error {
	join := func(field string) string {
		switch {
		case prefix == "":
			return field
		case field == "":
			return prefix
		}
		return prefix + "." + field
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := typeName(te.Type.Kind().String())
		return kernel.Invalid(join(te.Field), "type:"+want, fmt.Sprintf("%s must be a JSON %s, not a %s", join(te.Field), want, te.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return kernel.Invalid(join(name), "unknown_field", join(name)+" is not a field of the catalog file")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		field := join("")
		if field == "" {
			field = "file"
		}
		return kernel.Invalid(field, "json", fmt.Sprintf("malformed JSON at byte %d of %s: %v", se.Offset, field, se))
	}
	if field := join(""); field != "" {
		return kernel.Invalid(field, "json", field+": "+err.Error())
	}
	return kernel.Invalid("file", "json", "the catalog file is not valid JSON: "+err.Error())
}

func typeName(kind string) string {
	switch kind {
	case "int", "int64", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	case "map", "struct":
		return "object"
	}
	return kind
}

// normalize fills every entry's defaults.
func (f File) normalize() File {
	out := File{Defaults: maps.Clone(f.Defaults)}
	for _, m := range f.Models {
		out.Models = append(out.Models, m.normalize())
	}
	for _, r := range f.Routers {
		r.Routes = maps.Clone(r.Routes)
		out.Routers = append(out.Routers, r)
	}
	return out
}

// canonical orders the models and routers by id, so that two files with
// the same content have the same Hash whatever their order and layout.
func (f File) canonical() File {
	f.Models, f.Routers = slices.Clone(f.Models), slices.Clone(f.Routers)
	slices.SortFunc(f.Models, func(a, b Model) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(f.Routers, func(a, b Router) int { return strings.Compare(a.ID, b.ID) })
	if f.Defaults == nil {
		f.Defaults = map[Tier]string{}
	}
	return f
}

// Hash is the SHA-256 (hex) of the file's canonical JSON: the catalog's
// content hash, the same for the same content.
func (f File) Hash() string {
	raw, _ := json.Marshal(f.canonical()) // plain structs, maps and json.Numbers: cannot fail
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// JSON writes the file in its canonical order, indented: what `strata
// models list --json` prints and Parse reads back.
func (f File) JSON() []byte {
	raw, _ := json.MarshalIndent(f.canonical(), "", "  ")
	return append(raw, '\n')
}
