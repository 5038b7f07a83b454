package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	"github.com/strata-platform/strata/readapi/httpx"
)

// ScopeChat is the scope an OAuth access token needs to call the chat
// routes (agents acting for the user call models).
const ScopeChat = "agent:write"

// MaxChatBody is the largest chat request body (images travel inline).
const MaxChatBody = 32 << 20

// ProviderHeader names, on every answer of a resolved request, the
// catalog's provider of the model that served it (the body names the
// model).
const ProviderHeader = "Strata-Provider"

// WriteWindow is how long one write of an answer may take. The server's
// WriteTimeout (readapi.NewServer: 60 s from the end of the request's
// headers) would cut a long stream, or a reply whose model took longer:
// each write extends the connection's deadline by this much instead.
const WriteWindow = 60 * time.Second

// extendWrite moves w's write deadline WriteWindow ahead.
func extendWrite(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(WriteWindow))
}

// ChatCredits is the hook where the credits ledger joins the chat routes
// (commands/gateway's credits, being built separately). Admit runs after
// the model is resolved and before any upstream call: an error refuses the
// request (402 when a paid request has no credits left). The returned
// record function is called exactly once per admitted request with the
// usage that was delivered, also for a stream cut off midway or a client
// that went away. nil: no credits are checked or recorded.
type ChatCredits interface {
	Admit(ctx context.Context, p auth.Principal, m catalog.Model, requestID string) (record func(ChatUsage), err error)
}

// ChatUsage is what one request used, for the ledger.
type ChatUsage struct {
	RequestID string
	Model     string // the catalog model served
	Upstream  string
	Usage     chat.Usage
	// Estimated: the stream broke before the upstream said its usage; the
	// output is then the number of deltas delivered.
	Estimated bool
	// CutByUpstream: the upstream ended the stream (an error event, a
	// broken stream) before its usage, whatever the client did after.
	CutByUpstream bool
	Status        int
	Latency       time.Duration
	Stream        bool
}

// ChatConfig is what the chat routes need.
type ChatConfig struct {
	Catalog   *CatalogAPI
	Auth      auth.Authenticator
	Upstreams *cmdgateway.Upstreams
	Credits   ChatCredits // nil: none
	Logger    *slog.Logger
	// Now is the clock of an answer's created time when the upstream gave
	// none (the messages format has none); time.Now when nil.
	Now func() time.Time
	// NewToolID names the tool calls the gateway makes of stray
	// <tool_call> XML; random toolu_ ids when nil.
	NewToolID func() string
}

// ChatAPI serves POST /v1/messages, /v1/chat/completions and
// /api/v1/chat/completions.
type ChatAPI struct {
	cfg ChatConfig
}

// NewChat returns the chat routes' handler.
func NewChat(cfg ChatConfig) *ChatAPI {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewToolID == nil {
		cfg.NewToolID = newToolID
	}
	return &ChatAPI{cfg: cfg}
}

// clientFormat is the client side of a wire format.
type clientFormat struct {
	name     string
	messages bool
	decode   func([]byte) (chat.Request, error)
	reply    func(chat.Response) ([]byte, error)
	errBody  func(chat.Error) []byte
	stream   func(chat.Request) func(chat.Event) ([]byte, error)
}

var (
	messagesFormat = clientFormat{name: "messages", messages: true, decode: messages.DecodeRequest,
		reply: messages.EncodeResponse, errBody: messages.EncodeError,
		stream: func(chat.Request) func(chat.Event) ([]byte, error) { return messages.NewStreamEncoder().Encode }}
	openaiFormat = clientFormat{name: "openai", decode: openai.DecodeRequest, reply: openai.EncodeResponse,
		errBody: openai.EncodeError,
		stream: func(r chat.Request) func(chat.Event) ([]byte, error) {
			return openai.NewStreamEncoder(r.IncludeUsage).Encode
		}}
)

// Messages serves POST /v1/messages.
func (a *ChatAPI) Messages() http.Handler { return a.handler(messagesFormat) }

// Completions serves POST /v1/chat/completions and /api/v1/chat/completions.
func (a *ChatAPI) Completions() http.Handler { return a.handler(openaiFormat) }

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

