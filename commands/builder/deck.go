package builder

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/deck"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/domain/kernel"
)

// CodePlanRequired is the rule of a deck export refused for want of a
// paid plan (402).
const CodePlanRequired = "plan_required"

// DeckSources are what a deck is built from beyond the chat: the
// founder's plan, and the company's recorded systems and artifacts
// (nil hooks: none recorded).
type DeckSources struct {
	// Paid reports whether the account has a paid plan (the deck is a paid
	// feature).
	Paid func(accountID string) bool
	// Systems returns the company's system cards as "label: n" lines, from
	// its recorded events only.
	Systems func(ctx context.Context, companyID string) ([]string, error)
	// Artifacts returns the company's recorded artifacts as (title,
	// bullets) slides.
	Artifacts func(ctx context.Context, companyID string) ([]deck.Slide, error)
}

// Deck builds the pitch deck of a company the founder owns: a 402 without
// a paid plan; the slides come from the founder's idea, the app spec of
// the current version, the recorded artifacts and the systems' real
// counts, each slide saying where its content came from. Nothing is
// invented: what is not recorded is said to be missing.
func (c *Chats) Deck(ctx context.Context, founderID, companyID string, src DeckSources) (deck.Deck, error) {
	ch, err := c.Owned(ctx, founderID, companyID)
	if err != nil {
		return deck.Deck{}, err
	}
	if src.Paid == nil || !src.Paid(founderID) {
		return deck.Deck{}, &kernel.Error{Kind: kernel.KindPaymentRequired, Field: "companyId", Rule: CodePlanRequired,
			Message: "the pitch deck is a paid feature: this company's founder has no paid plan (upgrade to Basic or above)"}
	}
	v, ok := ch.CurrentVersion()
	if !ok {
		return deck.Deck{}, kernel.Invalid("companyId", "no_version", "this company has no version yet: its generation has not completed")
	}
	var g builder.Generation
	for _, gen := range ch.Generations {
		if gen.ID == v.GenerationID || (v.GenerationID == "" && gen.VersionID == v.RestoredFrom) {
			g = gen
		}
	}
	var spec template.Spec
	if len(g.Spec) > 0 {
		if err := json.Unmarshal(g.Spec, &spec); err != nil {
			return deck.Deck{}, fmt.Errorf("deck %s: the version's spec: %w", companyID, err)
		}
	}
	title := spec.AppName
	if title == "" {
		title = companyID
	}
	d := deck.Deck{Title: title, Subtitle: g.Message, Generated: v.At}
	d.Slides = append(d.Slides, deck.Slide{Title: "The idea", Bullets: []string{g.Message},
		Source: "The founder's words, as sent to the builder"})
	if len(spec.Entities) > 0 {
		var product []string
		for _, e := range spec.Entities {
			var fields []string
			for _, f := range e.Fields {
				fields = append(fields, f.Label)
			}
			product = append(product, fmt.Sprintf("%s: list, create, edit and delete (%s)", e.Label, strings.Join(fields, ", ")))
		}
		d.Slides = append(d.Slides, deck.Slide{Title: "The product", Bullets: product,
			Source: fmt.Sprintf("Version %d of the app (%s generator, %s archetype)", v.Number, v.Generator, spec.Archetype)})
		d.Slides = append(d.Slides, deck.Slide{Title: "Assumptions to check", Bullets: spec.Assumptions,
			Source: "What the generator inferred from the idea's words"})
	}
	if src.Artifacts != nil {
		arts, err := src.Artifacts(ctx, companyID)
		if err != nil {
			return deck.Deck{}, err
		}
		d.Slides = append(d.Slides, arts...)
	}
	traction := []string{"No business activity is recorded yet: every count is zero."}
	if src.Systems != nil {
		lines, err := src.Systems(ctx, companyID)
		if err != nil {
			return deck.Deck{}, err
		}
		if len(lines) > 0 {
			traction = lines
		}
	}
	d.Slides = append(d.Slides, deck.Slide{Title: "Traction", Bullets: traction,
		Source: "Counts of the company's business systems, from recorded events only"})
	return d, nil
}

// ArtifactSlides turns a company's recorded artifacts into deck slides:
// the latest of each view, its top-level content as bullets (text as it
// is, lists counted, nulls said to be missing), with where it came from.
func ArtifactSlides(recs []builder.ArtifactGenerated) []deck.Slide {
	latest := map[string]builder.ArtifactGenerated{}
	var order []string
	for _, r := range recs {
		if _, ok := latest[r.View]; !ok {
			order = append(order, r.View)
		}
		latest[r.View] = r
	}
	var out []deck.Slide
	for _, view := range order {
		r := latest[view]
		var content map[string]json.RawMessage
		_ = json.Unmarshal(r.Content, &content)
		keys := make([]string, 0, len(content))
		for k := range content {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var bullets []string
		for _, k := range keys {
			raw := content[k]
			var s string
			var list []json.RawMessage
			switch {
			case json.Unmarshal(raw, &s) == nil:
				bullets = append(bullets, k+": "+s)
			case json.Unmarshal(raw, &list) == nil:
				bullets = append(bullets, fmt.Sprintf("%s: %d items", k, len(list)))
			case string(raw) == "null":
				bullets = append(bullets, k+": missing (needs a model or the founder)")
			}
		}
		out = append(out, deck.Slide{Title: "Artifact: " + view, Bullets: bullets,
			Source: fmt.Sprintf("Recorded artifact %s (%s, %s %s), %s", r.ArtifactID, r.Generator, r.Provider, r.Model, r.At.UTC().Format("2006-01-02"))})
	}
	return out
}
