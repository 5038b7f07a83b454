package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"
)

// DefaultOpenAIModel is the transcription model asked for by default.
const DefaultOpenAIModel = "whisper-1"

// DefaultOpenAITimeout bounds one request by default.
const DefaultOpenAITimeout = 5 * time.Minute

// maxResponse bounds the JSON read back from the endpoint.
const maxResponse = 16 << 20

// OpenAIConfig configures an OpenAI-compatible transcription endpoint.
type OpenAIConfig struct {
	// BaseURL is the endpoint's root, e.g. "https://api.openai.com"; the
	// request goes to BaseURL/v1/audio/transcriptions (a BaseURL already
	// ending in /v1 is not given a second one).
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Model defaults to "whisper-1".
	Model string
	// Languages the endpoint serves; default "*" (any: Whisper's models
	// are multilingual).
	Languages []string
	// HTTP defaults to http.DefaultClient.
	HTTP *http.Client
	// Timeout bounds one Transcribe call; default 5 minutes.
	Timeout time.Duration
}

// OpenAI transcribes through POST /v1/audio/transcriptions with
// response_format=verbose_json and segment timestamps. Build it with
// NewOpenAI.
type OpenAI struct {
	endpoint, key, model string
	langs                []string
	http                 *http.Client
	timeout              time.Duration
	name                 string
}

// NewOpenAI checks the configuration; an empty BaseURL is ErrUnavailable
// (the endpoint is not configured).
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("%w: no OpenAI-compatible transcription endpoint configured", ErrUnavailable)
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("transcribe: OpenAI BaseURL %q is not an http(s) URL", cfg.BaseURL)
	}
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path += "/v1"
	}
	u.Path += "/audio/transcriptions"
	o := &OpenAI{endpoint: u.String(), key: cfg.APIKey, model: or(cfg.Model, DefaultOpenAIModel),
		langs: cfg.Languages, http: cfg.HTTP, timeout: cfg.Timeout}
	if len(o.langs) == 0 {
		o.langs = []string{"*"}
	}
	if o.http == nil {
		o.http = http.DefaultClient
	}
	if o.timeout <= 0 {
		o.timeout = DefaultOpenAITimeout
	}
	o.name = "openai-compatible " + o.model + " at " + u.Host
	return o, nil
}

// Name is "openai-compatible MODEL at HOST".
func (o *OpenAI) Name() string { return o.name }

// Languages is the configured list ("*" by default).
func (o *OpenAI) Languages() []string { return append([]string(nil), o.langs...) }

