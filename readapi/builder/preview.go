package builder

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// PreviewCSP is the Content-Security-Policy of every preview response. The
// sandbox (without allow-same-origin) gives the generated app an opaque
// origin: its scripts cannot read the builder's cookies or call the
// builder's routes with the founder's credentials; its own API calls are
// cross-origin requests without credentials (answered with CORS). Scripts,
// styles and connections come only from the preview itself.
const PreviewCSP = "sandbox allow-scripts allow-forms allow-modals; default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"

// PreviewBackend serves the API of a chat's running app (the paths under
// api/ and healthz of its preview, rest without the preview's prefix);
// nil: those answer 503.
type PreviewBackend interface {
	ServePreview(w http.ResponseWriter, r *http.Request, ch *builder.Chat, v builder.Version, rest string)
}

// previewCache keeps the bytes of preview files by digest (the blob store
// is read once per file), and chats folded for the preview until an event
// commits (see previewChat).
type previewCache struct {
	mu    sync.Mutex
	files map[string][]byte
	size  int64
	chats map[string]previewChat
}

const (
	previewCacheMax = 64 << 20
	previewChatsMax = 10000
)

// previewChat is a chat folded for the preview: valid until wake closes
// (an event committed, here or in another process) and for at most the
// stream's PollEvery since it was loaded (in case a notification from
// another process was lost).
type previewChat struct {
	ch        *builder.Chat
	wake      <-chan struct{}
	at        time.Time
	reloading bool // one request reloads an aged entry; the others serve it meanwhile
}

func (c *previewCache) get(digest string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.files[digest]
	return b, ok
}

func (c *previewCache) put(digest string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil || c.size+int64(len(b)) > previewCacheMax {
		c.files, c.size = map[string][]byte{}, 0
	}
	c.files[digest], c.size = b, c.size+int64(len(b))
}

// loadChat is Chats.Load for the preview, kept in memory between commits:
// without it every preview request (each file, each API call) read and
// decoded the chat's stream. The wake channel is taken before the load, so
// a commit the load could have missed invalidates what it keeps. An entry
// that only aged is reloaded by one request while the others serve it (it
// is still valid: nothing committed); one a commit invalidated is never
// served. A chat whose generation runs is not kept. Without a wake signal
// nothing is kept.
func (a *ChatAPI) loadChat(r *http.Request, chatID string) (*builder.Chat, error) {
	wake := a.cfg.Wake()
	if wake == nil {
		return a.cfg.Chats.Load(r.Context(), chatID)
	}
	a.cache.mu.Lock()
	if e, ok := a.cache.chats[chatID]; ok && !closed(e.wake) {
		if e.reloading || time.Since(e.at) < a.cfg.PollEvery {
			a.cache.mu.Unlock()
			return e.ch, nil
		}
		e.reloading = true
		a.cache.chats[chatID] = e
	}
	a.cache.mu.Unlock()
	at := time.Now()
	ch, err := a.cfg.Chats.Load(r.Context(), chatID)
	a.cache.mu.Lock()
	defer a.cache.mu.Unlock()
	if err != nil {
		delete(a.cache.chats, chatID)
		return nil, err
	}
	if _, running := ch.Running(); running { // a running generation's chat changes at once
		delete(a.cache.chats, chatID)
		return ch, nil
	}
	if a.cache.chats == nil || len(a.cache.chats) >= previewChatsMax {
		a.cache.chats = map[string]previewChat{}
	}
	a.cache.chats[chatID] = previewChat{ch: ch, wake: wake, at: at}
	return ch, nil
}

