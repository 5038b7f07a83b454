package builder

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"log/slog"
	"regexp"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// CodeLLMUnavailable is the code of a request for a model when the builder
// has no model path configured.
const CodeLLMUnavailable = "llm_unavailable"

// ChatsConfig is what the chat commands need.
type ChatsConfig struct {
	Store  *eventstore.Store
	Blobs  blobs.Store
	Jobs   *jobs.Service
	Clock  kernel.Clock
	IDs    kernel.IDs
	Logger *slog.Logger
	// MaxFileBytes bounds one generated file (default 1 MiB).
	MaxFileBytes int64
	// Model is the model path (a ModelGenerator through the gateway); nil:
	// only the offline template generator, and a request for a model is
	// refused (llm_unavailable).
	Model Generator
}

// Chats runs the builder's generations: a founder's message starts one
// (an event, and a durable job in the same transaction), the job runs the
// pipeline and records every step, file and version as events, which the
// stream route relays.
type Chats struct {
	cfg      ChatsConfig
	template Generator
}

// NewChats returns the chat commands and declares their job kind on the
// jobs service (before it starts).
func NewChats(cfg ChatsConfig) (*Chats, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxFileBytes == 0 {
		cfg.MaxFileBytes = 1 << 20
	}
	c := &Chats{cfg: cfg, template: TemplateGenerator{}}
	if err := jobs.Handle(cfg.Jobs, c.generateJob, jobs.KindOptions{MaxAttempts: 5}); err != nil {
		return nil, err
	}
	return c, nil
}

var chatIDRE = regexp.MustCompile(`^chat_[0-9A-Za-z]{10,40}$`)

// CheckChatID validates a chat id a client sent (field names the field).
func CheckChatID(field, id string) error {
	if !chatIDRE.MatchString(id) {
		return kernel.Invalid(field, "format", field+" must be a chat id as the stream's start event gave it (chat_...)")
	}
	return nil
}

func chatStream(id string) eventstore.Stream {
	return eventstore.Stream{Type: builder.StreamChat, ID: id}
}

// Load folds the chat's events; a chat with no events is not found.
func (c *Chats) Load(ctx context.Context, chatID string) (*builder.Chat, error) {
	evs, err := c.cfg.Store.Load(ctx, chatID, eventstore.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("load chat %s: %w", chatID, err)
	}
	if len(evs) == 0 || evs[0].StreamType != builder.StreamChat {
		return nil, kernel.NotFound("no chat with id " + chatID)
	}
	ch := &builder.Chat{}
	for _, e := range evs {
		ch.Apply(e.Event, e.StreamVersion)
	}
	return ch, nil
}

// Started is a started generation: the chat (new or continued), the
// generation and the stream version of its start event.
type Started struct {
	ChatID       string
	GenerationID string
	Generator    string
	Provider     string
	Model        string
	Version      int64
}

