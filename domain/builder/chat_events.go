package builder

import (
	"encoding/json"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamChat is the stream type of one chat: its generations, the files
// each wrote, its versions (checkpoints) and restores. The stream id is the
// chat id, which is also the id of the company the chat builds (companyId
// in the builder's other routes).
const StreamChat = "builder.chat"

// Generators: what produced a generation's output.
const (
	GeneratorTemplate = "template" // the offline template generator (domain/builder/template)
	GeneratorModel    = "model"    // a model, through the platform's gateway
)

// FileRef is one file of a version: its path and the SHA-256 of its bytes,
// kept in the blob store under the chat's id.
type FileRef struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// GenerationStarted: a founder's message started a generation (the first
// one creates the chat). FounderID is the signed-in founder, if any.
type GenerationStarted struct {
	ChatID       string    `json:"chat_id"`
	GenerationID string    `json:"generation_id"`
	Message      string    `json:"message"`
	Generator    string    `json:"generator"`
	Provider     string    `json:"provider"`
	Model        string    `json:"model"`
	FounderID    string    `json:"founder_id,omitempty"`
	At           time.Time `json:"at"`
}

// GenerationPlanned: the generation's app spec (the assumptions shown to
// the founder, and the words they came from).
type GenerationPlanned struct {
	GenerationID string          `json:"generation_id"`
	Archetype    string          `json:"archetype"`
	Matched      []string        `json:"matched"`
	Assumptions  []string        `json:"assumptions"`
	Spec         json.RawMessage `json:"spec"`
	At           time.Time       `json:"at"`
}

// GenerationStep: a step of the pipeline began or ended.
type GenerationStep struct {
	GenerationID string    `json:"generation_id"`
	Step         string    `json:"step"`
	Detail       string    `json:"detail"`
	At           time.Time `json:"at"`
}

// FileWritten: the generation wrote one file (its bytes are in the blob
// store before the event is appended).
type FileWritten struct {
	GenerationID string    `json:"generation_id"`
	File         FileRef   `json:"file"`
	At           time.Time `json:"at"`
}

// Usage is what a generation used: the gateway's tokens on the model
// path (none on the template path) and what it wrote.
type Usage struct {
	InputTokens  int   `json:"input_tokens"`
	OutputTokens int   `json:"output_tokens"`
	Files        int   `json:"files"`
	Bytes        int64 `json:"bytes"`
}

// VersionCreated: a checkpoint of the chat's files, now its current
// version. A generation makes one; a restore makes one from an older
// version's files (RestoredFrom).
type VersionCreated struct {
	VersionID    string    `json:"version_id"`
	Number       int       `json:"number"`
	GenerationID string    `json:"generation_id,omitempty"`
	RestoredFrom string    `json:"restored_from,omitempty"`
	Generator    string    `json:"generator"`
	Provider     string    `json:"provider"`
	Model        string    `json:"model"`
	Files        []FileRef `json:"files"`
	At           time.Time `json:"at"`
}

// GenerationCompleted: the generation ended with a version.
type GenerationCompleted struct {
	GenerationID string    `json:"generation_id"`
	VersionID    string    `json:"version_id"`
	Usage        Usage     `json:"usage"`
	DurationMS   int64     `json:"duration_ms"`
	At           time.Time `json:"at"`
}

// GenerationFailed: the generation ended without a version; Code is a
// stable machine code (budget_exceeded, model_unavailable, ...), Reason
// says what happened.
type GenerationFailed struct {
	GenerationID string    `json:"generation_id"`
	Code         string    `json:"code"`
	Reason       string    `json:"reason"`
	Usage        Usage     `json:"usage"`
	At           time.Time `json:"at"`
}

// EventType implementations.
func (GenerationStarted) EventType() string   { return "builder.generation_started" }
func (GenerationPlanned) EventType() string   { return "builder.generation_planned" }
func (GenerationStep) EventType() string      { return "builder.generation_step" }
func (FileWritten) EventType() string         { return "builder.file_written" }
func (VersionCreated) EventType() string      { return "builder.version_created" }
func (GenerationCompleted) EventType() string { return "builder.generation_completed" }
func (GenerationFailed) EventType() string    { return "builder.generation_failed" }

// ChatEvents returns a constructor for every chat event (schema version 1).
func ChatEvents() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &GenerationStarted{} },
		func() kernel.Event { return &GenerationPlanned{} },
		func() kernel.Event { return &GenerationStep{} },
		func() kernel.Event { return &FileWritten{} },
		func() kernel.Event { return &VersionCreated{} },
		func() kernel.Event { return &GenerationCompleted{} },
		func() kernel.Event { return &GenerationFailed{} },
	}
}
