package artifacts

import (
	"bytes"
	"embed"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schemas of the views' content, one JSON Schema (draft 2020-12) per
// view, schemas/<view>.json. They are the documentation of each view's
// content and what every produced content is checked against.
//
//go:embed schemas/*.json
var schemaFS embed.FS

// SchemaBase prefixes the $id of every view's schema: SchemaBase+view+".json".
const SchemaBase = "https://strata.dev/schemas/builder/artifacts/"

// SchemaID is the $id of view's schema.
func SchemaID(view string) string { return SchemaBase + view + ".json" }

// Schema returns the JSON text of view's schema (false for an unknown view).
func Schema(view string) ([]byte, bool) {
	b, err := schemaFS.ReadFile("schemas/" + view + ".json")
	return b, err == nil
}

// Validator checks a view's content against its schema. It is safe for
// concurrent use. The schemas are compiled from the embedded files only:
// a $ref to anything else fails to compile (no file or network access).
type Validator struct {
	schemas map[string]*jsonschema.Schema
}

// NewValidator compiles every view's schema (each is checked against the
// draft 2020-12 meta-schema). An error means a schema file is broken.
func NewValidator() (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	for _, v := range Views() {
		b, ok := Schema(v)
		if !ok {
			return nil, fmt.Errorf("artifacts: no schema for view %s", v)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("artifacts: schema of %s: %w", v, err)
		}
		if err := c.AddResource(SchemaID(v), doc); err != nil {
			return nil, fmt.Errorf("artifacts: schema of %s: %w", v, err)
		}
	}
	out := &Validator{schemas: map[string]*jsonschema.Schema{}}
	for _, v := range Views() {
		s, err := c.Compile(SchemaID(v))
		if err != nil {
			return nil, fmt.Errorf("artifacts: compile the schema of %s: %w", v, err)
		}
		out.schemas[v] = s
	}
	return out, nil
}

// ErrInvalidContent is wrapped by Validate's errors for content that does
// not match its schema.
var ErrInvalidContent = errors.New("content does not match its view's schema")

// Validate checks content (one JSON document) against view's schema. A
// mismatch wraps ErrInvalidContent and says where (JSON pointers into the
// content and the schema).
func (v *Validator) Validate(view string, content []byte) error {
	s, ok := v.schemas[view]
	if !ok {
		return fmt.Errorf("artifacts: no schema for view %q", view)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(content))
	if err != nil {
		return fmt.Errorf("%w: %s: not one JSON document: %v", ErrInvalidContent, view, err)
	}
	if err := s.Validate(doc); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalidContent, view, err)
	}
	return nil
}

// noLoader refuses every URL: the schemas refer only to each other and to
// the meta-schemas built into the library.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("artifacts: schema %s is not embedded", url)
}
