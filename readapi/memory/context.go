package memory

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// Context limits.
const (
	DefaultMaxTokens = 2000
	MaxMaxTokens     = 100_000
	snippetRunes     = 200
)

// contextBody is POST /context's body.
type contextBody struct {
	Query          string  `json:"query"`
	AgentID        *string `json:"agent_id"`
	SynthesisStyle *string `json:"synthesis_style"`
	TopK           *int    `json:"top_k"`
	MaxTokens      *int    `json:"max_tokens"`
	QueryExpansion *bool   `json:"query_expansion"`
	Rerank         *bool   `json:"rerank"`
}

// ContextRequest is a checked context call.
type ContextRequest struct {
	Query, AgentID, Style string
	TopK, MaxTokens       int
	Expand, Rerank        bool
}

// ContextSource is one memory a context drew on.
type ContextSource struct {
	MemoryID       string  `json:"memory_id"`
	Score          float64 `json:"score"`
	ContentSnippet string  `json:"content_snippet"`
}

// ContextResult is the synthesised context.
type ContextResult struct {
	Context    string          `json:"context"`
	Query      string          `json:"query"`
	AgentID    string          `json:"agent_id,omitempty"`
	Style      string          `json:"synthesis_style"`
	Confidence float64         `json:"confidence"`
	TokenCount int             `json:"token_count"`
	Tokenizer  string          `json:"tokenizer"`
	Sources    []ContextSource `json:"sources"`
	// SynthesizedBy is "extractive", or "llm:<model>" when a language model
	// (STRATA_LLM_URL) rewrote the selected memories.
	SynthesizedBy string `json:"synthesized_by"`
}

func (b contextBody) request() (ContextRequest, error) {
	req := ContextRequest{Query: strings.TrimSpace(b.Query), AgentID: orDefault(b.AgentID, ""),
		Style: orDefault(b.SynthesisStyle, "narrative"), Expand: orDefault(b.QueryExpansion, false),
		Rerank: orDefault(b.Rerank, false)}
	var err error
	if req.TopK, err = LimitField("top_k", b.TopK, 10, 1, 50); err != nil {
		return req, err
	}
	if req.MaxTokens, err = LimitField("max_tokens", b.MaxTokens, DefaultMaxTokens, 1, MaxMaxTokens); err != nil {
		return req, err
	}
	return req, req.Check()
}

// Check validates a context request.
func (req *ContextRequest) Check() error {
	if req.Query == "" {
		return kernel.Invalid("query", "required", "query is required")
	}
	if utf8.RuneCountInString(req.Query) > MaxQuery {
		return kernel.Invalid("query", "max_length:2000", "query must be at most 2000 characters")
	}
	switch req.Style {
	case "narrative", "bullet", "structured":
	default:
		return kernel.Invalid("synthesis_style", "enum", "synthesis_style must be one of narrative, bullet, structured")
	}
	return nil
}

func (a *API) context(w http.ResponseWriter, r *http.Request, c caller) {
	var body contextBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	req, err := body.request()
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.Context(r.Context(), c.UserID, req)
	writeJSON(w, r, http.StatusOK, res, err)
}

