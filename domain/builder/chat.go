package builder

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Generation statuses.
const (
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Limits of a chat.
const (
	MaxMessage  = 4000 // characters of a founder's message
	MaxVersions = 200  // versions one chat keeps
)

// Chat is a chat folded from its events.
type Chat struct {
	ID          string
	FounderID   string // who started it, if signed in
	Version     int64  // the stream's version the fold reached
	Generations []Generation
	Versions    []Version
	Current     string // the current version's id ("" before the first)
	CreatedAt   time.Time
}

// Generation is one run of the pipeline.
type Generation struct {
	ID          string
	Message     string
	Generator   string
	Provider    string
	Model       string
	Status      string
	Archetype   string
	Assumptions []string
	Matched     []string
	Spec        json.RawMessage
	Planned     bool
	Files       []FileRef
	VersionID   string
	Code        string // failed: the machine code
	Reason      string
	Usage       Usage
	StartedAt   time.Time
	EndedAt     time.Time
}

// Version is a checkpoint of the chat's files.
type Version struct {
	VersionCreated
}

// Apply folds one event of the chat's stream at version v.
func (c *Chat) Apply(e kernel.Event, v int64) {
	c.Version = v
	switch e := e.(type) {
	case *GenerationStarted:
		if c.ID == "" {
			c.ID, c.FounderID, c.CreatedAt = e.ChatID, e.FounderID, e.At
		}
		c.Generations = append(c.Generations, Generation{ID: e.GenerationID, Message: e.Message, Generator: e.Generator,
			Provider: e.Provider, Model: e.Model, Status: StatusRunning, StartedAt: e.At})
	case *GenerationPlanned:
		if g := c.generation(e.GenerationID); g != nil {
			g.Planned, g.Archetype, g.Assumptions, g.Matched, g.Spec = true, e.Archetype, e.Assumptions, e.Matched, e.Spec
		}
	case *FileWritten:
		if g := c.generation(e.GenerationID); g != nil {
			g.Files = append(g.Files, e.File)
		}
	case *VersionCreated:
		c.Versions = append(c.Versions, Version{*e})
		c.Current = e.VersionID
		if g := c.generation(e.GenerationID); g != nil {
			g.VersionID = e.VersionID
		}
	case *GenerationCompleted:
		if g := c.generation(e.GenerationID); g != nil {
			g.Status, g.Usage, g.EndedAt = StatusCompleted, e.Usage, e.At
		}
	case *GenerationFailed:
		if g := c.generation(e.GenerationID); g != nil {
			g.Status, g.Code, g.Reason, g.Usage, g.EndedAt = StatusFailed, e.Code, e.Reason, e.Usage, e.At
		}
	}
}

func (c *Chat) generation(id string) *Generation {
	for i := range c.Generations {
		if c.Generations[i].ID == id {
			return &c.Generations[i]
		}
	}
	return nil
}

// Generation returns the generation with id.
func (c *Chat) Generation(id string) (Generation, bool) {
	if g := c.generation(id); g != nil {
		return *g, true
	}
	return Generation{}, false
}

// Running is the generation that has not ended, if any.
func (c *Chat) Running() (Generation, bool) {
	for _, g := range c.Generations {
		if g.Status == StatusRunning {
			return g, true
		}
	}
	return Generation{}, false
}

// Latest is the chat's last generation.
func (c *Chat) Latest() (Generation, bool) {
	if len(c.Generations) == 0 {
		return Generation{}, false
	}
	return c.Generations[len(c.Generations)-1], true
}

// VersionByID returns the version with id, or by number when id is a
// decimal number ("3").
func (c *Chat) VersionByID(id string) (Version, bool) {
	for _, v := range c.Versions {
		if v.VersionID == id || fmt.Sprint(v.Number) == id {
			return v, true
		}
	}
	return Version{}, false
}

// CurrentVersion is the version the chat serves.
func (c *Chat) CurrentVersion() (Version, bool) { return c.VersionByID(c.Current) }

// CheckMessage validates a founder's message.
func CheckMessage(m string) error {
	switch n := len([]rune(m)); {
	case n == 0 || isBlank(m):
		return kernel.Invalid("message", "required", "message is required: describe the app or company to build")
	case n > MaxMessage:
		return kernel.Invalid("message", fmt.Sprintf("max:%d", MaxMessage), fmt.Sprintf("message is %d characters; at most %d", n, MaxMessage))
	}
	return nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

// StartGeneration decides whether a new generation may start in c (nil
// for a new chat): not while another one runs (a conflict: one
// generation at a time per chat), and not past MaxVersions.
func StartGeneration(c *Chat) error {
	if c == nil {
		return nil
	}
	if g, ok := c.Running(); ok {
		return kernel.Conflict(fmt.Sprintf("generation %s is still running in this chat; reconnect to its stream or wait for it to end", g.ID), nil)
	}
	if len(c.Versions) >= MaxVersions {
		return kernel.Invalid("chatId", fmt.Sprintf("max_versions:%d", MaxVersions), fmt.Sprintf("this chat has %d versions, the most one chat keeps; start a new chat", MaxVersions))
	}
	return nil
}

// Restore decides a restore of version id: it must exist, and a running
// generation must end first. It returns the version to copy.
func Restore(c *Chat, id string) (Version, error) {
	if c == nil || c.ID == "" {
		return Version{}, kernel.NotFound("no chat with this id")
	}
	v, ok := c.VersionByID(id)
	if !ok {
		return Version{}, &kernel.Error{Kind: kernel.KindNotFound, Field: "version", Rule: "unknown", Message: fmt.Sprintf("chat %s has no version %q", c.ID, id)}
	}
	if g, ok := c.Running(); ok {
		return Version{}, kernel.Conflict(fmt.Sprintf("generation %s is still running in this chat; restore after it ends", g.ID), nil)
	}
	if len(c.Versions) >= MaxVersions {
		return Version{}, kernel.Invalid("version", fmt.Sprintf("max_versions:%d", MaxVersions), "this chat keeps no more versions")
	}
	return v, nil
}