// Start starts a generation of message in chat chatID ("" starts a new
// chat) for founderID ("" when anonymous). model asks for a model: without
// a model path configured that is a 503 llm_unavailable, never a silent
// template. The start event and the generation's job commit together.
func (c *Chats) Start(ctx context.Context, founderID, message, chatID, model string) (Started, error) {
	if err := builder.CheckMessage(message); err != nil {
		return Started{}, err
	}
	gen := c.template
	if c.cfg.Model != nil {
		gen = c.cfg.Model
	}
	if model != "" {
		if c.cfg.Model == nil {
			return Started{}, &kernel.Error{Kind: kernel.KindUnavailable, Field: "model", Rule: CodeLLMUnavailable,
				Message: "no model is configured for the builder, so model " + model + " cannot be used; omit model to use the offline template generator"}
		}
		if err := checkModelName(model); err != nil {
			return Started{}, err
		}
	} else {
		model = gen.Model()
	}
	expected := eventstore.NoStream
	if chatID != "" {
		if err := CheckChatID("chatId", chatID); err != nil {
			return Started{}, err
		}
		ch, err := c.Load(ctx, chatID)
		if err != nil {
			return Started{}, err
		}
		if ch.FounderID != "" && ch.FounderID != founderID {
			return Started{}, kernel.Forbidden("this chat belongs to a signed-in founder: sign in as them to continue it")
		}
		if err := builder.StartGeneration(ch); err != nil {
			return Started{}, err
		}
		expected = ch.Version
	} else {
		chatID = "chat_" + c.cfg.IDs.NewID()
	}
	st := Started{ChatID: chatID, GenerationID: "gen_" + c.cfg.IDs.NewID(), Generator: gen.Name(),
		Provider: gen.Provider(), Model: model}
	ev := &builder.GenerationStarted{ChatID: chatID, GenerationID: st.GenerationID, Message: message, Generator: st.Generator,
		Provider: st.Provider, Model: st.Model, FounderID: founderID, At: c.cfg.Clock.Now()}
	err := c.cfg.Store.InTx(ctx, func(tx *stdsql.Tx) error {
		a, err := c.cfg.Store.AppendTx(ctx, tx, chatStream(chatID), expected, ev)
		if err != nil {
			return err
		}
		st.Version = a.ToVersion
		_, err = c.cfg.Jobs.Enqueue(ctx, tx, GenerateArgs{ChatID: chatID, GenerationID: st.GenerationID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
		return err
	})
	if kernel.KindOf(err) == kernel.KindConflict {
		return Started{}, kernel.Conflict("another generation started in this chat at the same moment; reconnect to its stream", err)
	}
	if err != nil {
		return Started{}, fmt.Errorf("start generation in %s: %w", chatID, err)
	}
	return st, nil
}

// Restore makes an older version the chat's current one, as a new version
// with its files (history is kept). founderID must be the chat's founder
// when it has one.
func (c *Chats) Restore(ctx context.Context, founderID, chatID, version string) (builder.VersionCreated, error) {
	ch, err := c.Load(ctx, chatID)
	if err != nil {
		return builder.VersionCreated{}, err
	}
	if ch.FounderID != "" && ch.FounderID != founderID {
		return builder.VersionCreated{}, kernel.Forbidden("this chat belongs to a signed-in founder: sign in as them to restore its versions")
	}
	from, err := builder.Restore(ch, version)
	if err != nil {
		return builder.VersionCreated{}, err
	}
	v := builder.VersionCreated{VersionID: "ver_" + c.cfg.IDs.NewID(), Number: len(ch.Versions) + 1, RestoredFrom: from.VersionID,
		Generator: from.Generator, Provider: from.Provider, Model: from.Model, Files: from.Files, At: c.cfg.Clock.Now()}
	if _, err := c.cfg.Store.Append(ctx, chatStream(chatID), ch.Version, &v); err != nil {
		if kernel.KindOf(err) == kernel.KindConflict {
			return builder.VersionCreated{}, kernel.Conflict("the chat changed while restoring; try again", err)
		}
		return builder.VersionCreated{}, fmt.Errorf("restore %s in %s: %w", version, chatID, err)
	}
	return v, nil
}

// File opens one file of a version (its bytes in the blob store).
func (c *Chats) File(ctx context.Context, chatID string, f builder.FileRef) (blobs.Blob, error) {
	b, err := c.cfg.Blobs.Open(ctx, chatID, f.SHA256)
	if err != nil {
		return nil, fmt.Errorf("open %s of %s: %w", f.Path, chatID, err)
	}
	return b, nil
}

var errGenerationGone = errors.New("the generation is not in the chat")

// Owned loads the company (the chat) companyID for founderID, for the
// builder's session routes: 400 for a malformed id (field companyId), 404
// for an unknown one, 403 unless founderID started the chat. A chat
// started without a founder session belongs to nobody: its id travels in
// preview links, so it could not prove who may manage it.
func (c *Chats) Owned(ctx context.Context, founderID, companyID string) (*builder.Chat, error) {
	if companyID == "" {
		return nil, kernel.Invalid("companyId", "required", "companyId is required (the chatId of the generation that built the company)")
	}
	if err := CheckChatID("companyId", companyID); err != nil {
		return nil, err
	}
	ch, err := c.Load(ctx, companyID)
	if err != nil {
		return nil, err
	}
	if ch.FounderID == "" {
		return nil, kernel.Forbidden("this company was generated without a founder session, so nobody can manage it; sign in, then generate it again")
	}
	if ch.FounderID != founderID {
		return nil, kernel.Forbidden("this company belongs to another founder")
	}
	return ch, nil
}

// generatorFor is the generator a generation was started with.
func (c *Chats) generatorFor(name string) Generator {
	if name == builder.GeneratorModel && c.cfg.Model != nil {
		return c.cfg.Model
	}
	return c.template
}

var modelNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$`)

// checkModelName validates a model override (a catalog model or router id).
func checkModelName(m string) error {
	if !modelNameRE.MatchString(m) {
		return kernel.Invalid("model", "format", "model must be a model or router id of the catalog (letters, digits and . _ : / -, at most 128)")
	}
	return nil
}