// Context recalls the top_k memories for the query and writes them as one
// string in the requested style, adding memories best first while the
// whole string stays within max_tokens (counted with the cl100k_base
// tokenizer); when not even the first fits, it is cut at a character
// boundary. Only memories that made it into the string are sources; the
// confidence is their mean recall score (0 when there are none). With a
// Writer the selected memories are rewritten by it, cut to max_tokens too;
// if it fails, the extractive text stands.
func (a *API) Context(ctx context.Context, user string, req ContextRequest) (ContextResult, error) {
	out := ContextResult{Query: req.Query, AgentID: req.AgentID, Style: req.Style, Sources: []ContextSource{},
		Tokenizer: a.tokens.Name(), SynthesizedBy: synthesisExtractive}
	rec, err := a.Recall(ctx, user, RecallRequest{Query: req.Query, Namespace: "global", CrossNamespace: true,
		Limit: req.TopK, Expand: req.Expand, Rerank: req.Rerank})
	if err != nil {
		return out, err
	}
	var lines []RecallHit
	best := ""
	for _, h := range rec.Results {
		text := synthesize(req.Style, req.Query, append(lines, h))
		if a.tokens.Count(text) > req.MaxTokens {
			continue
		}
		lines, best = append(lines, h), text
	}
	if len(lines) == 0 && len(rec.Results) > 0 {
		lines = rec.Results[:1]
		best = a.tokens.Cut(synthesize(req.Style, req.Query, lines), req.MaxTokens)
	}
	if len(lines) == 0 {
		best = a.tokens.Cut(synthesize(req.Style, req.Query, nil), req.MaxTokens)
	}
	sum := 0.0
	for _, h := range lines {
		sum += h.Score
		out.Sources = append(out.Sources, ContextSource{MemoryID: h.MemoryID, Score: h.Score,
			ContentSnippet: cutRunes(h.Content, snippetRunes)})
	}
	if len(lines) > 0 {
		out.Confidence = round(sum / float64(len(lines)))
	}
	if a.writer != nil && len(lines) > 0 {
		system, prompt := contextPrompt(req.Style, req.Query, lines, req.MaxTokens)
		if text, err := a.writer.Complete(ctx, system, prompt, req.MaxTokens); err == nil {
			best, out.SynthesizedBy = a.tokens.Cut(text, req.MaxTokens), synthesisBy(a.writer)
		}
	}
	out.Context, out.TokenCount = best, a.tokens.Count(best)
	return out, nil
}

// synthesize writes memories as narrative prose, bullet points or labelled
// fields (facts, events, working notes).
func synthesize(style, query string, hits []RecallHit) string {
	var b strings.Builder
	if len(hits) == 0 {
		return "No stored memory bears on: " + query
	}
	switch style {
	case "bullet":
		for _, h := range hits {
			fmt.Fprintf(&b, "- %s (%s)\n", sentence(h.Content), h.CreatedAt.Format(time.DateOnly))
		}
	case "structured":
		fmt.Fprintf(&b, "Query: %s\n", query)
		for _, group := range []struct{ label, layer string }{{"Facts", "semantic"}, {"Events", "episodic"},
			{"Working notes", "working"}} {
			first := true
			for _, h := range hits {
				if h.MemoryType != group.layer {
					continue
				}
				if first {
					fmt.Fprintf(&b, "%s:\n", group.label)
					first = false
				}
				fmt.Fprintf(&b, "- [%s] %s\n", h.CreatedAt.Format(time.DateOnly), sentence(h.Content))
			}
		}
	default:
		joins := []string{"", "Also, ", "In addition, ", "Separately, ", "Further, "}
		for i, h := range hits {
			if i > 0 {
				b.WriteString(" ")
			}
			s := sentence(h.Content)
			if i > 0 {
				s = joins[1+(i-1)%(len(joins)-1)] + lowerFirst(s)
			}
			fmt.Fprintf(&b, "%s (noted %s)", strings.TrimSuffix(s, "."), h.CreatedAt.Format(time.DateOnly))
			b.WriteString(".")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// sentence trims a memory and ends it with a full stop.
func sentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

// lowerFirst lower-cases the first letter when the first word is a common
// sentence opener ("The", "My", "Yesterday"), never a name or an acronym.
func lowerFirst(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if isCommonOpener(word) {
		return strings.ToLower(word[:1]) + s[1:]
	}
	return s
}

// isCommonOpener reports words that start sentences without being names.
func isCommonOpener(w string) bool {
	switch strings.ToLower(w) {
	case "the", "a", "an", "my", "our", "we", "they", "he", "she", "it", "this", "that", "these", "those",
		"there", "today", "yesterday", "tomorrow", "last", "next", "every", "remember", "need", "meeting":
		return true
	}
	return false
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