// open checks what every gateway call checks before its body is decoded,
// in order: a vendor's key (401), the anthropic-version header of the
// messages format, the caller (401) and the scope of an OAuth token (403),
// the body (at most MaxChatBody). A refusal is answered in the client's
// format and ok is false.
func (a *ChatAPI) open(w http.ResponseWriter, r *http.Request, f clientFormat) (p auth.Principal, body []byte, ok bool) {
	for _, cred := range []string{r.Header.Get("X-API-Key"), bearerOf(r)} {
		if strings.HasPrefix(strings.TrimSpace(cred), "sk-") {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			a.fail(w, f, &kernel.Error{Kind: kernel.KindUnauthenticated, Field: "x-api-key", Rule: "sk_key",
				Message: "this is a model vendor's API key (sk-ant-...); the gateway takes your Strata API key: send X-API-Key: sk_live_... (create one with POST /api/v1/api-keys)"})
			return p, nil, false
		}
	}
	if f.messages && strings.TrimSpace(r.Header.Get("anthropic-version")) == "" {
		a.fail(w, f, &kernel.Error{Kind: kernel.KindInvalid, Field: "anthropic-version", Rule: "required",
			Message: "the anthropic-version header is required (a date such as 2023-06-01)"})
		return p, nil, false
	}
	p, err := a.cfg.Auth.Authenticate(r)
	if err != nil {
		if kernel.KindOf(err) == kernel.KindUnauthenticated {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
		}
		a.fail(w, f, err)
		return p, nil, false
	}
	if !p.HasScope(ScopeChat) {
		a.fail(w, f, &kernel.Error{Kind: kernel.KindForbidden, Rule: "insufficient_scope",
			Message: "this access token's scopes do not allow calling models; it needs scope " + ScopeChat})
		return p, nil, false
	}
	body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, MaxChatBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			a.fail(w, f, &kernel.Error{Kind: kernel.KindTooLarge, Message: "the request body is larger than 32 MiB"})
			return p, nil, false
		}
		a.fail(w, f, &kernel.Error{Kind: kernel.KindInvalid, Message: "the request body could not be read"})
		return p, nil, false
	}
	return p, body, true
}

func (a *ChatAPI) handler(f clientFormat) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := newRequestID()
		w.Header().Set("x-request-id", id)
		w.Header().Set("request-id", id)
		p, body, ok := a.open(w, r, f)
		if !ok {
			return
		}
		req, err := f.decode(body)
		if err == nil {
			err = chat.Validate(req)
		}
		if err != nil {
			a.fail(w, f, err)
			return
		}
		res, err := a.cfg.Catalog.Resolve(p, req.Model, features(req))
		if err != nil {
			a.fail(w, f, err)
			return
		}
		req.MaxTokens = &res.MaxTokens
		record := func(ChatUsage) {}
		if a.cfg.Credits != nil {
			if record, err = a.cfg.Credits.Admit(r.Context(), p, res.Model, id); err != nil {
				a.fail(w, f, err)
				return
			}
		}
		target := cmdgateway.Target{Model: res.Model.ID, UpstreamID: res.Model.Upstream.ID, UpstreamModel: res.Model.Upstream.Model}
		w.Header().Set(ProviderHeader, res.Model.Provider) // the catalog's provider of the model that serves the request
		u := ChatUsage{RequestID: id, Model: res.Model.ID, Stream: req.Stream}
		// finish records the usage once: before the reply's last bytes
		// are written when the request completes (so a crash after the
		// client has its answer cannot lose the debit), else when the
		// handler returns (failures, disconnects, cut streams).
		recorded := false
		finish := func() {
			if !recorded {
				recorded = true
				u.Latency = time.Since(start)
				record(u)
			}
		}
		if req.Stream {
			a.stream(w, r, f, req, target, &u, finish)
		} else {
			a.complete(w, r, f, req, target, &u, finish)
		}
		finish()
	})
}

// features is what the catalog resolves a request's model by.
func features(r chat.Request) catalog.Features {
	f := catalog.Features{Kind: catalog.KindChat, Tools: len(r.Tools)}
	if r.MaxTokens != nil {
		f.MaxTokens = *r.MaxTokens
	}
	var text []string
	for _, p := range r.System {
		text = append(text, p.Text)
	}
	var images func(parts []chat.Part)
	images = func(parts []chat.Part) {
		for _, p := range parts {
			switch p.Type {
			case chat.PartImage:
				f.Images = true
			case chat.PartText:
				text = append(text, p.Text)
			case chat.PartToolResult:
				images(p.Content)
			}
		}
	}
	for _, m := range r.Messages {
		if m.Role == chat.RoleUser {
			images(m.Content)
		} else {
			for _, p := range m.Content {
				if p.Type == chat.PartImage {
					f.Images = true
				}
			}
		}
	}
	f.Text = strings.Join(text, "\n")
	return f
}

func newToolID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "toolu_" + hex.EncodeToString(b[:])
}

