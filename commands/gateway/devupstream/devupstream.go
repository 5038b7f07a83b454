// Package devupstream is Strata's development upstream: a model server
// that speaks both chat wire formats the gateway talks to upstreams, the
// messages format (POST /v1/messages) and the OpenAI chat-completions
// format (POST /v1/chat/completions), streaming and not, with no model
// behind it. Its answers are scripted by directives in the prompt (see
// Script), and it counts tokens by one documented rule in both formats
// (see CountTokens and InputTokens).
//
// It exists because there is no model on the development machines: `strata
// dev-upstream` serves it, tests start it in-process (Start), and the
// gateway reaches it as it would reach vLLM or a hosted vendor. It is a
// development upstream: a production upstream configuration never lists
// it.
//
// It decodes requests with the wire codecs' strict decoders (a real
// upstream refuses what it does not know, and so does this one) and
// writes replies, streams and errors with their encoders, so its bytes are
// the formats' own.
package devupstream

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
	"github.com/strata-platform/strata/domain/kernel"
)

// Format names a wire format.
type Format string

// The two formats.
const (
	FormatMessages Format = "messages"
	FormatOpenAI   Format = "openai"
)

// Paths the development upstream serves.
const (
	MessagesPath = "/v1/messages"
	OpenAIPath   = "/v1/chat/completions"
)

// Seen is one request the upstream took.
type Seen struct {
	Format  Format
	Request chat.Request
	Header  http.Header
}

// Handler is the development upstream, an http.Handler. The zero value
// accepts any key; Key, when set, is the only key it accepts (as
// "Authorization: Bearer KEY" or "x-api-key: KEY").
type Handler struct {
	Key string
	// Now is the clock of replies' created times (time.Now when nil).
	Now func() time.Time
	// Forget keeps no record of the requests taken (Requests returns
	// none): a long-running upstream (strata dev-upstream, a bench) sets
	// it, since the record grows with every request.
	Forget bool

	mu       sync.Mutex
	seen     []Seen
	embedded []openai.EmbeddingsRequest
	failures map[string]int
	canceled int
	aborted  int
}

// New returns a development upstream.
func New() *Handler { return &Handler{} }

// Requests returns the requests the upstream took, in order.
func (h *Handler) Requests() []Seen {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Seen(nil), h.seen...)
}

// Canceled is how many streams or replies ended because the caller went
// away (the request's context was canceled) before their end.
func (h *Handler) Canceled() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.canceled
}

// Cut is how many connections a cut directive closed.
func (h *Handler) Cut() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.aborted
}

type codec struct {
	format   Format
	decode   func([]byte) (chat.Request, error)
	reply    func(chat.Response) ([]byte, error)
	errBody  func(chat.Error) []byte
	stream   func(chat.Request) func(chat.Event) ([]byte, error)
	idPrefix string
}

