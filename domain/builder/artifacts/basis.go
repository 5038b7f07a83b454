package artifacts

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/domain/kernel"
)

// Origins of the app spec an artifact is derived from.
const (
	OriginIdea    = "idea"    // template.Plan of the request's idea
	OriginCompany = "company" // the spec of the company's current version
)

// Basis is the app spec an artifact is derived from, and where it came
// from.
type Basis struct {
	Spec          template.Spec
	Origin        string // OriginIdea or OriginCompany
	CompanyID     string // OriginCompany: the company (chat)
	VersionID     string // OriginCompany: its current version
	VersionNumber int
	GenerationID  string // the generation that planned the spec
	SpecGenerator string // what planned the spec: builder.GeneratorTemplate or builder.GeneratorModel
	SpecModel     string // its model (template.Version for the template)
}

// FromTemplate reports whether the template generator planned the spec:
// only then do the catalogue's descriptions apply to its entities.
func (b Basis) FromTemplate() bool { return b.SpecGenerator == builder.GeneratorTemplate }

// IdeaBasis plans idea with the template generator (template.Plan). An
// idea the planner refuses comes back as its kernel invalid error, on the
// field "idea".
func IdeaBasis(idea string) (Basis, error) {
	s, err := template.Plan(idea)
	if err != nil {
		return Basis{}, renameField(err, "idea")
	}
	return Basis{Spec: s, Origin: OriginIdea, SpecGenerator: template.Generator, SpecModel: template.Version}, nil
}

// CompanyBasis is the spec of the company's current version: the spec
// planned by the generation that made it (for a restored version, the
// generation of the version it was restored from). ok is false when the
// company has no current version with a planned spec.
func CompanyBasis(ch *builder.Chat) (b Basis, ok bool, err error) {
	v, ok := ch.CurrentVersion()
	if !ok {
		return Basis{}, false, nil
	}
	g, ok := GenerationOf(ch, v)
	if !ok || !g.Planned || len(g.Spec) == 0 {
		return Basis{}, false, nil
	}
	var s template.Spec
	if err := json.Unmarshal(g.Spec, &s); err != nil {
		return Basis{}, false, fmt.Errorf("the spec of generation %s: %w", g.ID, err)
	}
	return Basis{Spec: s, Origin: OriginCompany, CompanyID: ch.ID, VersionID: v.VersionID, VersionNumber: v.Number,
		GenerationID: g.ID, SpecGenerator: g.Generator, SpecModel: g.Model}, true, nil
}

// GenerationOf is the generation whose files version v holds: its own, or
// for a restore the one of the version it was restored from (followed
// back, at most once per version of the chat).
func GenerationOf(ch *builder.Chat, v builder.Version) (builder.Generation, bool) {
	for range len(ch.Versions) + 1 {
		if v.GenerationID != "" {
			return ch.Generation(v.GenerationID)
		}
		from, ok := ch.VersionByID(v.RestoredFrom)
		if !ok || v.RestoredFrom == "" {
			return builder.Generation{}, false
		}
		v = from
	}
	return builder.Generation{}, false
}

// DerivedFrom says what an offline artifact was derived from; it is the
// derived_from member of the artifact's answer and event.
type DerivedFrom struct {
	Kind            string `json:"kind"`   // always "app_spec"
	Origin          string `json:"origin"` // OriginIdea or OriginCompany
	CompanyID       string `json:"companyId,omitempty"`
	VersionID       string `json:"versionId,omitempty"`
	Version         int    `json:"version,omitempty"`
	GenerationID    string `json:"generationId,omitempty"`
	SpecGenerator   string `json:"specGenerator"`
	SpecModel       string `json:"specModel"`
	Archetype       string `json:"archetype"`
	FeedbackApplied bool   `json:"feedbackApplied"`
	Note            string `json:"note"`
}

// Derivation describes an artifact derived offline from b; feedback is the
// founder's review notes, which a derivation cannot apply (it reads the
// spec only), and the note says so.
func Derivation(b Basis, feedback string) DerivedFrom {
	d := DerivedFrom{Kind: "app_spec", Origin: b.Origin, CompanyID: b.CompanyID, VersionID: b.VersionID, Version: b.VersionNumber,
		GenerationID: b.GenerationID, SpecGenerator: b.SpecGenerator, SpecModel: b.SpecModel, Archetype: b.Spec.Archetype}
	switch b.Origin {
	case OriginCompany:
		d.Note = fmt.Sprintf("Derived only from the app spec of version %d of company %s; no model wrote any of it.", b.VersionNumber, b.CompanyID)
	default:
		d.Note = "Derived only from the app spec that the template generator (" + template.Version + ") plans from the idea; no model wrote any of it."
	}
	if feedback != "" {
		d.Note += " The feedback was not applied: review notes need a model, and none is configured."
	}
	return d
}

// renameField puts a planner's invalid error (field "message") on field.
func renameField(err error, field string) error {
	var ke *kernel.Error
	if !errors.As(err, &ke) {
		return err
	}
	c := *ke
	c.Field = field
	return &c
}
