package template

import (
	"fmt"
	"slices"

	"github.com/strata-platform/strata/domain/kernel"
)

// Spec is an app spec: what Plan inferred from an idea and what Generate
// builds. Its JSON form is the generated spec.json.
type Spec struct {
	Idea        string   `json:"idea"`
	AppName     string   `json:"app_name"`    // derived from the idea, title case, short
	Slug        string   `json:"slug"`        // a-z0-9- form of AppName
	Archetype   string   `json:"archetype"`   // one of Archetypes()
	Matched     []string `json:"matched"`     // idea words that chose the archetype, in order of appearance
	Entities    []Entity `json:"entities"`    // core entities first, then extras in order of appearance
	Assumptions []string `json:"assumptions"` // plain sentences: what was assumed and from which words
}

// Entity is one kind of record of the app, with its own REST resource
// (/api/<Plural>) and its own section of the front end.
type Entity struct {
	Name    string   `json:"name"`    // singular, lower snake: "booking"
	Label   string   `json:"label"`   // "Booking"
	Plural  string   `json:"plural"`  // lower snake: "bookings"; the API path
	Fields  []Field  `json:"fields"`  // in form order
	Matched []string `json:"matched"` // idea words that brought this entity in; empty for core entities
}

// Field is one typed field of an entity.
type Field struct {
	Name     string   `json:"name"` // lower snake
	Label    string   `json:"label"`
	Type     string   `json:"type"` // one of FieldTypes()
	Required bool     `json:"required"`
	Options  []string `json:"options,omitempty"` // enum only, at least one
}

// Reserved names the generated server sets itself; no field may use them.
func reservedFields() []string { return []string{"id", "created_at", "updated_at"} }

// isSnake reports whether s is lower snake case: a letter, then letters,
// digits and underscores, at most 40 bytes.
func isSnake(s string) bool {
	if s == "" || len(s) > 40 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isSlug reports whether s is lower-case letters and digits in groups
// joined by single dashes.
func isSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i, c := range []byte(s) {
		if c == '-' && s[i-1] == '-' {
			return false
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Limits on a spec, so a generated app stays small and its names safe in
// paths, HTML attributes and JavaScript.
const (
	MaxEntities = 12
	MaxFields   = 24
	MaxOptions  = 20
	MaxLabel    = 60
	MaxSlug     = 40
)

// Validate reports the first reason s cannot be generated, as a kernel
// invalid error naming the field ("entities[1].fields[0].type") and the
// rule. A spec from Plan always validates.
func (s Spec) Validate() error {
	if s.AppName == "" || len([]rune(s.AppName)) > MaxLabel {
		return kernel.Invalid("app_name", "length:1-60", "the app needs a name of 1 to 60 characters")
	}
	if len(s.Slug) > MaxSlug || !isSlug(s.Slug) {
		return kernel.Invalid("slug", "slug", "the slug must be lower-case letters, digits and single dashes, at most 40")
	}
	if !slices.Contains(Archetypes(), s.Archetype) {
		return kernel.Invalid("archetype", "enum", fmt.Sprintf("archetype %q is not one of the ten", s.Archetype))
	}
	if len(s.Entities) == 0 || len(s.Entities) > MaxEntities {
		return kernel.Invalid("entities", "count:1-12", "the app needs 1 to 12 entities")
	}
	names := map[string]bool{}
	for i, e := range s.Entities {
		at := fmt.Sprintf("entities[%d]", i)
		if err := validateEntity(at, e); err != nil {
			return err
		}
		for _, n := range []string{e.Name, e.Plural} {
			if names[n] {
				return kernel.Invalid(at, "unique", fmt.Sprintf("%q names two entities", n))
			}
			names[n] = true
		}
	}
	return nil
}

func validateEntity(at string, e Entity) error {
	if !isSnake(e.Name) {
		return kernel.Invalid(at+".name", "snake_case", "entity names are lower snake case")
	}
	if !isSnake(e.Plural) || e.Plural == e.Name {
		return kernel.Invalid(at+".plural", "snake_case", "the plural is lower snake case and differs from the name")
	}
	if e.Label == "" || len([]rune(e.Label)) > MaxLabel {
		return kernel.Invalid(at+".label", "length:1-60", "the label has 1 to 60 characters")
	}
	if len(e.Fields) == 0 || len(e.Fields) > MaxFields {
		return kernel.Invalid(at+".fields", "count:1-24", "an entity has 1 to 24 fields")
	}
	seen := map[string]bool{}
	for j, f := range e.Fields {
		fat := fmt.Sprintf("%s.fields[%d]", at, j)
		if err := validateField(fat, f); err != nil {
			return err
		}
		if seen[f.Name] {
			return kernel.Invalid(fat+".name", "unique", fmt.Sprintf("field %q appears twice", f.Name))
		}
		seen[f.Name] = true
	}
	return nil
}

func validateField(at string, f Field) error {
	if !isSnake(f.Name) {
		return kernel.Invalid(at+".name", "snake_case", "field names are lower snake case")
	}
	if slices.Contains(reservedFields(), f.Name) {
		return kernel.Invalid(at+".name", "reserved", fmt.Sprintf("%q is set by the server", f.Name))
	}
	if f.Label == "" || len([]rune(f.Label)) > MaxLabel {
		return kernel.Invalid(at+".label", "length:1-60", "the label has 1 to 60 characters")
	}
	if !slices.Contains(FieldTypes(), f.Type) {
		return kernel.Invalid(at+".type", "enum", fmt.Sprintf("type %q is not a field type", f.Type))
	}
	if f.Type != TypeEnum {
		if len(f.Options) > 0 {
			return kernel.Invalid(at+".options", "enum_only", "only enum fields have options")
		}
		return nil
	}
	if len(f.Options) == 0 || len(f.Options) > MaxOptions {
		return kernel.Invalid(at+".options", "count:1-20", "an enum field has 1 to 20 options")
	}
	for k, o := range f.Options {
		if o == "" || len([]rune(o)) > MaxLabel || slices.Contains(f.Options[:k], o) {
			return kernel.Invalid(fmt.Sprintf("%s.options[%d]", at, k), "unique_nonempty",
				"options are distinct, non-empty, at most 60 characters")
		}
	}
	return nil
}
