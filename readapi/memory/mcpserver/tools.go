package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// annotations of the tools: reads, additive writes, forget, and merges.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: ptr(false)}
}

func additive(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
}

func destructive(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// rewriting is a write that changes what is there without deleting it (a
// merge): not additive, and a second call does something else (or fails).
func rewriting(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }

// addTools registers the nine memory tools on srv.
func (s *server) addTools(srv *mcp.Server) {
	add(srv, s, &mcp.Tool{Name: "remember", Annotations: additive("Remember"),
		Description: "Store a memory for later recall. Entities and facts in it are extracted into the entity graph; " +
			"a near-duplicate in the same namespace is merged instead of stored twice. The namespace defaults to this " +
			"session's (session:<session id>)."},
		ScopeWrite, func(ctx context.Context, b Backend, session string, in RememberArgs) (RememberResult, error) {
			if in.Namespace == "" {
				in.Namespace = sessionNamespace(session)
			}
			out, err := b.Remember(ctx, in)
			if err == nil {
				out.NextSteps = nextSteps(out, in.EntityID)
			}
			return out, err
		})
	add(srv, s, &mcp.Tool{Name: "recall", Annotations: readOnly("Recall"),
		Description: "Find memories by meaning, best first. By default only this session's namespace is searched; " +
			"name a namespace or set allow_cross_namespace to true to search more."},
		ScopeRead, func(ctx context.Context, b Backend, session string, in RecallArgs) (RecallResult, error) {
			if ns := sessionNamespace(session); ns != "" {
				if in.Namespace == "" {
					in.Namespace = ns
				}
				if in.AllowCrossNamespace == nil {
					in.AllowCrossNamespace = ptr(false)
				}
			}
			return b.Recall(ctx, in)
		})
	add(srv, s, &mcp.Tool{Name: "forget", Annotations: destructive("Forget"),
		Description: "Delete a memory for good: it leaves every read model and its content is shredded in the event history."},
		ScopeWrite, func(ctx context.Context, b Backend, _ string, in ForgetArgs) (ForgetResult, error) {
			if err := required("memory_id", in.MemoryID); err != nil {
				return ForgetResult{}, err
			}
			return b.Forget(ctx, in.MemoryID)
		})
	add(srv, s, &mcp.Tool{Name: "relate", Annotations: additive("Relate"),
		Description: "Record a fact 'subject predicate object' in the entity graph, valid from valid_from. For " +
			"single-valued predicates (works_at, lives_in, role, ...) it supersedes the subject's current fact; the " +
			"superseded fact stays in the timeline."},
		ScopeWrite, func(ctx context.Context, b Backend, _ string, in RelateArgs) (RelateResult, error) {
			return b.Relate(ctx, in)
		})
	add(srv, s, &mcp.Tool{Name: "merge_entities", Annotations: rewriting("Merge entities"),
		Description: "Merge two entities that are one thing (e.g. 'Dana W.' into 'Dana Whitfield'): entity_id's names " +
			"become aliases of into, its memories and facts become into's, and its id resolves to into from then on. " +
			"into keeps its name and type; its timelines are settled again (two current employers become one current " +
			"and one superseded). Nothing is deleted from the history."},
		ScopeWrite, func(ctx context.Context, b Backend, _ string, in MergeArgs) (MergeResult, error) {
			if err := required("entity_id", in.EntityID); err != nil {
				return MergeResult{}, err
			}
			if err := required("into", in.Into); err != nil {
				return MergeResult{}, err
			}
			return b.MergeEntities(ctx, in)
		})
	add(srv, s, &mcp.Tool{Name: "reflect", Annotations: readOnly("Reflect"),
		Description: "A few sentences on an entity: what is currently and was formerly true of it, its recurring " +
			"themes and its most notable memory."},
		ScopeRead, func(ctx context.Context, b Backend, _ string, in EntityArgs) (Reflection, error) {
			if err := required("entity_id", in.EntityID); err != nil {
				return Reflection{}, err
			}
			return b.Reflect(ctx, in.EntityID)
		})
	add(srv, s, &mcp.Tool{Name: "profile", Annotations: readOnly("Profile"),
		Description: "The consolidated profile of an entity: type, aliases, current and past facts, facts others " +
			"state about it, key themes, first and last seen, and its most important memories."},
		ScopeRead, func(ctx context.Context, b Backend, _ string, in EntityArgs) (Profile, error) {
			if err := required("entity_id", in.EntityID); err != nil {
				return Profile{}, err
			}
			return b.Profile(ctx, in.EntityID)
		})
	add(srv, s, &mcp.Tool{Name: "timeline", Annotations: readOnly("Timeline"),
		Description: "An entity's facts in the order they became true, each with valid_from, valid_until and " +
			"status (current or superseded)."},
		ScopeRead, func(ctx context.Context, b Backend, _ string, in EntityArgs) (Timeline, error) {
			if err := required("entity_id", in.EntityID); err != nil {
				return Timeline{}, err
			}
			return b.Timeline(ctx, in.EntityID)
		})
	add(srv, s, &mcp.Tool{Name: "context", Annotations: readOnly("Context"),
		Description: "Write the memories most relevant to a query as one string (narrative, bullet or structured) " +
			"of at most max_tokens tokens, with the memories it drew on. Searches every namespace."},
		ScopeRead, func(ctx context.Context, b Backend, _ string, in ContextArgs) (ContextResult, error) {
			return b.Context(ctx, in)
		})
}

// nextSteps suggests the most useful tool to call after a remember.
func nextSteps(res RememberResult, entity string) NextSteps {
	switch {
	case res.Merged:
		return NextSteps{Action: "recall",
			Suggestion: "This was already known: it was merged into memory " + res.MemoryID + " instead of being stored twice."}
	case res.FactsSuperseded > 0 && entity != "":
		return NextSteps{Action: "timeline", Suggestion: "This replaced an earlier fact; timeline with entity_id " +
			entity + " shows the history."}
	case len(res.EntitiesExtracted) > 0:
		return NextSteps{Action: "profile", Suggestion: "See what is known about " + res.EntitiesExtracted[0] +
			": profile with entity_id " + res.EntitiesExtracted[0] + "."}
	}
	return NextSteps{Action: "recall", Suggestion: "Recall related memories by meaning."}
}
