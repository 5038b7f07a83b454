package content_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/transcribe"
	readcontent "github.com/strata-platform/strata/readapi/content"
)

// The upload routes' large body limit is for multipart bodies only: a JSON
// body there is held to the surface's default (it would be read, and
// buffered, whole before the handler refuses its type).
func TestUploadLimitOnlyForMultipart(t *testing.T) {
	for _, tc := range []struct {
		path, ctype string
		want        int64
	}{
		{base + "/captions/generate", "multipart/form-data; boundary=x", readcontent.MaxCaptionBody},
		{base + "/captions/generate", "application/json", 0},
		{base + "/captions/generate", "", 0},
		{base + "/bulk/reels", "multipart/form-data; boundary=x", 2 << 20},
		{base + "/bulk/reels", "text/csv", 0},
		{base + "/twins", "multipart/form-data; boundary=x", 0},
	} {
		r, _ := http.NewRequest("POST", "http://x"+tc.path, nil)
		if tc.ctype != "" {
			r.Header.Set("Content-Type", tc.ctype)
		}
		if got := readcontent.BodyLimit(r); got != tc.want {
			t.Errorf("%s %q: limit %d, want %d", tc.path, tc.ctype, got, tc.want)
		}
	}
}

// An upload's file name is text like any other field: a NUL in it is 400
// naming the field (it used to reach the event store and fail there, 500).
func TestUploadFileNamesAreCheckedText(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools, Transcribers: []transcribe.Transcriber{engine(t)}})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, map[string]any{"voice_id": "flite-slt"})
	for _, tc := range []struct{ path, field string }{{"/captions/generate", "audio_file"}, {"/bulk/reels", "csv_file"}} {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("twin_id", twin)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename*=UTF-8''a%%00b.wav`, tc.field))
		fw, _ := mw.CreatePart(h)
		_, _ = fw.Write([]byte("script\nHello.\n"))
		_ = mw.Close()
		req, _ := http.NewRequest("POST", w.URL+base+tc.path, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("X-API-Key", ada.Key)
		r := w.send(t, req)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), tc.field) || !strings.Contains(string(r.Raw), "no_nul") {
			t.Errorf("%s with a NUL in the file name: %d %s", tc.path, r.Status, r.Raw)
		}
	}
}

// A burn-in's body may be empty however it is sent (a streamed, chunked
// empty body too); an explicit font_size 0 is out of range, not "default".
func TestBurnInEmptyBodiesAndExplicitZero(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools, Transcribers: []transcribe.Transcriber{engine(t)}})
	ada := w.user(t, "ada@content.test")
	video, err := os.ReadFile(speechVideo(t, "Hello there."))
	if err != nil {
		t.Fatal(err)
	}
	r := w.multipart(t, ada, base+"/captions/generate", nil, map[string][]byte{"audio_file:speech.mp4": video})
	if r.Status != http.StatusAccepted {
		t.Fatalf("caption: %d %s", r.Status, r.Raw)
	}
	id := str(r.Body, "caption_id")
	if v, ok := r.Body["burn_in_task_id"]; !ok || v != nil {
		t.Errorf("burn_in_task_id absent or not null without burn_in: %s", r.Raw)
	}
	req, _ := http.NewRequest("POST", w.URL+base+"/captions/"+id+"/burn-in", io.NopCloser(strings.NewReader("")))
	req.ContentLength = -1 // chunked
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", ada.Key)
	if r := w.send(t, req); r.Status != http.StatusAccepted {
		t.Errorf("chunked empty body: %d %s", r.Status, r.Raw)
	}
	if r := w.do(t, ada, "POST", base+"/captions/"+id+"/burn-in", map[string]any{"font_size": 0}); r.Status != http.StatusBadRequest ||
		!strings.Contains(string(r.Raw), "font_size") {
		t.Errorf("font_size 0: %d %s", r.Status, r.Raw)
	}
	if r := w.do(t, ada, "GET", base+"/captions/"+strings.ToUpper(id), nil); r.Status != http.StatusOK || r.Body["id"] != id {
		t.Errorf("the caption by its id in upper case: %d %s", r.Status, r.Raw)
	}
}

// An empty upload is refused when it is sent, not after a transcription.
func TestEmptyAudioRefused(t *testing.T) {
	w := startWith(t, options{Transcribers: []transcribe.Transcriber{engine(t)}})
	ada := w.user(t, "ada@content.test")
	r := w.multipart(t, ada, base+"/captions/generate", nil, map[string][]byte{"audio_file:empty.wav": {}})
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), "audio_file") {
		t.Fatalf("an empty audio_file: %d %s", r.Status, r.Raw)
	}
}

// A webhook_url the outbound policy will never reach is refused when it is
// given (400 naming it), and nothing is queued.
func TestPrivateWebhookURLRefused(t *testing.T) {
	tools := mediaTools(t)
	strict := outbound.New(outbound.Config{Timeout: time.Second})
	w := startWith(t, options{Tools: tools, CheckWebhook: strict.Check})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	for _, u := range []string{"http://127.0.0.1:9/hook", "http://[::1]/hook", "http://169.254.169.254/latest", "http://10.0.0.1/x",
		"http://[::ffff:127.0.0.1]/x"} {
		r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "flite-slt", "webhook_url": u})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), "webhook_url") {
			t.Errorf("webhook_url %s: %d %s", u, r.Status, r.Raw)
		}
	}
	if r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi.", "voice_id": "flite-slt", "webhook_url": ""}); r.Status != http.StatusAccepted {
		t.Errorf("no webhook_url: %d %s", r.Status, r.Raw)
	}
	if r := w.generate(t, ada, map[string]any{"twin_id": "", "script": "Hi.", "voice_id": "flite-slt"}); r.Status != http.StatusBadRequest {
		t.Errorf("an empty twin_id: %d %s", r.Status, r.Raw)
	}
}

// A spoken script its payer's balance cannot pay for is not rendered: the
// job fails insufficient_credits and nothing is charged; a reel is billed
// like an avatar video, once per row.
func TestRendersArePaidForOnce(t *testing.T) {
	tools := mediaTools(t)
	credits := newCredits(1_000_000) // 1 credit: a tenth of a second
	w := startWith(t, options{Tools: tools, Credits: credits})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, map[string]any{"voice_id": "flite-slt"})
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": avatarScript, "voice_id": "flite-slt"})
	if r.Status != http.StatusAccepted {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	done := w.waitAvatar(t, ada, str(r.Body, "job_id"))
	if done.Body["status"] != "error" || str(obj(done.Body, "error"), "code") != "insufficient_credits" {
		t.Fatalf("a video the balance cannot pay for: %s", done.Raw)
	}
	if n := len(credits.seen()); n != 0 {
		t.Fatalf("%d charges for a video not rendered", n)
	}

	credits.setBalance(1_000_000_000) // 1,000 credits
	csv := "script,platform\nHello there.,short_video\nGood morning.,short_video\n"
	r = w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin}, map[string][]byte{"csv_file": []byte(csv)})
	if r.Status != http.StatusAccepted {
		t.Fatalf("reels: %d %s", r.Status, r.Raw)
	}
	batch := str(r.Body, "batch_id")
	g := w.poll(t, ada, base+"/bulk/reels/"+batch, time.Minute, final)
	if g.Body["status"] != "done" {
		t.Fatalf("batch: %s", g.Raw)
	}
	var total int64
	for i, x := range g.Body["jobs"].([]any) {
		j := x.(map[string]any)
		want := int64(j["duration_seconds"].(float64)*1000+0.5) * 10_000
		if got := micro(t, j["credits_billed"]); got != want {
			t.Errorf("row %d billed %d micro-credits for %v s, want %d", i+1, got, j["duration_seconds"], want)
		}
		total += want
	}
	if got := micro(t, g.Body["credits_billed"]); got != total {
		t.Errorf("the batch billed %d, its rows %d", got, total)
	}
	seen := map[string]int64{}
	for _, c := range credits.seen() {
		seen[c.ChargeID] += c.Micro
	}
	for row := 1; row <= 2; row++ {
		if _, ok := seen[fmt.Sprintf("content.reel:%s:%d", batch, row)]; !ok {
			t.Errorf("row %d was not charged: %v", row, seen)
		}
	}
	if len(seen) != 2 {
		t.Errorf("charges %v, want the two rows'", seen)
	}
	credits.setBalance(0)
	r = w.multipart(t, ada, base+"/bulk/reels", map[string]string{"twin_id": twin}, map[string][]byte{"csv_file": []byte(csv + "Again.,short_video\n")})
	if r.Status != http.StatusPaymentRequired {
		t.Errorf("reels with no credits left: %d %s", r.Status, r.Raw)
	}
}

// The local voices speak English: a script in another writing system is
// 422 for the slideshow (it used to render a quarter second of silence,
// billed); a request that is not multipart names Content-Type.
func TestSlideshowScriptsInLatinLetters(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools})
	ada := w.user(t, "ada@content.test")
	twin := w.twin(t, ada, nil)
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "你好，世界。今天天气很好。", "voice_id": "flite-slt"})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Raw), "latin_script") {
		t.Errorf("a Chinese script: %d %s", r.Status, r.Raw)
	}
	r = w.do(t, ada, "POST", base+"/bulk/reels", map[string]any{"twin_id": twin})
	if r.Status != http.StatusUnsupportedMediaType || !strings.Contains(string(r.Raw), "Content-Type") {
		t.Errorf("reels as JSON: %d %s", r.Status, r.Raw)
	}
}

// The seed's avatar answer carries task_id and celery_task_id; either
// finds the job (another owner's is 404 both ways).
func TestAvatarByEitherID(t *testing.T) {
	tools := mediaTools(t)
	w := startWith(t, options{Tools: tools})
	ada, bob := w.user(t, "ada@content.test"), w.user(t, "bob@content.test")
	twin := w.twin(t, ada, nil)
	r := w.generate(t, ada, map[string]any{"twin_id": twin, "script": "Hi there.", "voice_id": "flite-slt"})
	if r.Status != http.StatusAccepted {
		t.Fatalf("generate: %d %s", r.Status, r.Raw)
	}
	task, celery := str(r.Body, "task_id"), str(r.Body, "celery_task_id")
	if celery == "" || celery == "0" || celery == task {
		t.Fatalf("celery_task_id %q (task %q)", celery, task)
	}
	byCelery := w.must(t, http.StatusOK, ada, "GET", base+"/multimodal/avatar/"+celery, nil)
	if byCelery.Body["task_id"] != task || byCelery.Body["celery_task_id"] != celery {
		t.Fatalf("by celery_task_id: %s", byCelery.Raw)
	}
	for _, id := range []string{task, celery} {
		if r := w.do(t, bob, "GET", base+"/multimodal/avatar/"+id, nil); r.Status != http.StatusNotFound {
			t.Errorf("another owner's job by %s: %d %s", id, r.Status, r.Raw)
		}
	}
	if r := w.do(t, ada, "GET", base+"/multimodal/avatar/987654321", nil); r.Status != http.StatusNotFound {
		t.Errorf("an unknown celery_task_id: %d %s", r.Status, r.Raw)
	}
}
