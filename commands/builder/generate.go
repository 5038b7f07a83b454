package builder

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// GenerateArgs is the durable job that runs one generation.
type GenerateArgs struct {
	ChatID       string `json:"chat_id"`
	GenerationID string `json:"generation_id"`
}

// Kind implements jobs.Args.
func (GenerateArgs) Kind() string { return "builder.generate" }

// Codes of a failed generation.
const (
	CodeInvalidIdea      = "invalid_idea"
	CodeGenerationFailed = "generation_failed"
)

// Steps of the pipeline, as the stream names them.
const (
	StepPlan    = "plan"
	StepFiles   = "files"
	StepVersion = "version"
)

// generateJob runs a generation; its last failed attempt records the
// generation as failed, so that no generation stays running forever.
func (c *Chats) generateJob(ctx context.Context, job *jobs.Job[GenerateArgs]) error {
	ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: "builder", CorrelationID: job.Args.GenerationID})
	err := c.generate(ctx, job)
	if err == nil || errors.Is(err, errGenerationGone) || ctx.Err() != nil || job.Attempt < job.MaxAttempts {
		if errors.Is(err, errGenerationGone) {
			return jobs.Permanent(err)
		}
		return err
	}
	c.cfg.Logger.Error("builder: a generation failed on its last attempt", "chat", job.Args.ChatID,
		"generation", job.Args.GenerationID, "error", err)
	return c.fail(ctx, job, CodeGenerationFailed, fmt.Sprintf("the generation failed %d times; the last error was logged", job.Attempt))
}

// fail records the generation as failed (unless it already ended) and
// completes the job in the same transaction.
func (c *Chats) fail(ctx context.Context, job *jobs.Job[GenerateArgs], code, reason string) error {
	return c.failWith(ctx, job, code, reason, Produced{})
}