// closed reports whether ch is closed (without waiting).
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func previewHeaders(h http.Header) {
	h.Set("Content-Security-Policy", PreviewCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

var statusPage = template.Must(template.New("status").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">{{if .Refresh}}<meta http-equiv="refresh" content="{{.Refresh}}">{{end}}
<title>{{.Title}}</title></head>
<body><main><h1>{{.Title}}</h1><p>{{.Text}}</p></main></body></html>
`))

func (a *ChatAPI) page(w http.ResponseWriter, status int, title, text string, refresh int) {
	previewHeaders(w.Header())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if refresh > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(refresh))
	}
	w.WriteHeader(status)
	_ = statusPage.Execute(w, map[string]any{"Title": title, "Text": text, "Refresh": refresh})
}

// preview serves GET /api/preview/{chatId}[/{path}]: the current
// version's files (index.html for the directory), the app's API through
// the backend, a self-refreshing "still generating" page (202,
// Retry-After) while the first version is being made, an "unavailable"
// page with the reason when the generation failed, 404 for an unknown chat.
func (a *ChatAPI) preview(w http.ResponseWriter, r *http.Request) {
	chatID := mux.Vars(r)["chatId"]
	if err := cmd.CheckChatID("chatId", chatID); err != nil {
		httpx.WriteError(w, r, kernel.NotFound("no chat with this id"))
		return
	}
	rest := strings.TrimPrefix(mux.Vars(r)["rest"], "/")
	if r.URL.Path == "/api/preview/"+chatID { // relative links need the trailing slash
		http.Redirect(w, r, "/api/preview/"+chatID+"/", http.StatusMovedPermanently)
		return
	}
	ch, err := a.loadChat(r, chatID)
	if kernel.KindOf(err) == kernel.KindNotFound {
		a.page(w, http.StatusNotFound, "Unknown preview", "No chat has this id.", 0)
		return
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, ok := ch.CurrentVersion()
	if !ok {
		if g, running := ch.Running(); running {
			a.page(w, http.StatusAccepted, "Still generating", "The app is being generated ("+g.Generator+"). This page refreshes itself.", 2)
			return
		}
		reason := "The generation ended without an app."
		if g, ok := ch.Latest(); ok && g.Reason != "" {
			reason = "The generation failed: " + g.Reason
		}
		a.page(w, http.StatusServiceUnavailable, "Preview unavailable", reason, 0)
		return
	}
	if rest == "healthz" || rest == "api" || strings.HasPrefix(rest, "api/") {
		if a.cfg.Preview == nil {
			a.page(w, http.StatusServiceUnavailable, "Preview server not running", "This preview serves the app's files; its server does not run here.", 0)
			return
		}
		// The app's own answers get the preview's sandbox too: an app that
		// answered HTML under api/ must not run in the builder's origin.
		previewHeaders(w.Header())
		a.cfg.Preview.ServePreview(w, r, ch, v, rest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpx.WriteError(w, r, kernel.E(kernel.KindMethodNotAllowed, "the preview's files are read with GET"))
		return
	}
	if rest == "" {
		rest = "index.html"
	}
	f, ok := fileOf(v, "public/"+rest)
	if !ok {
		a.page(w, http.StatusNotFound, "Not found", "This app has no file "+rest+".", 0)
		return
	}
	b, err := a.read(r, chatID, f)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	previewHeaders(w.Header())
	ctype := mime.TypeByExtension(path.Ext(f.Path))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+f.SHA256+`"`)
	http.ServeContent(w, r, "", v.At, bytes.NewReader(b))
}

func fileOf(v builder.Version, p string) (builder.FileRef, bool) {
	for _, f := range v.Files {
		if f.Path == p {
			return f, true
		}
	}
	return builder.FileRef{}, false
}

func (a *ChatAPI) read(r *http.Request, chatID string, f builder.FileRef) ([]byte, error) {
	if b, ok := a.cache.get(f.SHA256); ok {
		return b, nil
	}
	blob, err := a.cfg.Chats.File(r.Context(), chatID, f)
	if err != nil {
		return nil, err
	}
	defer blob.Close()
	b, err := io.ReadAll(blob)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	a.cache.put(f.SHA256, b)
	return b, nil
}
