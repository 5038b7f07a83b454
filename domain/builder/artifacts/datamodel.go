package artifacts

import (
	"slices"

	"github.com/strata-platform/strata/domain/builder/template"
)

// DataModel is the content of the dataModel view (schemas/dataModel.json):
// the app spec's entities with their typed fields and required flags, the
// relations its field names imply, and the fields the generated server
// sets on every record.
type DataModel struct {
	App          AppRef        `json:"app"`
	Entities     []ModelEntity `json:"entities"`
	Relations    []Relation    `json:"relations"`
	SystemFields []SystemField `json:"systemFields"`
}

// AppRef names the app a view describes.
type AppRef struct {
	Name      string `json:"name"`
	Slug      string `json:"slug"`
	Archetype string `json:"archetype"`
}

// ModelEntity is one entity of the data model.
type ModelEntity struct {
	Name     string       `json:"name"`
	Label    string       `json:"label"`
	Plural   string       `json:"plural"`
	Summary  *string      `json:"summary"`  // the catalogue's description; null when the spec is not the template's or the catalogue has none
	Resource string       `json:"resource"` // the generated app's REST collection: /api/<plural>
	Matched  []string     `json:"matched"`  // idea words that brought the entity in; empty for an archetype's core entities
	Fields   []ModelField `json:"fields"`
}

// ModelField is one typed field.
type ModelField struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Options  []string `json:"options,omitempty"`
}

// Relation is a reference from a field of one entity to another entity.
//
// The template's specs have no reference type; the derivation rule is: a
// text field whose name is another entity's singular name (a booking's
// "service", a deal's "contact") refers to that entity, one target per
// record (many_to_one), by name: the field holds text, and the generated
// app does not check that such a record exists (enforced false).
type Relation struct {
	From        string `json:"from"`
	Field       string `json:"field"`
	To          string `json:"to"`
	Cardinality string `json:"cardinality"`
	Kind        string `json:"kind"`
	Enforced    bool   `json:"enforced"`
	Rule        string `json:"rule"`
}

// SystemField is a field the generated server sets on every record.
type SystemField struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// relationRule is the derivation rule of every relation, as the content
// states it.
const relationRule = "a text field named after another entity holds that entity's name; the generated app does not check it"

// DeriveDataModel derives the dataModel view from b's spec. It is
// deterministic and uses nothing but the spec (and, for a template spec,
// the catalogue's entity descriptions).
func DeriveDataModel(b Basis) DataModel {
	s := b.Spec
	m := DataModel{App: AppRef{Name: s.AppName, Slug: s.Slug, Archetype: s.Archetype},
		Entities: make([]ModelEntity, 0, len(s.Entities)), Relations: []Relation{},
		SystemFields: []SystemField{
			{Name: "id", Description: "a random UUID the server assigns when the record is created"},
			{Name: "created_at", Description: "when the record was created (ISO 8601, set by the server)"},
			{Name: "updated_at", Description: "when the record was last saved (ISO 8601, set by the server)"},
		}}
	names := make([]string, len(s.Entities))
	for i, e := range s.Entities {
		names[i] = e.Name
	}
	for _, e := range s.Entities {
		me := ModelEntity{Name: e.Name, Label: e.Label, Plural: e.Plural, Resource: "/api/" + e.Plural,
			Matched: nonNil(e.Matched), Fields: make([]ModelField, len(e.Fields))}
		if b.FromTemplate() {
			me.Summary = catalogueSummary(s.Archetype, e.Name)
		}
		for i, f := range e.Fields {
			me.Fields[i] = ModelField{Name: f.Name, Label: f.Label, Type: f.Type, Required: f.Required, Options: slices.Clone(f.Options)}
			if f.Type == template.TypeText && f.Name != e.Name && slices.Contains(names, f.Name) {
				m.Relations = append(m.Relations, Relation{From: e.Name, Field: f.Name, To: f.Name,
					Cardinality: "many_to_one", Kind: "by_name", Enforced: false, Rule: relationRule})
			}
		}
		m.Entities = append(m.Entities, me)
	}
	return m
}

// catalogueSummary is the catalogue's description of entity name: among
// the archetype's own entities first, then the extras; nil when neither
// has one (the same name may mean other things in other archetypes).
func catalogueSummary(archetype, name string) *string {
	for _, a := range template.Catalogue() {
		if a.Archetype != archetype {
			continue
		}
		for _, d := range slices.Concat(a.Core, a.Fallback) {
			if d.Name == name && d.Summary != "" {
				return &d.Summary
			}
		}
	}
	for _, x := range template.Extras() {
		if x.Name == name && x.Summary != "" {
			return &x.Summary
		}
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}