// failWith is fail with what the generator used before it failed.
func (c *Chats) failWith(ctx context.Context, job *jobs.Job[GenerateArgs], code, reason string, used Produced) error {
	ch, err := c.Load(ctx, job.Args.ChatID)
	if err != nil {
		return err
	}
	g, ok := ch.Generation(job.Args.GenerationID)
	if !ok || g.Status != builder.StatusRunning {
		return nil
	}
	u := usageOf(g.Files)
	u.InputTokens, u.OutputTokens = used.InputTokens, used.OutputTokens
	ev := &builder.GenerationFailed{GenerationID: g.ID, Code: code, Reason: reason, Usage: u, At: c.cfg.Clock.Now()}
	return c.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := c.cfg.Store.AppendTx(ctx, tx, chatStream(ch.ID), ch.Version, ev); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

func usageOf(files []builder.FileRef) builder.Usage {
	u := builder.Usage{Files: len(files)}
	for _, f := range files {
		u.Bytes += f.Size
	}
	return u
}

// generate runs the pipeline from where the generation's events left it
// (a retried job resumes: the plan and the files already recorded are not
// recorded again): plan, files (each in the blob store before its event),
// then the version and the completion with the job's, in one transaction.
func (c *Chats) generate(ctx context.Context, job *jobs.Job[GenerateArgs]) error {
	ch, err := c.Load(ctx, job.Args.ChatID)
	if err != nil {
		return err
	}
	g, ok := ch.Generation(job.Args.GenerationID)
	if !ok {
		return errGenerationGone
	}
	if g.Status != builder.StatusRunning {
		return nil
	}
	stream, version := chatStream(ch.ID), ch.Version
	emit := func(evs ...kernel.Event) error {
		a, err := c.cfg.Store.Append(ctx, stream, version, evs...)
		if err != nil {
			return err
		}
		version = a.ToVersion
		return nil
	}
	now := c.cfg.Clock.Now
	plan := Plan{Archetype: g.Archetype, Matched: g.Matched, Assumptions: g.Assumptions, Spec: g.Spec}
	if !g.Planned {
		gen := c.generatorFor(g.Generator)
		if err := emit(&builder.GenerationStep{GenerationID: g.ID, Step: StepPlan, Detail: "reading the idea: " + gen.Name() + " generator", At: now()}); err != nil {
			return err
		}
		if plan, err = gen.Plan(ctx, g.Message); err != nil {
			if kernel.KindOf(err) == kernel.KindInvalid {
				return c.fail(ctx, job, CodeInvalidIdea, err.Error())
			}
			return err
		}
		if err := emit(&builder.GenerationPlanned{GenerationID: g.ID, Archetype: plan.Archetype, Matched: plan.Matched,
			Assumptions: plan.Assumptions, Spec: plan.Spec, At: now()}); err != nil {
			return err
		}
	}
	gen := c.generatorFor(g.Generator)
	written := map[string]builder.FileRef{}
	for _, f := range g.Files {
		written[f.Path] = f
	}
	if len(g.Files) == 0 {
		if err := emit(&builder.GenerationStep{GenerationID: g.ID, Step: StepFiles, Detail: "writing the app's files (" + gen.Name() + " generator)", At: now()}); err != nil {
			return err
		}
	}
	var refs []builder.FileRef
	produced, err := gen.Files(ctx, g.Message, g.Model, plan, func(f GenFile) error {
		ref, err := c.store(ctx, ch.ID, f)
		if err != nil {
			return err
		}
		refs = slices.DeleteFunc(refs, func(r builder.FileRef) bool { return r.Path == ref.Path }) // a later block of a path wins
		refs = append(refs, ref)
		if w, ok := written[f.Path]; ok && w == ref {
			return nil
		}
		written[f.Path] = ref
		return emit(&builder.FileWritten{GenerationID: g.ID, File: ref, At: now()})
	})
	var ge *GenError
	if errors.As(err, &ge) {
		return c.failWith(ctx, job, ge.Code, ge.Message, produced)
	}
	if err != nil {
		return err
	}
	slices.SortFunc(refs, func(a, b builder.FileRef) int { return strings.Compare(a.Path, b.Path) })
	usage := usageOf(refs)
	usage.InputTokens, usage.OutputTokens = produced.InputTokens, produced.OutputTokens
	v := &builder.VersionCreated{VersionID: "ver_" + c.cfg.IDs.NewID(), Number: len(ch.Versions) + 1, GenerationID: g.ID,
		Generator: gen.Name(), Provider: produced.Provider, Model: produced.Model, Files: refs, At: now()}
	done := &builder.GenerationCompleted{GenerationID: g.ID, VersionID: v.VersionID, Usage: usage,
		DurationMS: now().Sub(g.StartedAt).Milliseconds(), At: now()}
	step := &builder.GenerationStep{GenerationID: g.ID, Step: StepVersion, Detail: fmt.Sprintf("version %d: %d files", v.Number, len(refs)), At: now()}
	return c.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := c.cfg.Store.AppendTx(ctx, tx, stream, version, step, v, done); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// store puts a generated file in the blob store (under the chat) and
// returns its reference; its bytes are durable before any event names it.
func (c *Chats) store(ctx context.Context, chatID string, f GenFile) (builder.FileRef, error) {
	if err := checkPath(f.Path); err != nil {
		return builder.FileRef{}, err
	}
	st, err := c.cfg.Blobs.Stage(ctx, chatID, bytes.NewReader(f.Content), c.cfg.MaxFileBytes)
	if err != nil {
		return builder.FileRef{}, fmt.Errorf("stage %s: %w", f.Path, err)
	}
	if err := st.Commit(ctx); err != nil {
		return builder.FileRef{}, err
	}
	return builder.FileRef{Path: f.Path, SHA256: st.SHA256, Size: st.Size}, nil
}

// checkPath refuses a generated path that could leave the app's directory
// (an export or a deploy writes files by it).
func checkPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.Contains(p, "\x00") || len(p) > 200 {
		return fmt.Errorf("generated file path %q is not a relative slash path", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("generated file path %q has an empty, . or .. element", p)
		}
	}
	return nil
}
