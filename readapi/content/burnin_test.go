package content_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/transcribe"
)

const burnScript = "The weather today is sunny and warm."

// waitCaption waits for a caption to be transcribed (or to fail).
func (w *world) waitCaption(t *testing.T, u *user, id string) reply {
	t.Helper()
	return w.poll(t, u, base+"/captions/"+id, time.Minute, func(r reply) bool { return r.Body["status"] != "queued" })
}

func TestCaptionBurnIn(t *testing.T) {
	tr := engine(t)
	tools := mediaTools(t)
	w := startWith(t, options{Transcribers: []transcribe.Transcriber{tr}, Tools: tools})
	ada := w.user(t, "ada@content.test")
	src := speechVideo(t, burnScript)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	srcInfo := probe(t, tools, src)

	r := w.multipart(t, ada, base+"/captions/generate", map[string]string{"burn_in": "true"},
		map[string][]byte{"audio_file:speech.mp4": data})
	if r.Status != http.StatusAccepted || str(r.Body, "burn_in_task_id") == "" || str(r.Body, "caption_id") == "" {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	id, burnTask := str(r.Body, "caption_id"), str(r.Body, "burn_in_task_id")
	c := w.waitCaption(t, ada, id)
	segs, _ := c.Body["segments"].([]any)
	if c.Body["status"] != "done" || len(segs) == 0 {
		t.Fatalf("caption: %s", c.Raw)
	}
	cue := segs[0].(map[string]any)
	during := time.Duration((cue["start"].(float64) + cue["end"].(float64)) / 2 * float64(time.Second))

	task := w.waitTask(t, ada, burnTask)
	res := obj(task.Body, "result")
	if task.Body["status"] != "done" || task.Body["kind"] != "caption_burn_in" || str(res, "output_url") == "" {
		t.Fatalf("burn-in task: %s", task.Raw)
	}
	out := w.fetch(t, str(res, "output_url"))
	info := probe(t, tools, out)
	if info.VideoCodec != "h264" || info.Width != srcInfo.Width || info.Height != srcInfo.Height {
		t.Fatalf("captioned video: %+v; source %+v", info, srcInfo)
	}
	if d := (info.Duration - srcInfo.Duration).Seconds(); d < -0.2 || d > 0.2 {
		t.Fatalf("captioned video lasts %v; the source %v", info.Duration, srcInfo.Duration)
	}
	before, after := frameAt(t, tools, src, during), frameAt(t, tools, out, during)
	if n := diffPixels(before, after, 2.0/3, 1); n < 300 {
		t.Errorf("at %v (cue %v): %d pixels of the bottom third differ from the source; want a caption", during, cue, n)
	}
	if n := diffPixels(before, after, 0, 1.0/3); n > 50 {
		t.Errorf("at %v: %d pixels of the top third differ from the source; want none", during, n)
	}

	// Again in yellow at the top.
	r = w.must(t, http.StatusAccepted, ada, "POST", base+"/captions/"+id+"/burn-in",
		map[string]any{"font_color": "yellow", "position": "top", "font_size": 24})
	if str(r.Body, "task_id") == "" || r.Body["caption_id"] != id {
		t.Fatalf("burn-in: %s", r.Raw)
	}
	task = w.waitTask(t, ada, str(r.Body, "task_id"))
	res = obj(task.Body, "result")
	if task.Body["status"] != "done" || str(res, "output_url") == "" {
		t.Fatalf("yellow burn-in task: %s", task.Raw)
	}
	style := obj(res, "style")
	if style["font_color"] != "#FFFF00" || style["position"] != "top" || style["font_size"] != float64(24) {
		t.Errorf("style in the result: %v", style)
	}
	yellowOut := w.fetch(t, str(res, "output_url"))
	img := frameAt(t, tools, yellowOut, during)
	yellow := func(_, _, r, g, b int) bool { return r > 200 && g > 200 && b < 100 }
	if n := countPixels(img, 0, 1.0/3, yellow); n < 200 {
		t.Errorf("yellow at the top: %d yellow pixels in the top third; want the caption", n)
	}
	if n := diffPixels(before, img, 0.5, 1); n > 50 {
		t.Errorf("yellow at the top: %d pixels of the bottom half differ from the source; want none", n)
	}

	// Refusals.
	for _, tc := range []struct {
		body   any
		status int
		field  string
	}{
		{map[string]any{"font_size": 5}, http.StatusBadRequest, "font_size"},
		{map[string]any{"font_size": 500}, http.StatusBadRequest, "font_size"},
		{map[string]any{"font_size": "big"}, http.StatusUnprocessableEntity, "font_size"},
		{map[string]any{"font_color": "plaid"}, http.StatusBadRequest, "font_color"},
		{map[string]any{"position": "left"}, http.StatusBadRequest, "position"},
		{map[string]any{"colour": "red"}, http.StatusUnprocessableEntity, "colour"},
	} {
		if r := w.do(t, ada, "POST", base+"/captions/"+id+"/burn-in", tc.body); r.Status != tc.status || !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("burn-in %v: %d %s; want %d naming %s", tc.body, r.Status, r.Raw, tc.status, tc.field)
		}
	}
	w.must(t, http.StatusNotFound, ada, "POST", base+"/captions/6f1c2a43-5d0e-4b51-9f3e-0f8e2a1b7c90/burn-in", map[string]any{})
	w.must(t, http.StatusNotFound, ada, "POST", base+"/captions/nope/burn-in", nil)
	bob := w.user(t, "bob@content.test")
	w.must(t, http.StatusNotFound, bob, "POST", base+"/captions/"+id+"/burn-in", nil)
	w.must(t, http.StatusNotFound, bob, "GET", base+"/tasks/"+burnTask, nil)
}

