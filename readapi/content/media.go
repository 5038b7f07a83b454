package content

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// burnInRequest is POST /captions/{caption_id}/burn-in's body.
type burnInRequest struct {
	FontSize  *int   `json:"font_size"`
	FontColor string `json:"font_color"`
	Position  string `json:"position"`
}

// burnIn serves POST /captions/{caption_id}/burn-in (JSON, every member
// optional, an empty body too: font_size 12-200, font_color
// #RRGGBB/#RGB/a basic name, position bottom|middle|top) → 202 {task_id,
// caption_id, status}; the task's result.output_url is the captioned video
// when done.
func (a *API) burnIn(w http.ResponseWriter, r *http.Request, c caller) {
	var in burnInRequest
	body, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		writeErr(w, r, &kernel.Error{Kind: kernel.KindTooLarge, Field: "body", Rule: "max_bytes", Message: "the body is over the limit"})
		return
	case err != nil:
		writeErr(w, r, kernel.Invalid("body", "readable", "the body could not be read"))
		return
	}
	if len(bytes.TrimSpace(body)) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := decode(r, &in); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	st := content.BurnInStyle{FontColor: in.FontColor, Position: in.Position}
	if in.FontSize != nil {
		if *in.FontSize == 0 {
			writeErr(w, r, kernel.Invalid("font_size", "range:12-200", "font_size must be between 12 and 200 pixels"))
			return
		}
		st.FontSize = *in.FontSize
	}
	id, err := a.svc.BurnIn(r.Context(), c.actor, mux.Vars(r)["caption_id"], st)
	writeJSON(w, r, http.StatusAccepted, map[string]any{"task_id": id, "caption_id": mux.Vars(r)["caption_id"],
		"status": content.TaskQueued, "progress": 0}, err)
}

// avatarRequest is POST /multimodal/avatar/generate's body.
type avatarRequest struct {
	TwinID     *string `json:"twin_id"`
	Script     *string `json:"script"`
	VoiceID    string  `json:"voice_id"`
	AvatarID   string  `json:"avatar_id"`
	Provider   string  `json:"provider"`
	WebhookURL string  `json:"webhook_url"`
}

// generateAvatar serves POST /multimodal/avatar/generate → 202 {task_id,
// job_id, celery_task_id (the durable job's id), provider, status,
// progress, estimated_seconds, talking_head}.
func (a *API) generateAvatar(w http.ResponseWriter, r *http.Request, c caller) {
	var in avatarRequest
	if err := decode(r, &in); err != nil {
		writeErr(w, r, err)
		return
	}
	switch {
	case in.TwinID == nil:
		writeErr(w, r, required("twin_id"))
		return
	case strings.TrimSpace(*in.TwinID) == "":
		writeErr(w, r, kernel.Invalid("twin_id", "required", "twin_id must not be empty"))
		return
	case in.Script == nil:
		writeErr(w, r, required("script"))
		return
	}
	if in.WebhookURL != "" {
		if err := content.CheckMediaURL("webhook_url", in.WebhookURL); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	acc, err := a.svc.RequestAvatar(r.Context(), c.actor, cmd.AvatarInput{TwinID: *in.TwinID, Script: *in.Script, VoiceID: in.VoiceID,
		AvatarID: in.AvatarID, Provider: in.Provider, WebhookURL: in.WebhookURL})
	writeJSON(w, r, http.StatusAccepted, map[string]any{"task_id": acc.JobID, "job_id": acc.JobID,
		"celery_task_id": strconv.FormatInt(acc.RunID, 10), "provider": acc.Provider, "status": content.TaskQueued, "progress": 0,
		"estimated_seconds": acc.EstimatedSeconds, "talking_head": acc.Provider != content.ProviderSlideshow, "voice_id": acc.VoiceID}, err)
}

// getAvatar serves GET /multimodal/avatar/{job_id}: the task with its
// result {video_url, duration_seconds, credits_billed} when done.
func (a *API) getAvatar(w http.ResponseWriter, r *http.Request, c caller) {
	av, err := a.svc.Avatar(r.Context(), c.actor.Owner, mux.Vars(r)["job_id"])
	if err != nil {
		writeErr(w, r, err)
		return
	}
	view := a.svc.AvatarView(av)
	if m, ok := view.(map[string]any); ok {
		a.taskProgress(r, av.JobID, c.actor.Owner, m)
	}
	writeJSON(w, r, http.StatusOK, view, nil)
}

// taskProgress shows an avatar job as far along as its task, with its
// task's updated_at: the job's own events only mark a provider's stages,
// so a slideshow being rendered would otherwise read queued until it is
// done; a settled job keeps the progress its task reached.
func (a *API) taskProgress(r *http.Request, id, owner string, m map[string]any) {
	var status string
	var progress int
	var stage *string
	var updated time.Time
	err := a.db.QueryRowContext(r.Context(), `SELECT status, progress, stage, updated_at FROM rm_content_v1.tasks WHERE id = $1 AND owner = $2`,
		id, owner).Scan(&status, &progress, &stage, &updated)
	if err != nil {
		return
	}
	m["updated_at"] = ts(updated)
	switch {
	case status == content.TaskProcessing && m["status"] != content.TaskDone && m["status"] != content.TaskError:
		if p, _ := m["progress"].(int); progress > p {
			m["status"], m["progress"] = content.TaskProcessing, progress
			if stage != nil {
				m["stage"] = *stage
			}
		}
	case status == content.TaskError && m["status"] == content.TaskError:
		m["progress"] = progress
	}
}

// avatarOptions serves GET /multimodal/avatar/options: the providers
// (local-slideshow first; configured or not), the default, and the
// local voices.
func (a *API) avatarOptions(w http.ResponseWriter, r *http.Request, c caller) {
	voices := a.svc.Voices()
	if voices == nil {
		voices = []string{}
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"providers": a.svc.ProviderStatus(), "voices": voices,
		"credits_per_second": content.CreditsPerSecond}, nil)
}

