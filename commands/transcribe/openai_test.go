package transcribe

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// verboseAnswer is a verbose_json answer as OpenAI's endpoint sends it.
const verboseAnswer = `{
  "task": "transcribe",
  "language": "english",
  "duration": 8.47,
  "text": "Hello world, this is a test of the voice service. Please call me back.",
  "segments": [
    {"id": 0, "seek": 0, "start": 0.0, "end": 3.32, "text": " Hello world, this is a test of the voice service.",
     "tokens": [50364, 2425], "temperature": 0.0, "avg_logprob": -0.2860, "compression_ratio": 1.23, "no_speech_prob": 0.0085},
    {"id": 1, "seek": 0, "start": 3.32, "end": 5.5, "text": " Please call me back.",
     "tokens": [50530, 2555], "temperature": 0.0, "avg_logprob": -0.6931, "compression_ratio": 1.23, "no_speech_prob": 0.12}
  ]
}`

// endpoint is an httptest server speaking POST /v1/audio/transcriptions:
// it checks the request's protocol (method, path, bearer key, multipart
// fields) and answers with status and body. The WAV it was sent goes to got.
func endpoint(t *testing.T, status int, body string, got *[]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		check := func(ok bool, format string, args ...any) {
			if !ok {
				t.Errorf(format, args...)
			}
		}
		check(r.Method == http.MethodPost && r.URL.Path == "/v1/audio/transcriptions", "%s %s", r.Method, r.URL.Path)
		check(r.Header.Get("Authorization") == "Bearer sk-test", "authorization %q", r.Header.Get("Authorization"))
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			t.Errorf("multipart: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		want := map[string]string{"model": "whisper-1", "language": "en", "response_format": "verbose_json",
			"timestamp_granularities[]": "segment"}
		for k, v := range want {
			check(len(r.MultipartForm.Value[k]) == 1 && r.MultipartForm.Value[k][0] == v, "field %s = %q, want %q", k, r.MultipartForm.Value[k], v)
		}
		check(len(r.MultipartForm.Value) == len(want), "fields %v", r.MultipartForm.Value)
		files := r.MultipartForm.File["file"]
		if len(files) != 1 {
			t.Errorf("file parts: %d", len(files))
		} else {
			check(strings.HasSuffix(files[0].Filename, ".wav"), "file name %q", files[0].Filename)
			f, err := files[0].Open()
			if err == nil {
				*got, _ = io.ReadAll(f)
				f.Close()
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func openai(t *testing.T, cfg OpenAIConfig) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOpenAIVerboseJSON(t *testing.T) {
	var got []byte
	srv := endpoint(t, http.StatusOK, verboseAnswer, &got)
	o := openai(t, OpenAIConfig{BaseURL: srv.URL + "/", APIKey: "sk-test"})
	wav := []byte("RIFF....WAVEfmt a recording")
	tr, err := o.Transcribe(context.Background(), Audio{WAV: wav, Language: "en-GB"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wav) {
		t.Errorf("endpoint got %q", got)
	}
	if want := "openai-compatible whisper-1 at " + strings.TrimPrefix(srv.URL, "http://"); tr.Engine != want || o.Name() != want {
		t.Errorf("engine %q, want %q", tr.Engine, want)
	}
	if tr.Language != "en-GB" || tr.Text != "Hello world, this is a test of the voice service. Please call me back." {
		t.Errorf("%q %q", tr.Language, tr.Text)
	}
	if len(tr.Segments) != 2 {
		t.Fatalf("segments %+v", tr.Segments)
	}
	s0, s1 := tr.Segments[0], tr.Segments[1]
	if s0.Start != 0 || s0.End != 3320*time.Millisecond || s0.Text != "Hello world, this is a test of the voice service." ||
		s1.Start != 3320*time.Millisecond || s1.End != 5500*time.Millisecond || s1.Text != "Please call me back." || s1.Words != nil {
		t.Errorf("segments %+v", tr.Segments)
	}
	near := func(name string, got *float64, want float64) {
		if got == nil || math.Abs(*got-want) > 1e-3 {
			t.Errorf("%s = %v, want %.4f", name, got, want)
		}
	}
	near("segment 0 confidence", s0.Confidence, math.Exp(-0.2860)) // 0.7512
	near("segment 1 confidence", s1.Confidence, 0.5)
	near("segment 1 no_speech_prob", s1.NoSpeechProb, 0.12)
	near("transcript confidence", tr.Confidence, (math.Exp(-0.2860)*3.32+0.5*2.18)/5.5)
}

func TestOpenAIPCMAndNoLogprob(t *testing.T) {
	var got []byte
	srv := endpoint(t, http.StatusOK, `{"text":" bonjour ","segments":[{"start":0,"end":1.5,"text":" bonjour"}]}`, &got)
	o := openai(t, OpenAIConfig{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Languages: []string{"en", "fr"}})
	tr, err := o.Transcribe(context.Background(), Audio{PCM: []int16{1, -2, 3}, SampleRate: 8000})
	if err != nil {
		t.Fatal(err)
	}
	if wavRate(got) != 8000 || len(got) != 44+6 || !bytes.Equal(got[44:], []byte{1, 0, 0xfe, 0xff, 3, 0}) {
		t.Errorf("WAV sent: % x", got)
	}
	if tr.Text != "bonjour" || tr.Confidence != nil || tr.Segments[0].Confidence != nil || tr.Segments[0].NoSpeechProb != nil {
		t.Errorf("no avg_logprob must leave confidences nil: %+v", tr)
	}
	if _, err := o.Transcribe(context.Background(), Audio{WAV: []byte("x"), Language: "de"}); !errors.Is(err, ErrLanguage) {
		t.Errorf("de: err = %v, want ErrLanguage", err)
	}
}

func TestOpenAIErrors(t *testing.T) {
	var got []byte
	srv := endpoint(t, http.StatusUnauthorized,
		`{"error":{"message":"Incorrect API key provided: sk-test.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, &got)
	o := openai(t, OpenAIConfig{BaseURL: srv.URL, APIKey: "sk-test"})
	_, err := o.Transcribe(context.Background(), Audio{WAV: []byte("RIFF")})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 401 || ae.Type != "invalid_request_error" || ae.Message != "Incorrect API key provided: sk-test." {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Errorf("%q does not carry the message", err)
	}

	srv = endpoint(t, http.StatusBadGateway, "upstream down", &got)
	o = openai(t, OpenAIConfig{BaseURL: srv.URL, APIKey: "sk-test"})
	if _, err := o.Transcribe(context.Background(), Audio{WAV: []byte("RIFF")}); !errors.As(err, &ae) || ae.Status != 502 || ae.Message != "upstream down" {
		t.Errorf("err = %v", err)
	}

	srv = endpoint(t, http.StatusOK, `{"text": "no`, &got)
	o = openai(t, OpenAIConfig{BaseURL: srv.URL, APIKey: "sk-test"})
	if _, err := o.Transcribe(context.Background(), Audio{WAV: []byte("RIFF")}); err == nil || !strings.Contains(err.Error(), "verbose_json") {
		t.Errorf("truncated JSON: err = %v", err)
	}

	if _, err := NewOpenAI(OpenAIConfig{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("no BaseURL: err = %v, want ErrUnavailable", err)
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "ftp://example"}); err == nil {
		t.Error("ftp BaseURL accepted")
	}
}

func TestOpenAITimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	o := openai(t, OpenAIConfig{BaseURL: srv.URL, Timeout: 100 * time.Millisecond})
	_, err := o.Transcribe(context.Background(), Audio{WAV: []byte("RIFF")})
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want ErrTimeout", err)
	}
}
