package memory

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Writer is an optional language model (readapi/memory/llm, STRATA_LLM_URL)
// that rewrites what the extractive synthesis selected: the context's
// memories and a reflection's profile. Without one, or when it fails, the
// extractive text is the answer.
type Writer interface {
	Complete(ctx context.Context, system, user string, maxTokens int) (string, error)
	Model() string
}

// Synthesis labels of ContextResult and reflections.
const synthesisExtractive = "extractive"

func synthesisBy(w Writer) string { return "llm:" + w.Model() }

// styleInstructions are the writer's instructions per synthesis style.
var styleInstructions = map[string]string{
	"narrative":  "Write one short paragraph of plain prose.",
	"bullet":     "Write a bulleted list, one fact per line, each line starting with \"- \".",
	"structured": "Write labelled sections (Facts, Events, Working notes) with one line per item.",
}

// contextPrompt asks the writer for a context from exactly the memories
// hits, within maxTokens.
func contextPrompt(style, query string, hits []RecallHit, maxTokens int) (string, string) {
	system := "You prepare context for an AI agent from a user's stored memories. Use only the memories given, " +
		"keep their dates, invent nothing, and answer in at most " + fmt.Sprint(maxTokens) + " tokens. " +
		styleInstructions[style]
	var b strings.Builder
	fmt.Fprintf(&b, "Query: %s\n\nMemories:\n", query)
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. [%s, %s] %s\n", i+1, h.CreatedAt.Format(time.DateOnly), h.MemoryType, sentence(h.Content))
	}
	return system, b.String()
}

// reflectionPrompt asks the writer for a reflection from a profile's
// extractive account and its highlights.
func reflectionPrompt(p Profile, extractive string) (string, string) {
	system := "You write a short reflection (at most five sentences) about one entity in a user's memory, " +
		"using only the notes given; invent nothing."
	var b strings.Builder
	fmt.Fprintf(&b, "Entity: %s (%s)\nNotes: %s\n", p.Name, p.EntityType, extractive)
	if len(p.KeyThemes) > 0 {
		fmt.Fprintf(&b, "Key themes: %s\n", strings.Join(p.KeyThemes, ", "))
	}
	for _, h := range p.Highlights {
		fmt.Fprintf(&b, "- [%s] %s\n", h.CreatedAt.Format(time.DateOnly), sentence(h.Content))
	}
	return system, b.String()
}

// reflectionTokens bounds a written reflection.
const reflectionTokens = 400
