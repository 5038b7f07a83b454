package catalog

import (
	"fmt"
	"slices"

	"github.com/strata-platform/strata/domain/kernel"
)

// Features are what a request asks of a model, as the gateway reads them.
type Features struct {
	Kind      string // KindChat when empty; KindEmbeddings for the embeddings endpoint
	Tools     int    // tool definitions the request carries
	Images    bool   // the request carries image input
	MaxTokens int    // the request's max_tokens (0: not set)
	// Text is what the routers classify: the system prompt and the text of
	// the user messages (tool results included), joined with newlines.
	Text string
}

// Resolution is the model a request is served by.
type Resolution struct {
	Model     Model  // the model actually used (the response names it)
	Requested string // the model or router id the request named ("" for the default)
	Router    string // the router that chose, if a router id was named
	Task      string // the router's classification (Classify)
	Rule      string // the classification rule, or "default" for the tier's default model
	MaxTokens int    // chat: the max_tokens to send, the request's, else min(DefaultMaxTokens, the model's ceiling)
}

// Codes of the refusals (Refusal.Code): the problem details' rule, and
// the error code of the chat formats.
const (
	CodeModelNotFound     = "model_not_found"
	CodeModelDeprecated   = "model_deprecated"
	CodeKindUnsupported   = "model_kind"
	CodeTierRequired      = "tier_required"
	CodeToolsUnsupported  = "tools_unsupported"
	CodeImagesUnsupported = "images_unsupported"
	CodeMaxTokens         = "max_tokens_exceeded"
	CodeNoDefault         = "no_default_model"
)

// Refusal is why a request's model cannot serve it. It wraps a kernel
// error (its kind gives the status: invalid 400, forbidden 403, not found
// 404; its field is the request's field at fault and its rule the code)
// and names the code, the model and, for model_deprecated, the live
// replacement; RequiredTier and CallerTier for tier_required.
type Refusal struct {
	Code         string
	Model        string
	ReplacedBy   string
	RequiredTier Tier
	CallerTier   Tier
	Err          *kernel.Error
}

// Error implements error.
func (r *Refusal) Error() string { return r.Err.Error() }

// Unwrap returns the kernel error.
func (r *Refusal) Unwrap() error { return r.Err }

func refuse(code, model string, err *kernel.Error) *Refusal {
	return &Refusal{Code: code, Model: model, Err: err}
}

// Resolve turns the model id a request names (a model, a router, or ""
// for the default model of the caller's tier) into the model to call, for
// a caller on tier. Checks, in order:
//   - an id that is neither a model nor a configured router: 404 model_not_found;
//   - a retired alias: 400 model_deprecated naming its live replacement
//     (never substituted);
//   - a router or model above the caller's tier: 403 tier_required (the
//     routers need Professional and up in the built-in catalog);
//   - a model of another kind than the endpoint's (an embeddings model for
//     chat): 400 model_kind;
//   - tools sent to a model without tool support: 400 tools_unsupported
//     (never dropped silently); images likewise: 400 images_unsupported;
//   - max_tokens above the model's ceiling: 400 max_tokens_exceeded.
//
// A router classifies the request (Classify) and takes its route for that
// task; when that model cannot take the request's tools or images, it
// falls back through its other routes in Tasks() order, and refuses only
// when none can.
func (c *Catalog) Resolve(id string, tier Tier, f Features) (Resolution, error) {
	if f.Kind == "" {
		f.Kind = KindChat
	}
	if f.MaxTokens < 0 {
		return Resolution{}, refuse(CodeMaxTokens, id, kernel.Invalid("max_tokens", "min:1", "max_tokens must be at least 1"))
	}
	if id == "" {
		m, ok := c.Default(tier)
		if !ok {
			return Resolution{}, refuse(CodeNoDefault, "", kernel.Invalid("model", "required",
				fmt.Sprintf("model is required: the catalog names no default model for tier %s", tier)))
		}
		return c.serve(m, tier, f, Resolution{Rule: "default"})
	}
	if r, ok := c.routers[id]; ok {
		return c.route(r, tier, f)
	}
	m, ok := c.models[id]
	if !ok {
		return Resolution{}, refuse(CodeModelNotFound, id, &kernel.Error{Kind: kernel.KindNotFound, Field: "model", Rule: CodeModelNotFound,
			Message: fmt.Sprintf("model %q is not in the catalog; GET /v1/public/models lists the models and routers", id)})
	}
	return c.serve(m, tier, f, Resolution{Requested: id})
}

