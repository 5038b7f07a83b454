package content

import (
	"errors"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// MaxCaptionBody bounds POST /captions/generate (the upload and the form).
const MaxCaptionBody = cmd.MaxCaptionMedia + 1<<20

// BodyLimit gives the content routes' body limits: the caption upload's,
// the bulk-reel CSV's (with its form), 0 (the surface's) elsewhere and for
// any body that is not multipart/form-data (a JSON body on an upload route
// must not be read, and buffered, up to the upload's limit).
func BodyLimit(r *http.Request) int64 {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "multipart/form-data" {
		return 0
	}
	switch r.URL.Path {
	case Base + "/captions/generate":
		return MaxCaptionBody
	case Base + "/bulk/reels":
		return cmd.MaxReelsFile + 1<<20
	}
	return 0
}

// generateCaption serves POST /captions/generate (multipart/form-data:
// reel_url or audio_file, one required; language, default en; burn_in) →
// 202 {caption_id, task_id, status}.
func (a *API) generateCaption(w http.ResponseWriter, r *http.Request, c caller) {
	form, err := readForm(r, "audio_file", 32<<20, "reel_url or audio_file")
	if err != nil {
		writeErr(w, r, err)
		return
	}
	defer form.RemoveAll()
	in := cmd.CaptionInput{URL: strings.TrimSpace(first(form.Value["reel_url"])), Language: strings.TrimSpace(first(form.Value["language"]))}
	files := form.File["audio_file"]
	if (in.URL == "") == (len(files) == 0) || len(files) > 1 {
		writeErr(w, r, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "reel_url", Rule: "one_of:reel_url,audio_file",
			Message: "give exactly one of reel_url and audio_file"})
		return
	}
	if in.URL != "" {
		if err := content.CheckMediaURL("reel_url", in.URL); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	if !languageRE(in.Language) {
		writeErr(w, r, kernel.Invalid("language", "bcp47", "language must be a BCP 47 tag such as en or en-US"))
		return
	}
	switch strings.ToLower(strings.TrimSpace(first(form.Value["burn_in"]))) {
	case "", "false", "0":
	case "true", "1":
		in.BurnIn = true
	default:
		writeErr(w, r, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "burn_in", Rule: "boolean", Message: "burn_in must be true or false"})
		return
	}
	if len(files) == 1 {
		f, err := files[0].Open()
		if err != nil {
			writeErr(w, r, kernel.Invalid("audio_file", "readable", "audio_file could not be read"))
			return
		}
		defer f.Close()
		in.Upload, in.UploadName = f, files[0].Filename
	}
	ev, err := a.svc.RequestCaption(r.Context(), c.actor, in)
	out := map[string]any{"caption_id": ev.CaptionID, "task_id": ev.TaskID, "status": content.TaskQueued, "burn_in_task_id": nil}
	if ev.BurnTaskID != "" {
		out["burn_in_task_id"] = ev.BurnTaskID
	}
	writeJSON(w, r, http.StatusAccepted, out, err)
}

// languageRE accepts "" (en) and BCP 47-shaped tags.
func languageRE(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 35 {
		return false
	}
	for i, part := range strings.Split(s, "-") {
		if part == "" || len(part) > 8 || (i == 0 && (len(part) < 2 || len(part) > 3)) {
			return false
		}
		for _, r := range part {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// segmentJSON is one caption cue as GET /captions/{id} shows it.
type segmentJSON struct {
	Start      float64  `json:"start"`
	End        float64  `json:"end"`
	Text       string   `json:"text"`
	Lines      []string `json:"lines"`
	Confidence *float64 `json:"confidence"`
}

// getCaption serves GET /captions/{caption_id}: {id, status, srt, vtt,
// segments[] {start, end, text, confidence}, engine, language, task_id};
// srt, vtt and segments are empty until done.
func (a *API) getCaption(w http.ResponseWriter, r *http.Request, c caller) {
	cp, err := a.svc.Caption(r.Context(), c.actor.Owner, mux.Vars(r)["caption_id"])
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out := map[string]any{"id": cp.CaptionID, "task_id": cp.TaskID, "status": cp.Status, "language": cp.Language,
		"srt": "", "vtt": "", "segments": []segmentJSON{}, "engine": nil, "confidence": nil, "created_at": ts(cp.At),
		"text": nil, "error": nil, "burn_in_task_id": nil}
	if cp.BurnTaskID != "" {
		out["burn_in_task_id"] = cp.BurnTaskID
	}
	if t := cp.Transcribed; t != nil {
		segs := make([]segmentJSON, 0, len(t.Cues))
		for _, q := range t.Cues {
			segs = append(segs, segmentJSON{Start: q.Start, End: q.End, Text: strings.Join(q.Lines, " "), Lines: q.Lines, Confidence: q.Confidence})
		}
		cues := t.CueList()
		out["srt"], out["vtt"], out["segments"], out["engine"], out["confidence"], out["text"] = content.SRT(cues), content.VTT(cues), segs,
			t.Engine, t.Confidence, t.Text
	}
	if f := cp.Failure; f != nil {
		out["error"] = map[string]string{"code": f.Code, "message": f.Message}
	}
	writeJSON(w, r, http.StatusOK, out, nil)
}

// readForm reads a multipart/form-data body (415 otherwise), keeping up
// to mem bytes in memory: 413 naming fileField when the body is over the
// route's limit, 422 when it is not a readable form; every value is
// checked as text (UTF-8, no NUL). The caller removes the form's files.
func readForm(r *http.Request, fileField string, mem int64, wants string) (*multipart.Form, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, &kernel.Error{Kind: kernel.KindUnsupportedMediaType, Field: "Content-Type", Rule: "multipart/form-data",
			Message: "Content-Type must be multipart/form-data with " + wants}
	}
	if err := r.ParseMultipartForm(mem); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &kernel.Error{Kind: kernel.KindTooLarge, Field: fileField, Rule: "max_bytes", Message: "the upload is over the limit"}
		}
		return nil, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "body", Rule: "multipart", Message: "the body is not a readable multipart form"}
	}
	for name, vs := range r.MultipartForm.Value {
		for _, v := range vs {
			if err := httpx.CheckString(name, v); err != nil {
				_ = r.MultipartForm.RemoveAll()
				return nil, err
			}
		}
	}
	for name, fs := range r.MultipartForm.File {
		for _, f := range fs {
			if err := httpx.CheckString(name, f.Filename); err != nil {
				_ = r.MultipartForm.RemoveAll()
				return nil, err
			}
		}
	}
	return r.MultipartForm, nil
}
