// Package catalog is the inference gateway's model catalog: the models the
// gateway serves (what the public listing shows, and what the gateway needs
// to route a request: the upstream a model is served by, its max_tokens
// ceiling, whether it takes tools or images), the four smart routers and
// the default model of each access tier.
//
// The catalog is data: an operator imports a whole catalog file (`strata
// models import FILE`, see File), retires a model, or upserts one; each
// change is an event on the one catalog stream (StreamID), and State folds
// them. A built-in development catalog (Builtin) ships with Strata so that
// a fresh server has one. Resolve turns the model (or router) a request
// names into the model to call, or a refusal that says why.
package catalog

import (
	"encoding/json"
	"slices"
)

// Tier is an access tier of the catalog. Tiers are ordered: free < basic <
// professional < enterprise; a caller on a tier may use every model of
// that tier and below.
type Tier string

// The access tiers, lowest first.
const (
	TierFree         Tier = "free"
	TierBasic        Tier = "basic"
	TierProfessional Tier = "professional"
	TierEnterprise   Tier = "enterprise"
)

// Tiers lists the tiers, lowest first.
func Tiers() []Tier { return []Tier{TierFree, TierBasic, TierProfessional, TierEnterprise} }

// Rank is the tier's place in the order (free 0 ... enterprise 3), -1 for
// an unknown tier.
func (t Tier) Rank() int { return slices.Index(Tiers(), t) }

// Valid reports whether t is one of the four tiers.
func (t Tier) Valid() bool { return t.Rank() >= 0 }

// Allows reports whether a caller on tier t may use something of tier
// other (an unknown tier allows nothing and is allowed by nothing).
func (t Tier) Allows(other Tier) bool {
	return t.Valid() && other.Valid() && t.Rank() >= other.Rank()
}

// Kinds of model: what an endpoint asks it to do.
const (
	KindChat       = "chat"       // chat completions (text, code, reasoning)
	KindEmbeddings = "embeddings" // vectors for text
	KindImage      = "image"      // image generation or editing
	KindVideo      = "video"
	KindAudio      = "audio" // speech, transcription, voices
)

// Kinds lists the kinds a model may have.
func Kinds() []string { return []string{KindChat, KindEmbeddings, KindImage, KindVideo, KindAudio} }

// Statuses of a model.
const (
	StatusLive    = "live"    // listed and served
	StatusRetired = "retired" // an alias that answers model_deprecated naming ReplacedBy
)

// DefaultMaxTokens is a chat model's max_tokens ceiling when its entry
// gives none (the seed's max_tokens default), lowered to its context
// window when that is smaller.
const DefaultMaxTokens = 4096

// Capabilities are the catalog's relative scores of a model (the seed's
// intelligence, speed and cost numbers); they inform people, not routing.
type Capabilities struct {
	Intelligence float64 `json:"intelligence"`
	Speed        float64 `json:"speed"`
	Cost         float64 `json:"cost"`
}

// Pricing is a model's price in US dollars per million tokens (text) or per
// generation (image, video, audio), as exact decimals: the JSON numbers of
// the catalog file kept as written after canonicalisation ("0.20" becomes
// 0.2), never rounded through a float (see ParsePrice).
type Pricing struct {
	Input     json.Number `json:"input"`
	Output    json.Number `json:"output"`
	CacheRead json.Number `json:"cache_read"`
}

// Upstream is where the gateway sends a model's requests: the configured
// upstream's id and the model's name there.
type Upstream struct {
	ID    string `json:"id"`
	Model string `json:"model"`
}

// Model is one catalog entry: the seed's fields (id, provider, label,
// capabilities, context_window, tags, tier, pricing) and what the gateway
// needs to serve it. A retired entry is an alias: it keeps its id so that
// requests naming it are refused with the live model that replaces it.
type Model struct {
	ID             string       `json:"id"`
	Provider       string       `json:"provider,omitempty"`
	Label          string       `json:"label,omitempty"`
	Kind           string       `json:"kind,omitempty"` // KindChat when empty
	Capabilities   Capabilities `json:"capabilities"`
	ContextWindow  int          `json:"context_window,omitempty"`
	MaxTokens      int          `json:"max_tokens,omitempty"` // the ceiling of a request's max_tokens (chat)
	Tags           []string     `json:"tags,omitempty"`
	Tier           Tier         `json:"tier"`
	Pricing        Pricing      `json:"pricing"`
	Free           bool         `json:"free,omitempty"` // no per-token cost (its prices are zero)
	SupportsTools  bool         `json:"supports_tools,omitempty"`
	SupportsImages bool         `json:"supports_images,omitempty"`
	Upstream       Upstream     `json:"upstream"`
	Status         string       `json:"status,omitempty"` // StatusLive when empty
	ReplacedBy     string       `json:"replaced_by,omitempty"`
}

// Live reports whether the model is served (not a retired alias).
func (m Model) Live() bool { return m.Status == StatusLive }

// normalize fills the defaults of an entry: kind chat, status live, the
// max_tokens ceiling of a chat model, the upstream model name (the id),
// canonical prices.
func (m Model) normalize() Model {
	if m.Kind == "" {
		m.Kind = KindChat
	}
	if m.Status == "" {
		m.Status = StatusLive
	}
	if m.Kind == KindChat && m.MaxTokens == 0 && m.Live() {
		m.MaxTokens = DefaultMaxTokens
		if m.ContextWindow > 0 && m.ContextWindow < m.MaxTokens {
			m.MaxTokens = m.ContextWindow
		}
	}
	if m.Upstream.ID != "" && m.Upstream.Model == "" {
		m.Upstream.Model = m.ID
	}
	m.Pricing = Pricing{Input: canonicalPrice(m.Pricing.Input), Output: canonicalPrice(m.Pricing.Output),
		CacheRead: canonicalPrice(m.Pricing.CacheRead)}
	if len(m.Tags) == 0 {
		m.Tags = nil
	}
	return m
}

// equal reports whether two normalized entries are the same.
func (m Model) equal(o Model) bool {
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(o)
	return string(a) == string(b)
}

// clone returns m with its own tags slice.
func (m Model) clone() Model {
	m.Tags = slices.Clone(m.Tags)
	return m
}