// TestCaptionBurnInSources burns captions into a video the caption was
// made from by URL (fetched through the outbound client, not uploaded),
// and fails the burn-in of an audio-only upload with no_video; both at
// once.
func TestCaptionBurnInSources(t *testing.T) {
	tr := engine(t)
	tools := mediaTools(t)
	w := startWith(t, options{Transcribers: []transcribe.Transcriber{tr}, Tools: tools})
	ada := w.user(t, "ada@content.test")
	src := speechVideo(t, "Good morning everyone.")
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { http.ServeFile(rw, r, src) }))
	t.Cleanup(srv.Close)
	byURL := w.multipart(t, ada, base+"/captions/generate", map[string]string{"burn_in": "true", "reel_url": srv.URL + "/reel.mp4"}, nil)
	audio := w.multipart(t, ada, base+"/captions/generate", map[string]string{"burn_in": "true"},
		map[string][]byte{"audio_file:speech.wav": spoken(t, "Good morning everyone.")})
	for _, r := range []reply{byURL, audio} {
		if r.Status != http.StatusAccepted || str(r.Body, "burn_in_task_id") == "" {
			t.Fatalf("generate: %d %s", r.Status, r.Raw)
		}
	}

	task := w.waitTask(t, ada, str(byURL.Body, "burn_in_task_id"))
	res := obj(task.Body, "result")
	if task.Body["status"] != "done" || str(res, "output_url") == "" {
		t.Fatalf("burn-in from a URL: %s", task.Raw)
	}
	info, want := probe(t, tools, w.fetch(t, str(res, "output_url"))), probe(t, tools, src)
	if d := (info.Duration - want.Duration).Seconds(); info.VideoCodec != "h264" || d < -0.2 || d > 0.2 {
		t.Fatalf("captioned: %+v; source %+v", info, want)
	}

	if c := w.waitCaption(t, ada, str(audio.Body, "caption_id")); c.Body["status"] != "done" {
		t.Fatalf("caption of the audio: %s", c.Raw)
	}
	task = w.waitTask(t, ada, str(audio.Body, "burn_in_task_id"))
	var e map[string]any
	if task.Body["status"] == "error" {
		e = obj(task.Body, "error")
	}
	if str(e, "code") != "no_video" || task.Body["result"] != nil {
		t.Fatalf("burn-in of audio: %s; want error no_video", task.Raw)
	}
}
