package mcpserver

import (
	"time"

	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// RememberArgs is the remember tool's input; its JSON is the REST
// /remember body's.
type RememberArgs struct {
	Content    string         `json:"content" jsonschema:"What to remember, in plain language: a fact, preference, decision or event (1-16000 characters)."`
	EntityID   string         `json:"entity_id,omitempty" jsonschema:"The entity the memory is about: an entity id or a name such as 'Priya Raman' (created when unknown)."`
	MemoryType string         `json:"memory_type,omitempty" jsonschema:"One of working (short-lived notes), episodic (events; the default) or semantic (stable facts)."`
	Importance *float64       `json:"importance,omitempty" jsonschema:"How important the memory is, from 0.0 to 1.0 (default 0.5)."`
	Namespace  string         `json:"namespace,omitempty" jsonschema:"Where to store it: 'global', 'session:<id>' or 'project:<id>'. Default: this MCP session's namespace, session:<session id>."`
	Tags       []string       `json:"tags,omitempty" jsonschema:"Up to 50 labels of 1-100 characters each."`
	Metadata   map[string]any `json:"metadata,omitempty" jsonschema:"Free-form JSON object stored with the memory (at most 16384 bytes)."`
}

// RecallArgs is the recall tool's input; its JSON is the REST /recall
// body's.
type RecallArgs struct {
	Query               string `json:"query" jsonschema:"What to look for, by meaning (1-2000 characters)."`
	EntityID            string `json:"entity_id,omitempty" jsonschema:"Only memories about or mentioning this entity (an id or a name)."`
	Layer               string `json:"layer,omitempty" jsonschema:"Only memories of this type: working, episodic or semantic."`
	Namespace           string `json:"namespace,omitempty" jsonschema:"The namespace to search: 'global', 'session:<id>' or 'project:<id>'. Default: this MCP session's namespace."`
	AllowCrossNamespace *bool  `json:"allow_cross_namespace,omitempty" jsonschema:"true searches every namespace (the requested one ranks a little higher); false, the default here, searches the namespace only."`
	Limit               *int   `json:"limit,omitempty" jsonschema:"How many memories to return, 1-100 (default 10)."`
	AsOf                string `json:"as_of,omitempty" jsonschema:"Recall as the store stood at this ISO 8601 date-time, e.g. 2026-01-31T18:00:00Z."`
	QueryExpansion      *bool  `json:"query_expansion,omitempty" jsonschema:"Expand the query with related terms (default false)."`
	Rerank              *bool  `json:"rerank,omitempty" jsonschema:"Rerank the results by relevance to the query (default false)."`
}

// ForgetArgs is the forget tool's input.
type ForgetArgs struct {
	MemoryID string `json:"memory_id" jsonschema:"The id of the memory to forget (mem_...), as remember or recall returned it."`
}

// RelateArgs is the relate tool's input; its JSON is the REST /relate
// body's.
type RelateArgs struct {
	Subject    string   `json:"subject" jsonschema:"The entity the fact is about: a name or an entity id, e.g. 'Priya Raman'."`
	Predicate  string   `json:"predicate" jsonschema:"The relation in snake_case, e.g. works_at, lives_in, prefers, knows."`
	Object     string   `json:"object" jsonschema:"The other entity: a name or an entity id, e.g. 'Acme Corp'."`
	Confidence *float64 `json:"confidence,omitempty" jsonschema:"How sure the fact is, from 0.0 to 1.0 (default 0.8)."`
	ValidFrom  string   `json:"valid_from,omitempty" jsonschema:"When the fact became true, an ISO 8601 date-time (default now; never in the future)."`
	Exclusive  *bool    `json:"exclusive,omitempty" jsonschema:"true: the subject holds one object of this predicate at a time, so this fact supersedes the current one; false: facts accumulate. Default: the predicate's usual behaviour (works_at, lives_in, role... are exclusive)."`
}

// EntityArgs is the input of the tools about one entity: reflect, profile
// and timeline.
type EntityArgs struct {
	EntityID string `json:"entity_id" jsonschema:"The entity: an entity id or a name or alias, ignoring case."`
}

// MergeArgs is the merge_entities tool's input: the REST route's path
// entity and body.
type MergeArgs struct {
	EntityID string `json:"entity_id" jsonschema:"The entity to merge away (a duplicate such as 'Dana W.'): an entity id or a name or alias. Its id and names resolve to the survivor afterwards."`
	Into     string `json:"into" jsonschema:"The entity that survives, e.g. 'Dana Whitfield': an entity id or a name or alias. It keeps its name and type and gains the other's names, memories and facts."`
}

// MergeResult is what merge_entities answers (the REST answer): the
// survivor, the merged id, and what settling its timelines changed.
type MergeResult = readmemory.MergeResult

// ContextArgs is the context tool's input; its JSON is the REST /context
// body's.
type ContextArgs struct {
	Query          string `json:"query" jsonschema:"What the context is for, e.g. the user's latest question (1-2000 characters)."`
	AgentID        string `json:"agent_id,omitempty" jsonschema:"The agent the context is for; echoed back."`
	SynthesisStyle string `json:"synthesis_style,omitempty" jsonschema:"One of narrative (the default), bullet or structured."`
	TopK           *int   `json:"top_k,omitempty" jsonschema:"How many memories to draw on, 1-50 (default 10)."`
	MaxTokens      *int   `json:"max_tokens,omitempty" jsonschema:"Upper bound of the context's length in cl100k_base tokens, 1-100000 (default 2000)."`
	QueryExpansion *bool  `json:"query_expansion,omitempty" jsonschema:"Expand the query with related terms (default false)."`
	Rerank         *bool  `json:"rerank,omitempty" jsonschema:"Rerank the memories by relevance to the query (default false)."`
}

// NextSteps suggests the most useful tool to call after a remember.
type NextSteps struct {
	Action     string `json:"action"`
	Suggestion string `json:"suggestion"`
}

// RememberResult is what remember answers (the REST answer; next_steps
// name tools instead of REST endpoints).
type RememberResult struct {
	MemoryID          string    `json:"memory_id"`
	Content           string    `json:"content"`
	Importance        float64   `json:"importance"`
	MemoryType        string    `json:"memory_type"`
	Namespace         string    `json:"namespace"`
	EntitiesExtracted []string  `json:"entities_extracted"`
	Merged            bool      `json:"merged"`
	FactsSuperseded   int       `json:"facts_superseded"`
	NextSteps         NextSteps `json:"next_steps"`
}

// RecallResult is what recall answers: the REST answer, plus the namespace
// searched and whether other namespaces were searched too (so a client sees
// the session defaults it got).
type RecallResult struct {
	Results             []readmemory.RecallHit `json:"results"`
	Count               int                    `json:"count"`
	QueryExpansion      bool                   `json:"query_expansion"`
	Reranked            bool                   `json:"reranked"`
	Namespace           string                 `json:"namespace"`
	AllowCrossNamespace bool                   `json:"allow_cross_namespace"`
}

// ForgetResult is what forget answers.
type ForgetResult struct {
	Success  bool   `json:"success"`
	MemoryID string `json:"memory_id"`
	Message  string `json:"message"`
}

// RelateResult is what relate answers.
type RelateResult struct {
	Success    bool      `json:"success"`
	EdgeID     string    `json:"edge_id"`
	Subject    string    `json:"subject"`
	SubjectID  string    `json:"subject_id"`
	Predicate  string    `json:"predicate"`
	Object     string    `json:"object"`
	ObjectID   string    `json:"object_id"`
	Confidence float64   `json:"confidence"`
	Exclusive  bool      `json:"exclusive"`
	ValidFrom  time.Time `json:"valid_from"`
	Superseded []string  `json:"superseded"`
}

// Fact is one run of a fact in the entity graph: the same subject,
// predicate and object from valid_from until valid_until (null while
// current).
type Fact struct {
	Predicate  string     `json:"predicate"`
	Subject    string     `json:"subject,omitempty"`
	SubjectID  string     `json:"subject_id,omitempty"`
	Object     string     `json:"object"`
	ObjectID   string     `json:"object_id"`
	ValidFrom  time.Time  `json:"valid_from"`
	ValidUntil *time.Time `json:"valid_until"`
	Status     string     `json:"status"`
	Confidence float64    `json:"confidence"`
	Evidence   int        `json:"evidence"`
}

// Snippet is a memory quoted in a profile.
type Snippet struct {
	MemoryID  string    `json:"memory_id"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
}

// Profile is what profile answers: the consolidated profile of an entity.
type Profile struct {
	EntityID     string    `json:"entity_id"`
	Name         string    `json:"name"`
	EntityType   string    `json:"entity_type"`
	Aliases      []string  `json:"aliases"`
	CurrentFacts []Fact    `json:"current_facts"`
	PastFacts    []Fact    `json:"past_facts"`
	Related      []Fact    `json:"related"`
	KeyThemes    []string  `json:"key_themes"`
	FirstSeen    time.Time `json:"first_seen"`
	LastSeen     time.Time `json:"last_seen"`
	MemoryCount  int       `json:"memory_count"`
	Highlights   []Snippet `json:"highlights"`
}

// Reflection is what reflect answers: a few sentences on an entity.
type Reflection struct {
	EntityID    string   `json:"entity_id"`
	Reflection  string   `json:"reflection"`
	MemoryCount int      `json:"memory_count"`
	KeyThemes   []string `json:"key_themes"`
}

// Timeline is what timeline answers: an entity's facts ordered by
// valid_from.
type Timeline struct {
	EntityID string `json:"entity_id"`
	Name     string `json:"name"`
	Edges    []Fact `json:"edges"`
}

// ContextResult is what context answers (the REST answer).
type ContextResult = readmemory.ContextResult