var codecs = map[string]codec{
	MessagesPath: {format: FormatMessages, decode: messages.DecodeRequest, reply: messages.EncodeResponse,
		errBody: messages.EncodeError, idPrefix: "toolu_",
		stream: func(chat.Request) func(chat.Event) ([]byte, error) { return messages.NewStreamEncoder().Encode }},
	OpenAIPath: {format: FormatOpenAI, decode: openai.DecodeRequest, reply: openai.EncodeResponse,
		errBody: openai.EncodeError, idPrefix: "call_",
		stream: func(r chat.Request) func(chat.Event) ([]byte, error) {
			return openai.NewStreamEncoder(r.IncludeUsage).Encode
		}},
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(gateway.DevelopmentHeader, "true") // a production gateway refuses its answers
	if r.URL.Path == EmbeddingsPath {
		h.embeddings(w, r)
		return
	}
	c, ok := codecs[r.URL.Path]
	if !ok {
		http.Error(w, "the development upstream serves POST "+MessagesPath+", POST "+OpenAIPath+" and POST "+EmbeddingsPath, http.StatusNotFound)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.fail(w, c, http.StatusMethodNotAllowed, chat.Error{Kind: kernel.KindMethodNotAllowed, Message: "use POST"})
		return
	}
	if h.Key != "" && r.Header.Get("x-api-key") != h.Key && r.Header.Get("Authorization") != "Bearer "+h.Key {
		h.fail(w, c, http.StatusUnauthorized, chat.Error{Kind: kernel.KindUnauthenticated, Message: "invalid API key"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 32<<20))
	if err != nil {
		h.fail(w, c, http.StatusBadRequest, chat.Error{Kind: kernel.KindInvalid, Message: "unreadable body: " + err.Error()})
		return
	}
	req, err := c.decode(body)
	if err != nil {
		ce := chat.ErrorFrom(err)
		h.fail(w, c, statusOf(ce.Kind), ce)
		return
	}
	if !h.Forget {
		h.mu.Lock()
		h.seen = append(h.seen, Seen{Format: c.format, Request: req, Header: r.Header.Clone()})
		h.mu.Unlock()
	}

	script, err := ParseScript(joinTexts(lastUser(req)))
	if err != nil {
		h.fail(w, c, http.StatusBadRequest, chat.Error{Kind: kernel.KindInvalid, Message: err.Error(), Code: "directive"})
		return
	}
	if script.Fail != 0 && h.failNow(script) {
		if script.RetryAfter != "" {
			w.Header().Set("Retry-After", script.RetryAfter)
		}
		h.fail(w, c, script.Fail, chat.Error{Kind: kindOf(script.Fail),
			Message: "development upstream: scripted " + failStatusText(script.Fail)})
		return
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	a, err := compose(req, script, c.idPrefix, now().Unix())
	if err != nil {
		h.fail(w, c, http.StatusInternalServerError, chat.Error{Kind: kernel.KindInternal, Message: err.Error()})
		return
	}
	if req.Stream {
		h.stream(w, r.Context(), c, req, script, a)
		return
	}
	if script.Slow > 0 && !sleep(r.Context(), time.Duration(a.deltaCount())*script.Slow) {
		h.countCanceled()
		return
	}
	if script.Cut >= 0 {
		h.abort()
	}
	if script.ErrorAfter >= 0 {
		h.fail(w, c, http.StatusInternalServerError, chat.Error{Kind: kernel.KindInternal, Message: "development upstream: scripted error"})
		return
	}
	out, err := c.reply(a.resp)
	if err != nil {
		h.fail(w, c, http.StatusInternalServerError, chat.Error{Kind: kernel.KindInternal, Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// stream writes a's events one by one, flushing each, pacing deltas, and
// cutting or failing where the script says.
func (h *Handler) stream(w http.ResponseWriter, ctx context.Context, c codec, req chat.Request, s Script, a answer) {
	enc := c.stream(req)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	deltas := 0
	for _, ev := range a.events() {
		isDelta := false
		switch ev.(type) {
		case chat.TextDelta, chat.InputDelta:
			isDelta = true
			if s.Cut >= 0 && deltas == s.Cut {
				flush()
				h.abort()
			}
			if s.ErrorAfter >= 0 && deltas == s.ErrorAfter {
				ev = chat.Error{Kind: kernel.KindUnavailable, Message: "development upstream: scripted error mid-stream"}
			} else if deltas > 0 && s.Slow > 0 && !sleep(ctx, s.Slow) {
				h.countCanceled()
				return
			}
		case chat.Stop:
			if s.Cut >= 0 {
				flush()
				h.abort()
			}
		}
		if ctx.Err() != nil {
			h.countCanceled()
			return
		}
		b, err := enc(ev)
		if err != nil {
			b, _ = enc(chat.Error{Kind: kernel.KindInternal, Message: err.Error()})
			_, _ = w.Write(b)
			flush()
			return
		}
		if _, err := w.Write(b); err != nil {
			h.countCanceled()
			return
		}
		flush()
		if _, ok := ev.(chat.Error); ok {
			return
		}
		if isDelta {
			deltas++
		}
	}
}

func (h *Handler) abort() {
	h.mu.Lock()
	h.aborted++
	h.mu.Unlock()
	panic(http.ErrAbortHandler)
}

func (h *Handler) countCanceled() {
	h.mu.Lock()
	h.canceled++
	h.mu.Unlock()
}

// failNow says whether a fail directive fails this time (times=N fails
// the first N requests with the same directive and prompt).
func (h *Handler) failNow(s Script) bool {
	if s.Times == 0 {
		return true
	}
	key := s.FailKey + "\x00" + s.Text
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failures == nil {
		h.failures = map[string]int{}
	}
	h.failures[key]++
	return h.failures[key] <= s.Times
}

func (h *Handler) fail(w http.ResponseWriter, c codec, status int, e chat.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(c.errBody(e))
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func kindOf(status int) kernel.Kind {
	switch {
	case status == http.StatusTooManyRequests:
		return kernel.KindRateLimited
	case status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == 529:
		return kernel.KindUnavailable
	case status == http.StatusGatewayTimeout:
		return kernel.KindTimeout
	case status == http.StatusUnauthorized:
		return kernel.KindUnauthenticated
	case status == http.StatusForbidden:
		return kernel.KindForbidden
	case status == http.StatusNotFound:
		return kernel.KindNotFound
	case status == http.StatusPaymentRequired:
		return kernel.KindPaymentRequired
	case status < 500:
		return kernel.KindInvalid
	}
	return kernel.KindInternal
}

func statusOf(k kernel.Kind) int {
	switch k {
	case kernel.KindInvalid, kernel.KindUnprocessable:
		return http.StatusBadRequest
	case kernel.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case kernel.KindUnauthenticated:
		return http.StatusUnauthorized
	}
	return http.StatusInternalServerError
}

// TB is the part of testing.TB that Start uses.
type TB interface {
	Helper()
	Cleanup(func())
}

// Start serves a development upstream on a loopback port for the test's
// life and returns it with its base URL (no trailing slash).
func Start(tb TB) (*Handler, string) {
	tb.Helper()
	h := New()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return h, srv.URL
}

// Serve serves a development upstream on ln until ctx ends, then shuts it
// down.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// BaseURL is how an upstream configuration names a development upstream
// at addr (host:port).
func BaseURL(addr string) string { return "http://" + strings.TrimPrefix(addr, "http://") }
