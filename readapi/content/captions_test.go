package content_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/asticode/go-astisub"

	"github.com/strata-platform/strata/commands/transcribe"
)

// engine is the offline engine, or a skip naming the Debian package missing.
func engine(t *testing.T) transcribe.Transcriber {
	t.Helper()
	for tool, pkg := range map[string]string{"ffmpeg": "ffmpeg", transcribe.DefaultPocketsphinxBinary: "pocketsphinx", "flite": "flite"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: install the Debian package %s", tool, pkg)
		}
	}
	if _, err := os.Stat(filepath.Join(transcribe.DefaultPocketsphinxModelDir, "en-us", "mdef")); err != nil {
		t.Skipf("pocketsphinx model missing: install the Debian package pocketsphinx-en-us (%v)", err)
	}
	p, err := transcribe.NewPocketsphinx(transcribe.PocketsphinxConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// spoken is text spoken by flite (its rms voice, which pocketsphinx-en-us
// recognises best of flite's: measured on captionScript, 2 errors in 28
// words against 21 with espeak-ng's Klatt voice) as a WAV.
func spoken(t *testing.T, text string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "speech.wav")
	if b, err := exec.Command("flite", "-voice", "rms", "-t", text, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("flite: %v: %s", err, b)
	}
	wav, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wav
}

// upload posts a multipart caption request.
func (w *world) upload(t *testing.T, u *user, fields map[string]string, file []byte) reply {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("audio_file", "speech.wav")
		_, _ = fw.Write(file)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", w.URL+base+"/captions/generate", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-API-Key", u.Key)
	return w.send(t, req)
}

// wer is the word error rate of hyp against ref.
func wer(ref, hyp string) float64 {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	}
	r, h := split(ref), split(hyp)
	prev, cur := make([]int, len(h)+1), make([]int, len(h)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(h); j++ {
			sub := prev[j-1]
			if r[i-1] != h[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(h)]) / float64(max(len(r), 1))
}

const captionScript = "The weather today is sunny and warm. We will meet at the station at nine in the morning. " +
	"Please bring a map and some water for the long walk."

func TestCaptionsFromSpeech(t *testing.T) {
	tr := engine(t)
	w := startWith(t, options{Transcribers: []transcribe.Transcriber{tr}})
	ada := w.user(t, "ada@content.test")
	bob := w.user(t, "bob@content.test")
	wav := spoken(t, captionScript)

	r := w.upload(t, ada, map[string]string{"language": "en"}, wav)
	if r.Status != http.StatusAccepted || r.Body["caption_id"] == nil || r.Body["task_id"] == nil || r.Body["status"] != "queued" {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	id, task := r.Body["caption_id"].(string), r.Body["task_id"].(string)
	var c reply
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c = w.must(t, http.StatusOK, ada, "GET", base+"/captions/"+id, nil)
		if c.Body["status"] != "queued" || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if c.Body["status"] != "done" || !strings.HasPrefix(c.Body["engine"].(string), "pocketsphinx") {
		t.Fatalf("caption: %s", c.Raw)
	}
	if e := wer(captionScript, c.Body["text"].(string)); e >= 0.15 {
		t.Fatalf("word error rate %.2f on synthesised speech (want < 0.15): %q", e, c.Body["text"])
	}
	// SRT and WebVTT parse back; segments follow the cue rules.
	srt, err := astisub.ReadFromSRT(strings.NewReader(c.Body["srt"].(string)))
	if err != nil {
		t.Fatalf("srt: %v\n%s", err, c.Body["srt"])
	}
	vtt, err := astisub.ReadFromWebVTT(strings.NewReader(c.Body["vtt"].(string)))
	if err != nil {
		t.Fatalf("vtt: %v\n%s", err, c.Body["vtt"])
	}
	segs := c.Body["segments"].([]any)
	if len(segs) == 0 || len(srt.Items) != len(segs) || len(vtt.Items) != len(segs) {
		t.Fatalf("%d segments, %d srt items, %d vtt items", len(segs), len(srt.Items), len(vtt.Items))
	}
	for i, x := range segs {
		s := x.(map[string]any)
		d := s["end"].(float64) - s["start"].(float64)
		if d <= 0 || d > 7.0001 {
			t.Fatalf("segment %d lasts %.3f s", i, d)
		}
		for _, l := range s["lines"].([]any) {
			if len([]rune(l.(string))) > 42 {
				t.Fatalf("segment %d line over 42 characters: %q", i, l)
			}
		}
		if s["confidence"] != nil {
			if v := s["confidence"].(float64); v < 0 || v > 1 {
				t.Fatalf("segment %d confidence %v", i, v)
			}
		}
	}
	// The task is a projection: it catches up with the caption shortly.
	task1 := w.poll(t, ada, base+"/tasks/"+task, 15*time.Second, final)
	if task1.Body["status"] != "done" || task1.Body["progress"] != float64(100) {
		t.Fatalf("task: %s", task1.Raw)
	}
	w.must(t, http.StatusNotFound, bob, "GET", base+"/captions/"+id, nil)
	w.must(t, http.StatusNotFound, bob, "GET", base+"/tasks/"+task, nil)
}

func TestCaptionRequestsRefused(t *testing.T) {
	tr := engine(t)
	w := startWith(t, options{Transcribers: []transcribe.Transcriber{tr}})
	ada := w.user(t, "ada@content.test")
	wav := []byte("RIFF....WAVE")
	for _, tc := range []struct {
		name   string
		fields map[string]string
		file   []byte
		status int
		field  string
	}{
		{"neither", map[string]string{}, nil, 422, "reel_url"},
		{"both", map[string]string{"reel_url": w.Media.URL + "/video.mp4"}, wav, 422, "reel_url"},
		{"bad url", map[string]string{"reel_url": "file:///etc/passwd"}, nil, 400, "reel_url"},
		{"other language offline", map[string]string{"language": "de"}, wav, 422, "language"},
		{"bad language", map[string]string{"language": "english please"}, wav, 400, "language"},
		{"burn_in not boolean", map[string]string{"burn_in": "maybe"}, wav, 422, "burn_in"},
	} {
		r := w.upload(t, ada, tc.fields, tc.file)
		if r.Status != tc.status || !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("%s: %d %s; want %d naming %s", tc.name, r.Status, r.Raw, tc.status, tc.field)
		}
	}
	r := w.upload(t, ada, map[string]string{"language": "de"}, wav)
	if !strings.Contains(string(r.Raw), "pocketsphinx") || !strings.Contains(string(r.Raw), "OpenAI-compatible") {
		t.Fatalf("the refusal does not name the engines: %s", r.Raw)
	}
	if r := w.do(t, ada, "POST", base+"/captions/generate", map[string]any{"reel_url": "x"}); r.Status != http.StatusUnsupportedMediaType {
		t.Fatalf("JSON body: %d %s", r.Status, r.Raw)
	}
	w.must(t, http.StatusNotFound, ada, "GET", base+"/captions/not-a-uuid", nil)
}
