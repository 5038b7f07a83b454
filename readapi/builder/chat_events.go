package builder

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

// sseEvent is one Server-Sent Event of /api/chat-ws: its id names the
// chat, the store event it comes from and its place among that event's
// SSE events ("chat_...:7:0"), so Last-Event-ID alone says where to resume.
type sseEvent struct {
	ID   string
	Name string
	Data any
}

func (e sseEvent) bytes() []byte {
	data, _ := json.Marshal(e.Data)
	return []byte("id: " + e.ID + "\nevent: " + e.Name + "\ndata: " + string(data) + "\n\n")
}

// position is a place in a chat's event stream: after SSE event Sub of
// the store event at Version.
type position struct {
	ChatID  string
	Version int64
	Sub     int
}

func eventID(chatID string, v int64, sub int) string { return fmt.Sprintf("%s:%d:%d", chatID, v, sub) }

// parseEventID reads a Last-Event-ID.
func parseEventID(id string) (position, error) {
	parts := strings.Split(id, ":")
	bad := kernel.Invalid("Last-Event-ID", "format", "Last-Event-ID must be the id of an event of this stream (chat_...:version:index)")
	if len(parts) != 3 {
		return position{}, bad
	}
	v, err1 := strconv.ParseInt(parts[1], 10, 64)
	sub, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || v < 1 || sub < 0 || sub > 16 {
		return position{}, bad
	}
	return position{ChatID: parts[0], Version: v, Sub: sub}, nil
}

// view maps the store events of one generation to the stream's events. It
// keeps what the last events need (the version made).
type view struct {
	chatID, generationID string
	previewURL           func(chatID string) string
	version              *builder.VersionCreated
	generator            builder.GenerationStarted
	current              string // the chat's current version before this generation
	currentPreview       string
}

// events returns the SSE events of one store event of the chat (nil when
// it is not this generation's), and whether the generation ended with it.
func (w *view) events(e kernel.Event) (out []any, names []string, ended bool) {
	add := func(name string, data any) { out, names = append(out, data), append(names, name) }
	switch e := e.(type) {
	case *builder.GenerationStarted:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		w.generator = *e
		add("start", map[string]any{"chatId": e.ChatID, "generationId": e.GenerationID, "generator": e.Generator,
			"provider": e.Provider, "model": e.Model, "companyId": e.ChatID})
	case *builder.GenerationPlanned:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		add("plan", map[string]any{"archetype": e.Archetype, "matched": nonNil(e.Matched), "assumptions": nonNil(e.Assumptions),
			"spec": e.Spec, "generator": w.generator.Generator})
	case *builder.GenerationStep:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		add("step", map[string]any{"step": e.Step, "detail": e.Detail})
	case *builder.FileWritten:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		add("file", map[string]any{"path": e.File.Path, "sha256": e.File.SHA256, "size": e.File.Size})
	case *builder.VersionCreated:
		if e.GenerationID != w.generationID { // an earlier generation's or a restore: the version serving so far
			w.current, w.currentPreview = e.VersionID, w.previewURL(w.chatID)
			return nil, nil, false
		}
		w.version = e
		add("preview", map[string]any{"chatId": w.chatID, "versionId": e.VersionID, "version": e.Number,
			"url": w.previewURL(w.chatID), "state": "ready"})
	case *builder.GenerationCompleted:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		add("usage", usageData(w.generator, e.Usage))
		add("complete", map[string]any{"chatId": w.chatID, "versionId": e.VersionID, "previewUrl": w.previewURL(w.chatID),
			"status": builder.StatusCompleted})
		return out, names, true
	case *builder.GenerationFailed:
		if e.GenerationID != w.generationID {
			return nil, nil, false
		}
		add("usage", usageData(w.generator, e.Usage))
		add("error", map[string]any{"code": e.Code, "message": e.Reason})
		done := map[string]any{"chatId": w.chatID, "versionId": nil, "previewUrl": nil, "status": builder.StatusFailed}
		if w.current != "" { // the version before this generation still serves
			done["versionId"], done["previewUrl"] = w.current, w.currentPreview
		}
		add("complete", done)
		return out, names, true
	}
	return out, names, false
}

func usageData(g builder.GenerationStarted, u builder.Usage) map[string]any {
	return map[string]any{"generator": g.Generator, "provider": g.Provider, "model": g.Model,
		"input_tokens": u.InputTokens, "output_tokens": u.OutputTokens, "files": u.Files, "bytes": u.Bytes}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