// webhookSecret serves GET /multimodal/avatar/webhook-secret: the secret
// the caller verifies completion webhooks with.
func (a *API) webhookSecret(w http.ResponseWriter, r *http.Request, c caller) {
	writeJSON(w, r, http.StatusOK, map[string]any{"secret": a.svc.SigningSecret(c.actor.Owner), "header": "Strata-Signature",
		"scheme": "t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">"}, nil)
}

// providerWebhook serves POST /multimodal/avatar/{job_id}/provider-webhook/{provider},
// without credentials: the provider's signature is the credential (401
// when it does not verify). 200 {received: true}.
func (a *API) providerWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20+1))
	if err != nil || len(body) > 1<<20 {
		writeErr(w, r, &kernel.Error{Kind: kernel.KindTooLarge, Field: "body", Rule: "max_bytes", Message: "a webhook body is at most 1 MiB"})
		return
	}
	v := mux.Vars(r)
	err = a.svc.ProviderWebhook(r.Context(), v["job_id"], v["provider"], r.Header, body)
	writeJSON(w, r, http.StatusOK, map[string]any{"received": true}, err)
}

// submitReels serves POST /bulk/reels (multipart/form-data: csv_file with
// columns script, platform, voice_id; twin_id; platform) → 202 {task_id,
// batch_id, status, progress, total_rows}; 400 lists every bad cell by row
// and column, 403 over 100 rows; the same file again answers its batch.
func (a *API) submitReels(w http.ResponseWriter, r *http.Request, c caller) {
	form, err := readForm(r, "csv_file", 4<<20, "csv_file, twin_id and platform")
	if err != nil {
		writeErr(w, r, err)
		return
	}
	defer form.RemoveAll()
	files := form.File["csv_file"]
	if len(files) != 1 {
		writeErr(w, r, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "csv_file", Rule: "required", Message: "give one csv_file"})
		return
	}
	if files[0].Size > cmd.MaxReelsFile {
		writeErr(w, r, &kernel.Error{Kind: kernel.KindTooLarge, Field: "csv_file", Rule: "max_bytes:1048576", Message: "csv_file must be at most 1 MiB"})
		return
	}
	f, err := files[0].Open()
	if err != nil {
		writeErr(w, r, kernel.Invalid("csv_file", "readable", "csv_file could not be read"))
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, cmd.MaxReelsFile+1))
	if err != nil {
		writeErr(w, r, kernel.Invalid("csv_file", "readable", "csv_file could not be read"))
		return
	}
	b, _, err := a.svc.SubmitReels(r.Context(), c.actor, cmd.ReelsInput{TwinID: strings.TrimSpace(first(form.Value["twin_id"])),
		Platform: first(form.Value["platform"]), File: data, FileName: files[0].Filename})
	if err != nil {
		writeErr(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusAccepted, map[string]any{"task_id": b.TaskID, "batch_id": b.BatchID, "status": b.Status(),
		"progress": b.Progress(), "total_rows": len(b.Reels)}, nil)
}

// reelJSON is one row's job as GET /bulk/reels/{batch_id} shows it.
type reelJSON struct {
	Row             int      `json:"row"`
	Line            int      `json:"line"`
	Platform        string   `json:"platform"`
	VoiceID         string   `json:"voice_id"`
	Status          string   `json:"status"`
	Progress        int      `json:"progress"`
	ResultURL       *string  `json:"result_url"`
	DurationSeconds *float64 `json:"duration_seconds"`
	CreditsBilled   any      `json:"credits_billed"`
	Error           any      `json:"error"`
}

// getBatch serves GET /bulk/reels/{batch_id}: the batch's status and
// progress and each row's job with its result_url (a signed link good for
// an hour) once its reel is done.
func (a *API) getBatch(w http.ResponseWriter, r *http.Request, c caller) {
	b, err := a.svc.Batch(r.Context(), c.actor.Owner, mux.Vars(r)["batch_id"])
	if err != nil {
		writeErr(w, r, err)
		return
	}
	jobs := make([]reelJSON, 0, len(b.Reels))
	var billed int64
	for _, rl := range b.Reels {
		j := reelJSON{Row: rl.Row, Line: rl.Line, Platform: rl.Platform, VoiceID: rl.VoiceID, Status: rl.Status}
		switch {
		case rl.Video != nil:
			u, _ := a.svc.VideoLink(b.Owner, *rl.Video)
			secs := rl.Video.Seconds
			j.Progress, j.ResultURL, j.DurationSeconds, j.CreditsBilled = 100, &u, &secs, cmd.CreditsJSON(rl.Credits)
			billed += rl.Credits
		case rl.Failure != nil:
			j.Progress, j.Error = 100, map[string]string{"code": rl.Failure.Code, "message": rl.Failure.Message}
		case rl.Status == content.TaskProcessing:
			j.Progress = 10
		}
		jobs = append(jobs, j)
	}
	done, failed := b.Counts()
	writeJSON(w, r, http.StatusOK, map[string]any{"batch_id": b.BatchID, "task_id": b.TaskID, "status": b.Status(),
		"progress": b.Progress(), "total_rows": len(b.Reels), "completed": done, "failed": failed, "twin_id": b.TwinID,
		"platform": b.Platform, "file_sha256": b.FileSHA256, "created_at": ts(b.At), "credits_billed": cmd.CreditsJSON(billed), "jobs": jobs}, nil)
}