// serve checks that model m can serve the request for a caller on tier.
func (c *Catalog) serve(m Model, tier Tier, f Features, res Resolution) (Resolution, error) {
	if !m.Live() {
		return Resolution{}, &Refusal{Code: CodeModelDeprecated, Model: m.ID, ReplacedBy: m.ReplacedBy,
			Err: kernel.Invalid("model", CodeModelDeprecated, fmt.Sprintf("model %q is retired; use %q instead", m.ID, m.ReplacedBy))}
	}
	if !tier.Allows(m.Tier) {
		return Resolution{}, tierRefusal(m.ID, "model", m.Tier, tier)
	}
	if err := fits(m, f); err != nil {
		return Resolution{}, err
	}
	res.Model = m.clone()
	res.MaxTokens = f.MaxTokens
	if res.MaxTokens == 0 && m.Kind == KindChat {
		res.MaxTokens = min(DefaultMaxTokens, m.MaxTokens)
	}
	return res, nil
}

// fits checks the request's kind, tools, images and max_tokens against m.
func fits(m Model, f Features) error {
	switch {
	case m.Kind != f.Kind:
		return refuse(CodeKindUnsupported, m.ID, kernel.Invalid("model", CodeKindUnsupported,
			fmt.Sprintf("model %q is a %s model; this endpoint needs a %s model", m.ID, m.Kind, f.Kind)))
	case f.Tools > 0 && !m.SupportsTools:
		return refuse(CodeToolsUnsupported, m.ID, kernel.Invalid("tools", CodeToolsUnsupported,
			fmt.Sprintf("model %q does not support tool calling; send the request without tools or choose a model with supports_tools", m.ID)))
	case f.Images && !m.SupportsImages:
		return refuse(CodeImagesUnsupported, m.ID, kernel.Invalid("messages", CodeImagesUnsupported,
			fmt.Sprintf("model %q does not accept images; send text only or choose a model with supports_images", m.ID)))
	case m.Kind == KindChat && f.MaxTokens > m.MaxTokens:
		return refuse(CodeMaxTokens, m.ID, kernel.Invalid("max_tokens", fmt.Sprintf("max:%d", m.MaxTokens),
			fmt.Sprintf("model %q answers with at most %d tokens; max_tokens %d is above it", m.ID, m.MaxTokens, f.MaxTokens)))
	}
	return nil
}

func tierRefusal(id, what string, need, have Tier) *Refusal {
	return &Refusal{Code: CodeTierRequired, Model: id, RequiredTier: need, CallerTier: have,
		Err: &kernel.Error{Kind: kernel.KindForbidden, Field: "model", Rule: CodeTierRequired,
			Message: fmt.Sprintf("%s %q needs the %s tier or above; your plans give the %s tier", what, id, need, have)}}
}

// route lets router r choose for the request.
func (c *Catalog) route(r Router, tier Tier, f Features) (Resolution, error) {
	if !tier.Allows(r.Tier) {
		return Resolution{}, tierRefusal(r.ID, "router", r.Tier, tier)
	}
	task, rule := Classify(f.Text, f.Tools)
	order := append([]string{task}, slices.DeleteFunc(Tasks(), func(t string) bool { return t == task })...)
	var first error
	for _, t := range order {
		m, ok := c.models[r.Routes[t]]
		if !ok {
			continue
		}
		res, err := c.serve(m, tier, f, Resolution{Requested: r.ID, Router: r.ID, Task: task, Rule: rule})
		if err == nil {
			return res, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		return Resolution{}, refuse(CodeModelNotFound, r.ID, &kernel.Error{Kind: kernel.KindNotFound, Field: "model",
			Rule: CodeModelNotFound, Message: fmt.Sprintf("router %q routes to no model", r.ID)})
	}
	if ref, ok := first.(*Refusal); ok {
		ref.Err = &kernel.Error{Kind: ref.Err.Kind, Field: ref.Err.Field, Rule: ref.Err.Rule,
			Message: fmt.Sprintf("no model of router %q can serve this request: %s", r.ID, ref.Err.Message)}
	}
	return Resolution{}, first
}
