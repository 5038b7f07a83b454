package voice_test

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/domain/voice"
)

// transcriptionEndpoint is an OpenAI-compatible transcription endpoint
// (POST /v1/audio/transcriptions, multipart, verbose_json) that answers
// text for any WAV it is sent, checking the request as the API defines it.
func transcriptionEndpoint(t *testing.T, text string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if r.Method != "POST" || r.URL.Path != "/v1/audio/transcriptions" || err != nil || mt != "multipart/form-data" {
			http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, 400)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		fields := map[string]string{}
		var audio []byte
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			b, _ := io.ReadAll(part)
			if part.FormName() == "file" {
				audio = b
			} else {
				fields[part.FormName()] = string(b)
			}
		}
		if len(audio) < 44 || string(audio[:4]) != "RIFF" || fields["model"] == "" || fields["response_format"] != "verbose_json" {
			http.Error(w, `{"error":{"message":"missing file or fields","type":"invalid_request_error"}}`, 400)
			return
		}
		calls.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"task": "transcribe", "language": "english", "duration": 7.08, "text": text,
			"segments": []map[string]any{{"id": 0, "start": 0.0, "end": 7.0, "text": text, "avg_logprob": -0.2, "no_speech_prob": 0.01}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// A recorded call is transcribed by the configured engine (labelled), its
// text is searchable and scored for sentiment; an erasure of the callee
// leaves nothing readable: not the number, not the transcript (nor its
// search terms), not the audio in the blob store.
func TestSIPRecordedCallTranscriptSearchSentimentErasure(t *testing.T) {
	t.Parallel()
	const said = "I am very frustrated the delivery is late again and I want a refund"
	srv, calls := transcriptionEndpoint(t, said)
	tr, err := transcribe.NewOpenAI(transcribe.OpenAIConfig{BaseURL: srv.URL, Model: "whisper-1"})
	if err != nil {
		t.Fatal(err)
	}
	sw := startSIP(t, sipConfig{Scenario: "uas_record.xml", Transcriber: tr})
	c := sw.dial(t, true, "")
	sw.waitStatus(t, c.ID, voice.StatusCompleted)
	var list struct {
		Items []struct {
			Engine     string   `json:"engine"`
			Confidence *float64 `json:"confidence"`
			Text       *string  `json:"text"`
			Note       string   `json:"note"`
		} `json:"items"`
		Failed []struct {
			Reason string `json:"reason"`
		} `json:"failed"`
	}
	eventually(t, 20*time.Second, func() (bool, string) {
		sw.do(t, sw.u, "GET", "/api/v1/transcripts/call/"+c.ID, nil, &list)
		return len(list.Items) == 1 || len(list.Failed) > 0, "no transcript yet"
	})
	if len(list.Items) != 1 || list.Items[0].Text == nil || *list.Items[0].Text != said || !strings.HasPrefix(list.Items[0].Engine, "openai-compatible whisper-1") ||
		list.Items[0].Confidence == nil || list.Items[0].Note == "" || calls.Load() != 1 {
		t.Fatalf("transcript: %+v (endpoint called %d times)", list, calls.Load())
	}
	var found struct {
		Total int `json:"total"`
	}
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/transcripts/search?q=refund+delivery", nil, &found); st != 200 || found.Total != 1 {
		t.Fatalf("search: %d %s", st, raw)
	}
	sw.do(t, sw.u, "GET", "/api/v1/transcripts/search?q=invoice", nil, &found)
	if found.Total != 0 {
		t.Fatal("search matched a word that was not said")
	}
	var sent struct {
		Label   string `json:"label"`
		Method  string `json:"method"`
		Version string `json:"version"`
		Score   float64
	}
	if st, raw := sw.do(t, sw.u, "GET", "/api/v1/analytics/sentiment/"+c.ID, nil, &sent); st != 200 || sent.Label != "negative" ||
		sent.Method != "lexicon" || sent.Version != "1" {
		t.Fatalf("sentiment: %d %s", st, raw)
	}

	var er struct {
		Status string         `json:"status"`
		Counts map[string]int `json:"counts"`
	}
	if st, raw := sw.do(t, sw.u, "POST", "/api/v1/compliance/gdpr/delete", map[string]any{"phone": sipCallee}, &er); st != 200 ||
		er.Counts["calls"] != 1 || er.Counts["recordings"] != 1 {
		t.Fatalf("erase: %d %s", st, raw)
	}
	got := sw.getCall(t, c.ID)
	if got.To != nil || str(got.From) != sipLine {
		t.Fatalf("call after erasure: from %s to %s", str(got.From), str(got.To))
	}
	sw.do(t, sw.u, "GET", "/api/v1/transcripts/call/"+c.ID, nil, &list)
	if len(list.Items) != 1 || list.Items[0].Text != nil {
		t.Fatalf("transcript after erasure: %+v", list.Items)
	}
	sw.do(t, sw.u, "GET", "/api/v1/transcripts/search?q=refund", nil, &found)
	if found.Total != 0 {
		t.Fatal("the erased transcript is still searchable")
	}
	var recs struct {
		Items []struct {
			URL string `json:"url"`
		} `json:"items"`
	}
	sw.do(t, sw.u, "GET", "/api/v1/calls/"+c.ID+"/recordings", nil, &recs)
	if len(recs.Items) != 1 {
		t.Fatalf("recordings: %+v", recs)
	}
	sw.wantError(t, sw.u, "GET", recs.Items[0].URL, nil, 404, "not_found", "")
	if hits := plaintextScan(t, sw.world, sw.BlobDir, sipCallee, sipCallee[1:], "frustrated", "refund", "RIFF"); len(hits) > 0 {
		t.Fatalf("readable after erasure: %v", hits)
	}
}