// Transcribe uploads a (PCM is wrapped as a WAV file) with its primary
// language subtag and reads the verbose_json answer. A segment's
// confidence is exp(avg_logprob), the transcript's the duration-weighted
// mean of its segments'; both are nil when the endpoint sends no
// avg_logprob.
func (o *OpenAI) Transcribe(ctx context.Context, a Audio) (Transcript, error) {
	lang := languageOf(a.Language)
	if !Serves(o.langs, lang) {
		return Transcript{}, refuse(lang, o)
	}
	audio := a.WAV
	if len(audio) == 0 {
		if len(a.PCM) == 0 || a.SampleRate <= 0 {
			return Transcript{}, errors.New("transcribe: no audio (WAV, or PCM with its SampleRate)")
		}
		audio = wavFile(a.PCM, a.SampleRate)
	}
	body, ctype, err := o.form(audio, primary(lang))
	if err != nil {
		return Transcript{}, err
	}
	job, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(job, http.MethodPost, o.endpoint, bytes.NewReader(body))
	if err != nil {
		return Transcript{}, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/json")
	if o.key != "" {
		req.Header.Set("Authorization", "Bearer "+o.key)
	}
	resp, err := o.http.Do(req)
	if err != nil {
		if job.Err() != nil {
			return Transcript{}, deadline(ctx, job, o.name, o.timeout)
		}
		return Transcript{}, fmt.Errorf("transcribe: %s: %w", o.name, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		if job.Err() != nil {
			return Transcript{}, deadline(ctx, job, o.name, o.timeout)
		}
		return Transcript{}, fmt.Errorf("transcribe: %s: reading the answer: %w", o.name, err)
	}
	if resp.StatusCode/100 != 2 {
		return Transcript{}, apiError(o.name, resp.StatusCode, raw)
	}
	return o.parse(raw, lang)
}

// form is the multipart body: file, model, language, response_format and
// timestamp_granularities[].
func (o *OpenAI) form(audio []byte, lang string) ([]byte, string, error) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="audio.wav"`)
	h.Set("Content-Type", "audio/wav")
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	if _, err := part.Write(audio); err != nil {
		return nil, "", err
	}
	for _, kv := range [][2]string{{"model", o.model}, {"language", lang},
		{"response_format", "verbose_json"}, {"timestamp_granularities[]", "segment"}} {
		if err := w.WriteField(kv[0], kv[1]); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return b.Bytes(), w.FormDataContentType(), nil
}

// verbose is the verbose_json answer's fields used here.
type verbose struct {
	Text     string `json:"text"`
	Segments []struct {
		Start        float64  `json:"start"`
		End          float64  `json:"end"`
		Text         string   `json:"text"`
		AvgLogprob   *float64 `json:"avg_logprob"`
		NoSpeechProb *float64 `json:"no_speech_prob"`
	} `json:"segments"`
}

// parse turns a verbose_json answer into a Transcript.
func (o *OpenAI) parse(raw []byte, lang string) (Transcript, error) {
	var v verbose
	if err := json.Unmarshal(raw, &v); err != nil {
		return Transcript{}, fmt.Errorf("transcribe: %s: answer is not verbose_json: %w", o.name, err)
	}
	t := Transcript{Engine: o.name, Language: lang}
	for i, s := range v.Segments {
		if s.End < s.Start || (i > 0 && s.Start < v.Segments[i-1].Start) {
			return Transcript{}, fmt.Errorf("transcribe: %s: segment %d (%v-%v s) is out of order", o.name, i, s.Start, s.End)
		}
		seg := Segment{Start: seconds(s.Start), End: seconds(s.End), Text: strings.TrimSpace(s.Text)}
		if s.AvgLogprob != nil {
			seg.Confidence = new(clamp01(math.Exp(*s.AvgLogprob)))
		}
		if s.NoSpeechProb != nil {
			seg.NoSpeechProb = new(clamp01(*s.NoSpeechProb))
		}
		t.Segments = append(t.Segments, seg)
	}
	var joined string
	joined, t.Confidence = joinSegments(t.Segments)
	t.Text = strings.TrimSpace(v.Text)
	if t.Text == "" {
		t.Text = joined
	}
	return t, nil
}

// APIError is an endpoint's refusal: its HTTP status and the message and
// type of its {"error": {...}} body.
type APIError struct {
	Engine  string
	Status  int
	Type    string
	Message string
}

// Error names the engine, the message, the type and the status.
func (e *APIError) Error() string {
	return fmt.Sprintf("transcribe: %s: %s (%s, HTTP %d)", e.Engine, e.Message, or(e.Type, "no type"), e.Status)
}

// apiError reads an error answer; a body that is not the error JSON is
// quoted (bounded) as the message.
func apiError(engine string, status int, raw []byte) error {
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	e := &APIError{Engine: engine, Status: status}
	if json.Unmarshal(raw, &body) == nil && body.Error.Message != "" {
		e.Message, e.Type = body.Error.Message, body.Error.Type
		return e
	}
	msg := strings.TrimSpace(string(raw))
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	e.Message = or(msg, http.StatusText(status))
	return e
}

// wavFile wraps mono 16-bit samples at rate Hz in a canonical WAV header.
func wavFile(samples []int16, rate int) []byte {
	data := pcmBytes(samples)
	b := make([]byte, 44, 44+len(data))
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+len(data)))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], uint32(rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(rate*2))
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(len(data)))
	return append(b, data...)
}
