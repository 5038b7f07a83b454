package memory

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/memory"
	"github.com/strata-platform/strata/readapi/httpx"
)

// entityMemory is one memory about or mentioning an entity.
type entityMemory struct {
	ID         string
	Content    string
	Importance float64
	Type       string
	CreatedAt  time.Time
}

// memoriesOf lists the memories about or mentioning entity, oldest first.
func (a *API) memoriesOf(ctx context.Context, entity string) ([]entityMemory, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT m.memory_id, m.content, m.importance, m.memory_type, m.created_at
		FROM `+proj.Schema+`.mentions n JOIN `+proj.Schema+`.memories m ON m.memory_id = n.memory_id
		WHERE n.entity_id = $1 ORDER BY m.created_at, m.memory_id LIMIT 5000`, entity)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []entityMemory
	for rows.Next() {
		var m entityMemory
		if err := rows.Scan(&m.ID, &m.Content, &m.Importance, &m.Type, &m.CreatedAt); err != nil {
			return nil, err
		}
		m.CreatedAt = m.CreatedAt.UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}

// Profile is the consolidated profile of an entity.
type Profile struct {
	EntityID     string    `json:"entity_id"`
	Name         string    `json:"name"`
	EntityType   string    `json:"entity_type"`
	Aliases      []string  `json:"aliases"`
	CurrentFacts []fact    `json:"current_facts"`
	PastFacts    []fact    `json:"past_facts"`
	Related      []fact    `json:"related"` // current facts where the entity is the object
	KeyThemes    []string  `json:"key_themes"`
	FirstSeen    time.Time `json:"first_seen"`
	LastSeen     time.Time `json:"last_seen"`
	MemoryCount  int       `json:"memory_count"`
	Highlights   []snippet `json:"highlights"`
	memories     []entityMemory
}

// snippet is a memory quoted in a profile.
type snippet struct {
	MemoryID  string    `json:"memory_id"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
}

// ProfileOf consolidates what user's store holds about the entity ref
// names: its type and aliases, its facts from the graph (current and
// superseded), the facts others state about it, key themes of its memories
// (term weights against the user's whole store), when it was first and last
// seen, and its most important memories. Deterministic and extractive.
func (a *API) ProfileOf(ctx context.Context, user, ref string) (Profile, error) {
	ent, err := a.resolveEntity(ctx, user, ref)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{EntityID: ent.ID, Name: ent.Name, EntityType: ent.Type, Aliases: ent.Aliases, FirstSeen: ent.FirstSeen,
		LastSeen: ent.LastSeen, CurrentFacts: []fact{}, PastFacts: []fact{}, Related: []fact{}, Highlights: []snippet{}}
	facts, err := a.relationships(ctx, ent.ID, 500)
	if err != nil {
		return p, err
	}
	for _, f := range facts {
		switch {
		case f.ObjectID == ent.ID && f.Status == "current":
			p.Related = append(p.Related, f)
		case f.ObjectID == ent.ID:
		case f.Status == "current":
			p.CurrentFacts = append(p.CurrentFacts, f)
		default:
			p.PastFacts = append(p.PastFacts, f)
		}
	}
	if p.memories, err = a.memoriesOf(ctx, ent.ID); err != nil {
		return p, err
	}
	p.MemoryCount = len(p.memories)
	ix, err := a.indexes.For(ctx, user)
	if err != nil {
		return p, err
	}
	texts := make([]string, len(p.memories))
	for i, m := range p.memories {
		texts[i] = m.Content
	}
	p.KeyThemes = keyThemes(ix, texts, append([]string{ent.Name}, ent.Aliases...), 5)
	for _, m := range topMemories(p.memories, 3) {
		p.Highlights = append(p.Highlights, snippet{MemoryID: m.ID, Content: m.Content, CreatedAt: m.CreatedAt})
	}
	return p, nil
}

// reflection is the answer of reflect.
type reflection struct {
	EntityID    string   `json:"entity_id"`
	Reflection  string   `json:"reflection"`
	MemoryCount int      `json:"memory_count"`
	KeyThemes   []string `json:"key_themes"`
	// SynthesizedBy is "extractive" or "llm:<model>" (see Writer).
	SynthesizedBy string `json:"synthesized_by"`
}

// Reflect writes a reflection on an entity from its profile: extractive, or
// rewritten by the Writer when there is one (the extractive text if it fails).
func (a *API) Reflect(ctx context.Context, user, ref string) (reflection, error) {
	p, err := a.ProfileOf(ctx, user, ref)
	if err != nil {
		return reflection{}, err
	}
	out := reflection{EntityID: p.EntityID, Reflection: p.narrate(), MemoryCount: p.MemoryCount, KeyThemes: p.KeyThemes,
		SynthesizedBy: synthesisExtractive}
	if a.writer != nil && p.MemoryCount > 0 {
		system, prompt := reflectionPrompt(p, out.Reflection)
		if text, err := a.writer.Complete(ctx, system, prompt, reflectionTokens); err == nil {
			out.Reflection, out.SynthesizedBy = a.tokens.Cut(text, reflectionTokens), synthesisBy(a.writer)
		}
	}
	return out, nil
}

// narrate turns a profile into a few plain sentences.
func (p Profile) narrate() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) appears in %d %s", p.Name, p.EntityType, p.MemoryCount, plural(p.MemoryCount, "memory", "memories"))
	if p.MemoryCount > 0 {
		fmt.Fprintf(&b, ", from %s to %s", p.FirstSeen.Format(time.DateOnly), p.LastSeen.Format(time.DateOnly))
	}
	b.WriteString(".")
	if len(p.CurrentFacts) > 0 {
		b.WriteString(" Currently: ")
		for i, f := range p.CurrentFacts {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s %s (since %s)", humanPredicate(f.Predicate), f.Object, f.ValidFrom.Format(time.DateOnly))
		}
		b.WriteString(".")
	}
	if len(p.PastFacts) > 0 {
		b.WriteString(" Earlier: ")
		for i, f := range p.PastFacts {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s %s (%s to %s)", humanPredicate(f.Predicate), f.Object, f.ValidFrom.Format(time.DateOnly),
				f.ValidUntil.Format(time.DateOnly))
		}
		b.WriteString(".")
	}
	if len(p.KeyThemes) > 0 {
		fmt.Fprintf(&b, " Recurring themes: %s.", strings.Join(p.KeyThemes, ", "))
	}
	if len(p.Highlights) > 0 {
		fmt.Fprintf(&b, " Most notable: %q", p.Highlights[0].Content)
	}
	return b.String()
}

func humanPredicate(p string) string { return strings.ReplaceAll(p, "_", " ") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// entityRef reads the entity_id of a reflect or profile call: the path's,
// or the JSON body's.
func entityRef(r *http.Request) (string, error) {
	if v := mux.Vars(r)["entity_id"]; v != "" {
		return v, nil
	}
	var body struct {
		EntityID string `json:"entity_id"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		return "", err
	}
	if strings.TrimSpace(body.EntityID) == "" {
		return "", kernel.Invalid("entity_id", "required", "entity_id is required")
	}
	return body.EntityID, nil
}

func (a *API) reflect(w http.ResponseWriter, r *http.Request, c caller) {
	ref, err := entityRef(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.Reflect(r.Context(), c.UserID, ref)
	writeJSON(w, r, http.StatusOK, res, err)
}

func (a *API) profile(w http.ResponseWriter, r *http.Request, c caller) {
	ref, err := entityRef(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.ProfileOf(r.Context(), c.UserID, ref)
	writeJSON(w, r, http.StatusOK, res, err)
}