func (a *ChatAPI) complete(w http.ResponseWriter, r *http.Request, f clientFormat, req chat.Request, t cmdgateway.Target, u *ChatUsage,
	finish func()) {
	resp, served, err := a.cfg.Upstreams.Complete(r.Context(), t, req)
	u.Upstream = served.Upstream
	if err != nil {
		u.Status = a.fail(w, f, err)
		return
	}
	u.Usage = resp.Usage
	resp.Model = t.Model
	if resp.Created == 0 {
		resp.Created = a.cfg.Now().Unix()
	}
	if resp, err = chat.StripToolCalls(resp, req.Tools, a.cfg.NewToolID); err == nil {
		var out []byte
		if out, err = f.reply(resp); err == nil {
			u.Status = http.StatusOK
			finish() // durable before the client can read its answer
			extendWrite(w)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(out)
			return
		}
	}
	u.Status = a.fail(w, f, err)
}

// stream relays the upstream's stream event by event: each through the
// <tool_call> filter and the client format's encoder, written and flushed
// at once. A client that goes away cancels the request's context, and
// with it the upstream call.
func (a *ChatAPI) stream(w http.ResponseWriter, r *http.Request, f clientFormat, req chat.Request, t cmdgateway.Target, u *ChatUsage,
	finish func()) {
	s, served, err := a.cfg.Upstreams.Stream(r.Context(), t, req)
	u.Upstream = served.Upstream
	if err != nil {
		u.Status = a.fail(w, f, err)
		return
	}
	defer s.Close()
	u.Status = http.StatusOK
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(WriteWindow))
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	enc := f.stream(req)
	filter := chat.NewToolCallFilter(req.Tools, a.cfg.NewToolID)
	deltas, stopped := 0, false
	write := func(evs []chat.Event) bool {
		var buf []byte
		for _, ev := range evs {
			b, err := enc(ev)
			if err != nil {
				a.cfg.Logger.Error("gateway: encode a stream event", "request_id", u.RequestID, "error", err)
				b, _ = enc(chat.Error{Kind: kernel.KindInternal, Message: chat.InternalMessage})
				buf = append(buf, b...)
				break
			}
			buf = append(buf, b...)
		}
		if len(buf) == 0 {
			return true
		}
		_ = rc.SetWriteDeadline(time.Now().Add(WriteWindow))
		if _, err := w.Write(buf); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	for {
		ev, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if r.Context().Err() != nil {
				break // the client went away
			}
			a.cfg.Logger.Warn("gateway: an upstream stream broke off", "request_id", u.RequestID, "upstream", served.Upstream, "error", err)
			u.CutByUpstream = true
			write([]chat.Event{chat.Error{Kind: kernel.KindUnavailable, Message: "the upstream's stream broke off"}})
			break
		}
		switch e := ev.(type) {
		case chat.Start:
			e.Model = t.Model
			if e.Created == 0 {
				e.Created = a.cfg.Now().Unix()
			}
			ev = e
			u.Usage.InputTokens = e.InputTokens
		case chat.TextDelta, chat.InputDelta:
			deltas++
		case chat.Stop:
			u.Usage, stopped = e.Usage, true
		}
		if _, upstreamErr := ev.(chat.Error); upstreamErr {
			u.CutByUpstream = true // decided before the client can leave on reading it
		}
		out, err := filter.Push(ev)
		if err != nil {
			out = []chat.Event{chat.Error{Kind: kernel.KindInternal, Message: chat.InternalMessage}}
			a.cfg.Logger.Error("gateway: an upstream stream broke the stream rules", "request_id", u.RequestID, "error", err)
		}
		if stopped && err == nil {
			finish() // the final usage is known: durable before the stream's last events
		}
		if !write(out) {
			break
		}
		if _, isErr := ev.(chat.Error); isErr || err != nil {
			break
		}
	}
	if !stopped {
		u.Usage.OutputTokens, u.Estimated = deltas, true
		if u.Usage.InputTokens == 0 {
			// An OpenAI-format upstream tells the input only in its last
			// chunk: estimate it by the gateway's token rule.
			u.Usage.InputTokens = chat.InputTokens(req)
		}
	}
}

// fail answers err in the client's format and returns the status.
func (a *ChatAPI) fail(w http.ResponseWriter, f clientFormat, err error) int {
	ce := chat.ErrorFrom(err)
	status := httpx.Status(ce.Kind)
	var ue *cmdgateway.UpstreamError
	if errors.As(err, &ue) {
		status = ue.Status
		if ue.RetryAfter != "" {
			w.Header().Set("Retry-After", ue.RetryAfter)
		}
	}
	var ra *httpx.RetryAfter
	if errors.As(err, &ra) && ra.After > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(max(int64((ra.After+time.Second-1)/time.Second), 1), 10))
	}
	if ce.Kind == kernel.KindInternal && ue == nil {
		a.cfg.Logger.Error("gateway: chat request failed", "error", err)
	}
	extendWrite(w)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(f.errBody(ce))
	return status
}
