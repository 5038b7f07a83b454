package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/memory"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// Backend is what the memory tools act through: the memory service of one
// user. Arguments arrive as the client sent them, after the tools applied
// the session's defaults; a Backend validates them as the REST API does
// and answers bad input with a kernel invalid error (or an *APIError)
// naming the field and the rule it broke.
type Backend interface {
	Remember(ctx context.Context, in RememberArgs) (RememberResult, error)
	Recall(ctx context.Context, in RecallArgs) (RecallResult, error)
	Forget(ctx context.Context, memoryID string) (ForgetResult, error)
	Relate(ctx context.Context, in RelateArgs) (RelateResult, error)
	Reflect(ctx context.Context, entity string) (Reflection, error)
	Profile(ctx context.Context, entity string) (Profile, error)
	Timeline(ctx context.Context, entity string) (Timeline, error)
	Context(ctx context.Context, in ContextArgs) (ContextResult, error)
	MergeEntities(ctx context.Context, in MergeArgs) (MergeResult, error)
}

// Local is the in-process Backend: it reads through the memory API and
// writes through its command service, acting for one user. Appends record
// the eventstore metadata of the context they are given.
type Local struct {
	api  *readmemory.API
	user string
}

// NewLocal returns the in-process backend acting for user.
func NewLocal(api *readmemory.API, user string) *Local { return &Local{api: api, user: user} }

// forgotten is forget's message (the REST API's).
const forgotten = "memory forgotten: removed from every read model and its content shredded in the event history"

// Remember validates in and stores it (or merges it into a near-duplicate).
func (l *Local) Remember(ctx context.Context, in RememberArgs) (RememberResult, error) {
	svc := l.api.Service()
	ri := memory.RememberInput{Content: in.Content, EntityRef: in.EntityID, MemoryType: in.MemoryType,
		Importance: deref(in.Importance, memory.DefaultImportance), Namespace: in.Namespace, Tags: in.Tags,
		Metadata: in.Metadata}
	if err := ri.Check(svc.Now()); err != nil {
		return RememberResult{}, err
	}
	res, err := svc.Remember(ctx, l.user, ri)
	if err != nil {
		return RememberResult{}, err
	}
	return RememberResult{MemoryID: res.MemoryID, Content: ri.Content, Importance: ri.Importance,
		MemoryType: ri.MemoryType, Namespace: ri.Namespace, EntitiesExtracted: nonNil(res.Entities),
		Merged: res.Merged, FactsSuperseded: len(res.Superseded)}, nil
}

// Recall validates in (REST defaults: namespace global, every namespace
// searched, 10 results) and searches the user's memories.
func (l *Local) Recall(ctx context.Context, in RecallArgs) (RecallResult, error) {
	req := readmemory.RecallRequest{Query: strings.TrimSpace(in.Query), EntityRef: in.EntityID, Layer: in.Layer,
		Namespace: in.Namespace, CrossNamespace: deref(in.AllowCrossNamespace, true),
		Expand: deref(in.QueryExpansion, false), Rerank: deref(in.Rerank, false)}
	var err error
	if req.Limit, err = readmemory.LimitField("limit", in.Limit, 10, 1, 100); err != nil {
		return RecallResult{}, err
	}
	if req.AsOf, err = optionalTime("as_of", in.AsOf); err != nil {
		return RecallResult{}, err
	}
	if err := req.Check(); err != nil {
		return RecallResult{}, err
	}
	res, err := l.api.Recall(ctx, l.user, req)
	if err != nil {
		return RecallResult{}, err
	}
	return RecallResult{Results: nonNil(res.Results), Count: res.Count, QueryExpansion: res.QueryExpansion,
		Reranked: res.Reranked, Namespace: req.Namespace, AllowCrossNamespace: req.CrossNamespace}, nil
}

