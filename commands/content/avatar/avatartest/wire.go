package avatartest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/strata-platform/strata/commands/content/avatar"
)

// readStrict reads a JSON body into v, refusing unknown fields.
func readStrict(r *http.Request, v any) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, err
	}
	return body, nil
}

// checkURL refuses a webhook URL that is set but not absolute http(s).
func checkURL(u string) error {
	if u == "" {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return errors.New("webhook URL is not an absolute http(s) URL")
	}
	return nil
}

func (s *Server) heygenCreate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		VideoInputs []struct {
			Character struct {
				Type        string `json:"type"`
				AvatarID    string `json:"avatar_id"`
				AvatarStyle string `json:"avatar_style"`
			} `json:"character"`
			Voice struct {
				Type      string `json:"type"`
				InputText string `json:"input_text"`
				VoiceID   string `json:"voice_id"`
			} `json:"voice"`
		} `json:"video_inputs"`
		Dimension *struct {
			Width  int `json:"width"`
			Height int `json:"height"`
		} `json:"dimension"`
		CallbackID  string `json:"callback_id"`
		CallbackURL string `json:"callback_url"`
	}
	body, err := readStrict(r, &in)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	var msg string
	switch {
	case len(in.VideoInputs) != 1:
		msg = "video_inputs must hold one input"
	case in.VideoInputs[0].Character.Type != "avatar" || in.VideoInputs[0].Character.AvatarID == "":
		msg = "character must be an avatar with an avatar_id"
	case in.VideoInputs[0].Voice.Type != "text" || in.VideoInputs[0].Voice.InputText == "" || in.VideoInputs[0].Voice.VoiceID == "":
		msg = "voice must be text with input_text and voice_id"
	case in.Dimension != nil && (in.Dimension.Width <= 0 || in.Dimension.Height <= 0):
		msg = "dimension must be positive"
	case checkURL(in.CallbackURL) != nil:
		msg = "callback_url is not a URL"
	}
	if msg != "" {
		s.fail(w, http.StatusBadRequest, msg)
		return
	}
	vi := in.VideoInputs[0]
	req := avatar.Request{JobID: in.CallbackID, Script: vi.Voice.InputText, VoiceID: vi.Voice.VoiceID,
		AvatarID: vi.Character.AvatarID, WebhookURL: in.CallbackURL}
	if in.Dimension != nil {
		req.Width, req.Height = in.Dimension.Width, in.Dimension.Height
	}
	id, ok := s.create(w, "", req, body)
	if ok {
		writeJSON(w, http.StatusOK, map[string]any{"error": nil, "data": map[string]string{"video_id": id}})
	}
}

func (s *Server) heygenStatus(w http.ResponseWriter, r *http.Request) {
	j, hold, ok := s.lookup(r.URL.Query().Get("video_id"))
	if !ok {
		s.fail(w, http.StatusNotFound, "video not found")
		return
	}
	d := map[string]any{"id": j.ID, "callback_id": j.Request.JobID, "status": "processing",
		"video_url": nil, "duration": nil, "error": nil}
	switch {
	case hold:
	case j.state == avatar.StateDone:
		d["status"], d["video_url"], d["duration"] = "completed", j.videoURL, j.dur.Seconds()
	case j.state == avatar.StateFailed:
		d["status"], d["error"] = "failed", map[string]any{"code": 40119, "message": j.reason, "detail": j.reason}
	}
	writeJSON(w, http.StatusOK, map[string]any{"code": 100, "message": "Success", "data": d})
}

// heygenEvent is a finished or failed job's webhook event.
func heygenEvent(j *job) map[string]any {
	if j.state == avatar.StateDone {
		return map[string]any{"event_type": "avatar_video.success", "event_data": map[string]any{
			"video_id": j.ID, "url": j.videoURL, "callback_id": j.Request.JobID}}
	}
	return map[string]any{"event_type": "avatar_video.fail", "event_data": map[string]any{
		"video_id": j.ID, "msg": j.reason, "callback_id": j.Request.JobID}}
}

func (s *Server) didCreate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SourceURL string `json:"source_url"`
		Script    struct {
			Type     string `json:"type"`
			Input    string `json:"input"`
			Provider struct {
				Type    string `json:"type"`
				VoiceID string `json:"voice_id"`
			} `json:"provider"`
		} `json:"script"`
		Webhook  string `json:"webhook"`
		UserData string `json:"user_data"`
	}
	body, err := readStrict(r, &in)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	var msg string
	switch {
	case in.SourceURL == "":
		msg = "source_url is required"
	case in.Script.Type != "text" || in.Script.Input == "":
		msg = "script must be text with an input"
	case in.Script.Provider.Type != "microsoft" || in.Script.Provider.VoiceID == "":
		msg = "script.provider must be microsoft with a voice_id"
	case checkURL(in.Webhook) != nil:
		msg = "webhook is not a URL"
	}
	if msg != "" {
		s.fail(w, http.StatusBadRequest, msg)
		return
	}
	req := avatar.Request{JobID: in.UserData, Script: in.Script.Input, VoiceID: in.Script.Provider.VoiceID,
		AvatarID: in.SourceURL, WebhookURL: in.Webhook}
	id, ok := s.create(w, "tlk_", req, body)
	if ok {
		writeJSON(w, http.StatusCreated, map[string]any{"id": id, "object": "talk",
			"created_at": time.Now().UTC().Format(time.RFC3339), "status": "created"})
	}
}

func (s *Server) didStatus(w http.ResponseWriter, r *http.Request) {
	j, hold, ok := s.lookup(r.PathValue("id"))
	if !ok {
		s.fail(w, http.StatusNotFound, "talk not found")
		return
	}
	writeJSON(w, http.StatusOK, didTalk(&j, hold))
}

// didTalk is a job as D-ID's talk object (started when held).
func didTalk(j *job, hold bool) map[string]any {
	t := map[string]any{"id": j.ID, "object": "talk", "user_data": j.Request.JobID,
		"source_url": j.Request.AvatarID, "status": "started"}
	switch {
	case hold:
	case j.state == avatar.StateDone:
		t["status"], t["result_url"], t["duration"] = "done", j.videoURL, j.dur.Seconds()
	case j.state == avatar.StateFailed:
		t["status"], t["error"] = "error", map[string]any{"kind": "TalkError", "description": j.reason}
	}
	return t
}
