package builder

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

type fileView struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

type versionView struct {
	VersionID    string     `json:"versionId"`
	Number       int        `json:"number"`
	GenerationID *string    `json:"generationId"`
	RestoredFrom *string    `json:"restoredFrom"`
	Generator    string     `json:"generator"`
	Provider     string     `json:"provider"`
	Model        string     `json:"model"`
	Files        []fileView `json:"files"`
	CreatedAt    time.Time  `json:"createdAt"`
	Current      bool       `json:"current"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func viewOf(ch *builder.Chat, v builder.Version) versionView {
	out := versionView{VersionID: v.VersionID, Number: v.Number, GenerationID: optional(v.GenerationID), RestoredFrom: optional(v.RestoredFrom),
		Generator: v.Generator, Provider: v.Provider, Model: v.Model, CreatedAt: v.At.UTC(), Current: v.VersionID == ch.Current,
		Files: make([]fileView, len(v.Files))}
	for i, f := range v.Files {
		out.Files[i] = fileView{f.Path, f.Size, f.SHA256}
	}
	return out
}

// chatParam reads and loads the chat a query or path names.
func (a *ChatAPI) chatParam(r *http.Request, field, id string) (*builder.Chat, error) {
	if strings.TrimSpace(id) == "" {
		return nil, kernel.Invalid(field, "required", field+" is required")
	}
	if err := cmd.CheckChatID(field, id); err != nil {
		return nil, err
	}
	return a.cfg.Chats.Load(r.Context(), id)
}

// versions serves GET /api/build/versions?chatId=: the chat's versions,
// oldest first, and which one is current.
func (a *ChatAPI) versions(w http.ResponseWriter, r *http.Request) {
	ch, err := a.chatParam(r, "chatId", r.URL.Query().Get("chatId"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := make([]versionView, len(ch.Versions))
	for i, v := range ch.Versions {
		out[i] = viewOf(ch, v)
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"chatId": ch.ID, "current": optional(ch.Current), "versions": out})
}

type restoreRequest struct {
	ChatID  string `json:"chatId"`
	Version string `json:"version"`
}

// restore serves POST /api/build/versions/restore {chatId, version (an id
// or a number)}: the version made current again, as a new version.
func (a *ChatAPI) restore(w http.ResponseWriter, r *http.Request) {
	var req restoreRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if strings.TrimSpace(req.Version) == "" {
		httpx.WriteError(w, r, kernel.Invalid("version", "required", "version is required: a version id or number"))
		return
	}
	if _, err := a.chatParam(r, "chatId", req.ChatID); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := a.cfg.Chats.Restore(r.Context(), a.founderID(r), req.ChatID, req.Version)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	ch, err := a.cfg.Chats.Load(r.Context(), req.ChatID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, map[string]any{"chatId": req.ChatID, "version": viewOf(ch, builder.Version{VersionCreated: v}),
		"previewUrl": a.previewURL(req.ChatID)})
}

// export serves GET /api/build/export/{chatId}?version=: a version (the
// current one by default) as a zip of its files under one folder, with
// the version's time on every entry (the same version gives the same
// bytes).
func (a *ChatAPI) export(w http.ResponseWriter, r *http.Request) {
	ch, err := a.chatParam(r, "chatId", mux.Vars(r)["chatId"])
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	want := r.URL.Query().Get("version")
	v, ok := ch.CurrentVersion()
	if want != "" {
		v, ok = ch.VersionByID(want)
		if !ok {
			httpx.WriteError(w, r, &kernel.Error{Kind: kernel.KindNotFound, Field: "version", Rule: "unknown", Message: fmt.Sprintf("chat %s has no version %q", ch.ID, want)})
			return
		}
	}
	if !ok {
		httpx.WriteError(w, r, kernel.NotFound("chat "+ch.ID+" has no version yet"))
		return
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	dir := fmt.Sprintf("%s-v%d/", ch.ID, v.Number)
	for _, f := range v.Files {
		b, err := a.read(r, ch.ID, f)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: dir + f.Path, Method: zip.Deflate, Modified: v.At.UTC()})
		if err == nil {
			_, err = fw.Write(b)
		}
		if err != nil {
			httpx.WriteError(w, r, fmt.Errorf("export %s: %w", f.Path, err))
			return
		}
	}
	if err := zw.Close(); err != nil {
		httpx.WriteError(w, r, fmt.Errorf("export: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-v%d.zip"`, ch.ID, v.Number))
	w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}