// Forget deletes one of the user's memories and shreds its content.
func (l *Local) Forget(ctx context.Context, memoryID string) (ForgetResult, error) {
	if err := l.api.Service().Forget(ctx, l.user, memoryID); err != nil {
		return ForgetResult{}, err
	}
	return ForgetResult{Success: true, MemoryID: memoryID, Message: forgotten}, nil
}

// Relate validates in and records the fact in the user's graph.
func (l *Local) Relate(ctx context.Context, in RelateArgs) (RelateResult, error) {
	from, err := optionalTime("valid_from", in.ValidFrom)
	if err != nil {
		return RelateResult{}, err
	}
	ri := memory.RelateInput{Subject: in.Subject, Predicate: in.Predicate, Object: in.Object,
		Confidence: deref(in.Confidence, memory.DefaultConfidence), Exclusive: in.Exclusive, ValidFrom: from}
	res, err := l.api.Service().Relate(ctx, l.user, ri)
	if err != nil {
		return RelateResult{}, err
	}
	return RelateResult{Success: true, EdgeID: res.EdgeID, Subject: in.Subject, SubjectID: res.SubjectID,
		Predicate: res.Predicate, Object: in.Object, ObjectID: res.ObjectID, Confidence: ri.Confidence,
		Exclusive: res.Exclusive, ValidFrom: res.ValidFrom, Superseded: nonNil(res.Superseded)}, nil
}

// Reflect writes the extractive reflection on an entity of the user's.
func (l *Local) Reflect(ctx context.Context, entity string) (Reflection, error) {
	res, err := l.api.Reflect(ctx, l.user, entity)
	if err != nil {
		return Reflection{}, err
	}
	return convert[Reflection](res)
}

// Profile consolidates what the user's store holds about an entity.
func (l *Local) Profile(ctx context.Context, entity string) (Profile, error) {
	res, err := l.api.ProfileOf(ctx, l.user, entity)
	if err != nil {
		return Profile{}, err
	}
	return convert[Profile](res)
}

// Timeline lists an entity's facts by valid_from.
func (l *Local) Timeline(ctx context.Context, entity string) (Timeline, error) {
	res, err := l.api.TimelineOf(ctx, l.user, entity)
	if err != nil {
		return Timeline{}, err
	}
	return convert[Timeline](res)
}

// Context validates in (REST defaults: narrative, top_k 10, max_tokens
// 2000) and synthesises the context from the user's memories.
func (l *Local) Context(ctx context.Context, in ContextArgs) (ContextResult, error) {
	req := readmemory.ContextRequest{Query: strings.TrimSpace(in.Query), AgentID: in.AgentID,
		Style: in.SynthesisStyle, Expand: deref(in.QueryExpansion, false), Rerank: deref(in.Rerank, false)}
	if req.Style == "" {
		req.Style = "narrative"
	}
	var err error
	if req.TopK, err = readmemory.LimitField("top_k", in.TopK, 10, 1, 50); err != nil {
		return ContextResult{}, err
	}
	if req.MaxTokens, err = readmemory.LimitField("max_tokens", in.MaxTokens, readmemory.DefaultMaxTokens, 1,
		readmemory.MaxMaxTokens); err != nil {
		return ContextResult{}, err
	}
	if err := req.Check(); err != nil {
		return ContextResult{}, err
	}
	return l.api.Context(ctx, l.user, req)
}

// MergeEntities merges one of the user's entities into another.
func (l *Local) MergeEntities(ctx context.Context, in MergeArgs) (MergeResult, error) {
	return l.api.MergeEntities(ctx, l.user, memory.MergeInput{Entity: in.EntityID, Into: in.Into})
}

// convert re-reads a REST answer as the tool's output type through its
// JSON, so the tool answers exactly what the REST route answers.
func convert[T any](v any) (T, error) {
	var out T
	raw, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	return out, err
}

// optionalTime parses an optional date-time as the REST API does.
func optionalTime(field, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	return readmemory.ParseTime(field, v)
}

func deref[T any](v *T, def T) T {
	if v == nil {
		return def
	}
	return *v
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
