// Package template is the builder's offline template generator: it turns a
// founder's plain-language idea into an app spec (Plan) and the spec into
// the files of a small working app (Generate), without any model.
//
// Plan matches the idea's words against a documented lexicon (Lexicon) to
// pick one of ten archetypes, then takes entities and typed fields from a
// documented catalogue (the archetype's core entities, plus extra entities
// that idea words pull in). Every inference is written down in
// Spec.Assumptions with the words that caused it.
//
// Generate writes a Node.js 20 app that uses the standard library only: a
// server with a JSON REST API per entity, validation against the spec,
// records kept in a JSON file, /healthz and graceful shutdown; and a front
// end with list, create, edit and delete for each entity that works under a
// strict Content-Security-Policy and under any path prefix.
//
// Both are pure and deterministic: the same idea gives the same spec, and
// the same spec gives byte-identical files. The package imports only the
// standard library and the kernel.
package template

// Version is the generator's version. It changes whenever the output of
// Plan or Generate changes for some input, so a stored result can say which
// generator produced it.
const Version = "template/1"

// Generator is the name under which the builder labels this generator's
// output (generator: "template"), never a model's name.
const Generator = "template"

// The field types a Field may have. They are the only values of Field.Type
// that Validate accepts.
const (
	TypeText     = "text"     // one line, at most 200 characters
	TypeLongText = "longtext" // several lines, at most 5000 characters
	TypeNumber   = "number"   // a finite JSON number
	TypeMoney    = "money"    // a decimal string with at most two places: "12.50"
	TypeDate     = "date"     // a calendar date: "2025-03-31"
	TypeTime     = "time"     // a time of day, 24-hour: "18:30"
	TypeEmail    = "email"    // an email address
	TypeURL      = "url"      // an http or https address
	TypePhone    = "phone"    // a phone number: digits, spaces, + ( ) - .
	TypeBool     = "bool"     // true or false
	TypeEnum     = "enum"     // one of Field.Options
)

// FieldTypes returns every valid field type, in a fixed order.
func FieldTypes() []string {
	return []string{TypeText, TypeLongText, TypeNumber, TypeMoney, TypeDate, TypeTime,
		TypeEmail, TypeURL, TypePhone, TypeBool, TypeEnum}
}

// Archetypes returns the ten app archetypes in their fixed order. The order
// breaks ties in Plan: of two archetypes with the same score, the one
// listed first wins.
func Archetypes() []string {
	return []string{"marketplace", "booking", "crm", "store", "directory",
		"helpdesk", "courses", "invoicing", "community", "tracker"}
}

// Fallback is the archetype Plan chooses when no word of the idea is in
// the lexicon.
const Fallback = "tracker"
