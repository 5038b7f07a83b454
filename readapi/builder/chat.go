package builder

import (
	"context"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/readapi/httpx"
)

// writeWindow is how long one write of the stream may take.
const writeWindow = 60 * time.Second

// ChatConfig is what the generation routes need.
type ChatConfig struct {
	Chats    *cmd.Chats
	Store    *eventstore.Store
	Founders *Founders // nil: every chat is anonymous
	// Wake fires when events commit (in this process or, through NOTIFY,
	// another); the stream also polls every PollEvery.
	Wake      func() <-chan struct{}
	PollEvery time.Duration
	// BaseURL is the builder's public base URL (preview links).
	BaseURL string
	// Heartbeat is the interval of SSE comments on an idle stream.
	Heartbeat time.Duration
	// Preview serves the API of a chat's running app; nil: 503.
	Preview PreviewBackend
}

// ChatAPI serves the generation stream, versions, export and preview.
type ChatAPI struct {
	cfg   ChatConfig
	cache previewCache
}

// NewChat returns the generation routes' handlers.
func NewChat(cfg ChatConfig) *ChatAPI {
	if cfg.PollEvery == 0 {
		cfg.PollEvery = 500 * time.Millisecond
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.Wake == nil {
		cfg.Wake = func() <-chan struct{} { return nil }
	}
	return &ChatAPI{cfg: cfg}
}

func (a *ChatAPI) previewURL(chatID string) string {
	return strings.TrimRight(a.cfg.BaseURL, "/") + "/api/preview/" + chatID + "/"
}

// founderID is the signed-in founder of r, or "" when anonymous.
func (a *ChatAPI) founderID(r *http.Request) string {
	if a.cfg.Founders == nil {
		return ""
	}
	s, err := a.cfg.Founders.session(r)
	if err != nil {
		return ""
	}
	return s.UserID
}

type chatRequest struct {
	Message string `json:"message"`
	ChatID  string `json:"chatId"`
	Model   string `json:"model"`
}

// stream serves POST /api/chat-ws: a new generation (message, chatId to
// continue a chat, model), or with Last-Event-ID the rest of the stream
// it names (the body is then ignored), as text/event-stream.
func (a *ChatAPI) stream(w http.ResponseWriter, r *http.Request) {
	var at position
	var gen string
	if last := strings.TrimSpace(r.Header.Get("Last-Event-ID")); last != "" {
		p, err := parseEventID(last)
		if err == nil {
			err = cmd.CheckChatID("Last-Event-ID", p.ChatID)
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		ch, err := a.cfg.Chats.Load(r.Context(), p.ChatID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if gen = generationAt(ch, p.Version, a.cfg.Store, r.Context()); gen == "" || p.Version > ch.Version {
			httpx.WriteError(w, r, kernel.Invalid("Last-Event-ID", "unknown", "Last-Event-ID names no event of this chat's generations"))
			return
		}
		at = p
	} else {
		var req chatRequest
		if err := httpx.DecodeJSON(r, &req); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		st, err := a.cfg.Chats.Start(r.Context(), a.founderID(r), req.Message, req.ChatID, req.Model)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		at, gen = position{ChatID: st.ChatID, Version: st.Version - 1, Sub: -1}, st.GenerationID
	}
	a.follow(w, r, at, gen)
}

// generationAt is the generation whose stream an event id at version v
// belongs to: the last one started at or before v.
func generationAt(ch *builder.Chat, v int64, store *eventstore.Store, ctx context.Context) string {
	evs, err := store.Load(ctx, ch.ID, eventstore.LoadOptions{UpToVersion: v})
	if err != nil {
		return ""
	}
	gen := ""
	for _, e := range evs {
		if s, ok := e.Event.(*builder.GenerationStarted); ok {
			gen = s.GenerationID
		}
	}
	return gen
}

// follow writes the generation's events after at, from the store, waking
// on commits, until the generation ends (or the client goes away: the
// generation goes on, a durable job, and a reconnect resumes).
func (a *ChatAPI) follow(w http.ResponseWriter, r *http.Request, at position, gen string) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	// The server's WriteTimeout would cut the stream: each write moves the
	// deadline instead.
	send := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeWindow))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	_ = rc.SetWriteDeadline(time.Now().Add(writeWindow))
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	ctx := r.Context()
	v := &view{chatID: at.ChatID, generationID: gen, previewURL: a.previewURL}
	// Fold what came before the resume point (the generation's start, the
	// version serving before it) without sending it.
	seen := int64(0)
	if at.Version > 0 {
		before, err := a.cfg.Store.Load(ctx, at.ChatID, eventstore.LoadOptions{UpToVersion: at.Version - 1})
		if err != nil {
			return
		}
		for _, e := range before {
			v.events(e.Event)
		}
		seen = at.Version - 1
	}
	heartbeat := time.NewTicker(a.cfg.Heartbeat)
	defer heartbeat.Stop()
	poll := time.NewTimer(0)
	defer poll.Stop()
	for {
		wake := a.cfg.Wake()
		evs, err := a.cfg.Store.Load(ctx, at.ChatID, eventstore.LoadOptions{AfterVersion: seen})
		if err != nil {
			return
		}
		var buf []byte
		for _, e := range evs {
			seen = e.StreamVersion
			data, names, ended := v.events(e.Event)
			for i := range data {
				if e.StreamVersion == at.Version && i <= at.Sub {
					continue // the client has it
				}
				buf = append(buf, sseEvent{ID: eventID(at.ChatID, e.StreamVersion, i), Name: names[i], Data: data[i]}.bytes()...)
			}
			if ended {
				send(buf)
				return
			}
		}
		if len(buf) > 0 && !send(buf) {
			return
		}
		poll.Reset(a.cfg.PollEvery)
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-poll.C:
		case <-heartbeat.C:
			if !send([]byte(": keep-alive\n\n")) {
				return
			}
		}
	}
}
