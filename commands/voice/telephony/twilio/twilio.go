// Package twilio is the telephony.Provider over Twilio's REST API (or any
// API of the same shape, at Config.BaseURL). Every request goes through the
// platform's outbound client.
//
// Calls. Dial creates the call (POST /2010-04-01/Accounts/{sid}/Calls.json)
// with inline TwiML that keeps the line open once answered,
// <Response><Pause length="N"/></Response> with N = Config.MaxCall, and
// asks for status callbacks (initiated ringing answered completed) at
// Config.StatusCallbackURL, to which it adds a strata_call query parameter
// naming the call. When the request asks for a recording, the call is
// created with Record=true (mono), and the recording status callback goes
// to the same URL; the Ended report then waits (up to RecordingWait) for
// the recording, which is fetched as WAV with the account's credentials.
//
// Progress arrives at StatusHandler, which the voice surface mounts at the
// path of StatusCallbackURL. It verifies X-Twilio-Signature, maps
// CallStatus to reports (queued and initiated: Dialing; ringing: Ringing;
// in-progress: Answered; completed, busy, no-answer, canceled, failed:
// Ended) in order, ignores any status at or before the last one reported
// (Twilio retries, and callbacks can cross), and sends Ended exactly once.
//
// Hangup updates the call with Status=completed once answered and
// Status=canceled before. Transfer is cold only: it redirects the call to
// <Response><Dial callerId="From">target</Dial></Response>; a warm
// transfer returns an error wrapping telephony.ErrTransfer (a warm
// transfer needs a conference, which this adapter does not run).
//
// Inbound calls (Receive) come to VoiceHandler, the numbers' voice webhook,
// and are driven with TwiML (<Gather>, <Play> of audio AudioHandler serves,
// <Hangup/>, <Reject/>, <Dial>); inbound_call.go describes the protocol and
// its limits (a call's webhooks must reach the process that took its first
// one).
package twilio

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/voice/telephony"
)

// DefaultBaseURL is Twilio's REST API.
const DefaultBaseURL = "https://api.twilio.com"

// Defaults for a zero Config.
const (
	DefaultMaxCall           = 4 * time.Hour // Twilio's longest call
	DefaultRecordingWait     = 2 * time.Minute
	DefaultMaxRecordingBytes = 64 << 20 // 16-bit 8 kHz mono: about 70 minutes
	DefaultGatherTimeout     = 3 * time.Second
	DefaultAnswerWait        = 10 * time.Second
	DefaultSettle            = 150 * time.Millisecond
	DefaultReplyWait         = 2 * time.Second
	DefaultInboundIdle       = time.Minute
	DefaultAudioTTL          = 10 * time.Minute
)

// Config configures the adapter.
type Config struct {
	// BaseURL is the API's origin (DefaultBaseURL when "").
	BaseURL    string
	AccountSID string
	AuthToken  string
	// StatusCallbackURL is our public URL Twilio posts call, recording and
	// message status to; StatusHandler serves it. Required by Dial.
	StatusCallbackURL string
	// InboundSMSURL is our public URL of SMSHandler: the messaging webhook
	// ("A message comes in") configured on the numbers at Twilio.
	InboundSMSURL string
	// VoiceURL is our public URL of VoiceHandler: the voice webhook ("A
	// call comes in", HTTP POST) configured on the numbers at Twilio. Its
	// Gather actions go to the same URL with a strata_call parameter.
	VoiceURL string
	// AudioURL is the public URL prefix AudioHandler serves under: the
	// audio Inbound.Play renders is fetched by Twilio at
	// AudioURL/<random token>.wav.
	AudioURL string
	// GatherTimeout is how long a <Gather> waits for a key before Twilio
	// asks for more TwiML (DefaultGatherTimeout when 0; whole seconds).
	GatherTimeout time.Duration
	// AnswerWait is how long the first webhook of an inbound call waits for
	// the handler to answer or reject it before the call is rejected
	// (DefaultAnswerWait when 0; Twilio gives up on a webhook after 15 s).
	AnswerWait time.Duration
	// Settle is how long a webhook waits after the handler's last verb
	// for more before it answers (DefaultSettle when 0).
	Settle time.Duration
	// ReplyWait is how long a webhook (the first, or one bringing keys)
	// waits for the handler's first verb (DefaultReplyWait when 0).
	ReplyWait time.Duration
	// InboundIdle is how long an answered inbound call may go without a
	// webhook before it is taken for over (DefaultInboundIdle when 0).
	InboundIdle time.Duration
	// AudioTTL is how long a played clip can be fetched (DefaultAudioTTL
	// when 0).
	AudioTTL time.Duration
	// Client sends every request (outbound.New(outbound.Config{}) when nil).
	Client *outbound.Client
	// MaxCall is how long an answered call stays up at most: the Pause
	// length and the call's TimeLimit (DefaultMaxCall when 0).
	MaxCall time.Duration
	// RecordingWait is how long Ended waits for a requested recording
	// (DefaultRecordingWait when 0); after it Ended goes without one.
	RecordingWait time.Duration
	// MaxRecordingBytes caps a recording download (DefaultMaxRecordingBytes
	// when 0).
	MaxRecordingBytes int64
	// OnMessageStatus, when set, receives the status callbacks of sent
	// messages (queued, sent, delivered, undelivered, failed).
	OnMessageStatus func(MessageStatus)
	Logger          *slog.Logger
	// Now is the clock for reports without a Twilio Timestamp (time.Now
	// when nil).
	Now func() time.Time
}

// MessageStatus is one message status callback.
type MessageStatus struct {
	ProviderID string // MessageSid
	Status     string // MessageStatus
	ErrorCode  string
}

// APIError is an error response of the API: {code, message, more_info,
// status}. A 4xx one wraps telephony.ErrRejected.
type APIError struct {
	HTTPStatus int
	Code       int
	Message    string
	MoreInfo   string
}

func (e *APIError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("twilio: HTTP %d, error %d: %s", e.HTTPStatus, e.Code, e.Message)
	}
	return fmt.Sprintf("twilio: HTTP %d: %s", e.HTTPStatus, e.Message)
}

// Unwrap makes a 4xx answer an ErrRejected.
func (e *APIError) Unwrap() error {
	if e.HTTPStatus >= 400 && e.HTTPStatus < 500 {
		return telephony.ErrRejected
	}
	return nil
}

// Provider is the Twilio adapter.
type Provider struct {
	cfg  Config
	base *url.URL
	out  *outbound.Client
	log  *slog.Logger
	now  func() time.Time

	mu      sync.Mutex
	byToken map[string]*call
	bySid   map[string]*call
	onSMS   func(ctx context.Context, m telephony.InboundSMS) error
	onCall  func(ctx context.Context, in telephony.Inbound)
	inTok   map[string]*inCall // inbound calls by action token
	inSid   map[string]*inCall // and by CallSid
	clips   map[string]*clip   // rendered audio by token
	clipMem int                // bytes held in clips
}

var _ telephony.Provider = (*Provider)(nil)

// New checks cfg and returns the adapter.
func New(cfg Config) (*Provider, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("twilio: BaseURL must be an absolute http(s) URL, got %q", cfg.BaseURL)
	}
	if cfg.AccountSID == "" || cfg.AuthToken == "" {
		return nil, errors.New("twilio: AccountSID and AuthToken are required")
	}
	if cfg.StatusCallbackURL != "" {
		if u, err := url.Parse(cfg.StatusCallbackURL); err != nil || !u.IsAbs() || u.Host == "" {
			return nil, fmt.Errorf("twilio: StatusCallbackURL must be an absolute URL, got %q", cfg.StatusCallbackURL)
		}
	}
	if cfg.MaxCall <= 0 {
		cfg.MaxCall = DefaultMaxCall
	}
	if cfg.RecordingWait <= 0 {
		cfg.RecordingWait = DefaultRecordingWait
	}
	if cfg.MaxRecordingBytes <= 0 {
		cfg.MaxRecordingBytes = DefaultMaxRecordingBytes
	}
	for _, u := range []struct{ name, v string }{{"VoiceURL", cfg.VoiceURL}, {"AudioURL", cfg.AudioURL}} {
		if u.v == "" {
			continue
		}
		if v, err := url.Parse(u.v); err != nil || !v.IsAbs() || v.Host == "" {
			return nil, fmt.Errorf("twilio: %s must be an absolute URL, got %q", u.name, u.v)
		}
	}
	cfg.AudioURL = strings.TrimRight(cfg.AudioURL, "/")
	setDefault(&cfg.GatherTimeout, DefaultGatherTimeout)
	cfg.GatherTimeout = max(cfg.GatherTimeout.Round(time.Second), time.Second)
	setDefault(&cfg.AnswerWait, DefaultAnswerWait)
	setDefault(&cfg.Settle, DefaultSettle)
	setDefault(&cfg.ReplyWait, DefaultReplyWait)
	setDefault(&cfg.InboundIdle, DefaultInboundIdle)
	setDefault(&cfg.AudioTTL, DefaultAudioTTL)
	p := &Provider{cfg: cfg, base: base, out: cfg.Client, log: cfg.Logger, now: cfg.Now,
		byToken: map[string]*call{}, bySid: map[string]*call{},
		inTok: map[string]*inCall{}, inSid: map[string]*inCall{}, clips: map[string]*clip{}}
	if p.out == nil {
		p.out = outbound.New(outbound.Config{Logger: cfg.Logger})
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p, nil
}

// Name is "twilio".
func (p *Provider) Name() string { return "twilio" }

// SendsMedia implements telephony.MediaSender: messages carry their
// MediaUrl parameters (MMS).
func (p *Provider) SendsMedia() bool { return true }

// accountPath is /2010-04-01/Accounts/{sid}/rest.
func (p *Provider) accountPath(rest string) string {
	return "/2010-04-01/Accounts/" + url.PathEscape(p.cfg.AccountSID) + rest
}

// api sends a request to the API and decodes a 2xx JSON answer into out
// (when not nil); any other answer is an *APIError.
func (p *Provider) api(ctx context.Context, method, path string, form url.Values, retry outbound.RetryPolicy, out any) error {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base.String()+path, body)
	if err != nil {
		return err
	}
	req.SetBasicAuth(p.cfg.AccountSID, p.cfg.AuthToken)
	req.Header.Set("Accept", "application/json")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := p.out.Do(ctx, req, retry)
	if err != nil {
		return fmt.Errorf("twilio: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("twilio: %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{HTTPStatus: resp.StatusCode}
		var j struct {
			Code     int    `json:"code"`
			Message  string `json:"message"`
			MoreInfo string `json:"more_info"`
		}
		if json.Unmarshal(b, &j) == nil && (j.Code != 0 || j.Message != "") {
			e.Code, e.Message, e.MoreInfo = j.Code, j.Message, j.MoreInfo
		} else {
			e.Message = strings.TrimSpace(string(b[:min(len(b), 200)]))
		}
		return e
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("twilio: %s %s: decoding the answer: %w", method, path, err)
		}
	}
	return nil
}

type resource struct {
	Sid    string `json:"sid"`
	Status string `json:"status"`
}

// Dial creates the call; see the package doc for the request.
func (p *Provider) Dial(ctx context.Context, req telephony.CallRequest, report telephony.Report) (telephony.Call, error) {
	if p.cfg.StatusCallbackURL == "" {
		return nil, errors.New("twilio: Dial needs a StatusCallbackURL")
	}
	ring := req.RingTimeout
	if ring <= 0 {
		ring = telephony.DefaultRingTimeout
	}
	maxCall := int(p.cfg.MaxCall / time.Second)
	token := newToken()
	cb := withParam(p.cfg.StatusCallbackURL, "strata_call", token)
	form := url.Values{
		"To":                   {req.To},
		"From":                 {req.From},
		"Twiml":                {fmt.Sprintf(`<Response><Pause length="%d"/></Response>`, maxCall)},
		"StatusCallback":       {cb},
		"StatusCallbackEvent":  {"initiated", "ringing", "answered", "completed"},
		"StatusCallbackMethod": {http.MethodPost},
		"Timeout":              {fmt.Sprint(max(int(ring/time.Second), 1))},
		"TimeLimit":            {fmt.Sprint(maxCall)},
	}
	if req.Record {
		form["Record"] = []string{"true"}
		form["RecordingChannels"] = []string{"mono"}
		form["RecordingStatusCallback"] = []string{cb}
		form["RecordingStatusCallbackMethod"] = []string{http.MethodPost}
		form["RecordingStatusCallbackEvent"] = []string{"completed", "absent"}
	}
	c := &call{p: p, token: token, from: req.From, report: report, record: req.Record, rank: -1,
		kick: make(chan struct{}, 1)}
	p.mu.Lock()
	p.byToken[token] = c
	p.mu.Unlock()
	go c.run()

	var res resource
	// Creating a call is not idempotent: no retries.
	if err := p.api(ctx, http.MethodPost, p.accountPath("/Calls.json"), form, outbound.RetryPolicy{}, &res); err != nil {
		c.abort()
		return nil, err
	}
	if res.Sid == "" {
		c.abort()
		return nil, errors.New("twilio: the call was created without a sid")
	}
	c.accepted(res.Sid, p.now())
	p.log.Info("twilio: call created", "call_id", req.CallID, "sid", res.Sid, "status", res.Status)
	return c, nil
}

// SendSMS creates a message (POST .../Messages.json).
func (p *Provider) SendSMS(ctx context.Context, req telephony.SMSRequest) (telephony.SMSResult, error) {
	form := url.Values{"To": {req.To}, "From": {req.From}, "Body": {req.Body}}
	if len(req.MediaURLs) > 0 {
		form["MediaUrl"] = append([]string(nil), req.MediaURLs...)
	}
	if p.cfg.StatusCallbackURL != "" {
		form.Set("StatusCallback", p.cfg.StatusCallbackURL)
	}
	var res resource
	if err := p.api(ctx, http.MethodPost, p.accountPath("/Messages.json"), form, outbound.RetryPolicy{}, &res); err != nil {
		return telephony.SMSResult{}, err
	}
	return telephony.SMSResult{ProviderID: res.Sid, Status: res.Status}, nil
}

// Ping reads the account (GET /2010-04-01/Accounts/{sid}.json).
func (p *Provider) Ping(ctx context.Context) error {
	return p.api(ctx, http.MethodGet, "/2010-04-01/Accounts/"+url.PathEscape(p.cfg.AccountSID)+".json", nil, outbound.RetryPolicy{}, nil)
}

// fetchRecording downloads a recording as WAV. The account's credentials
// are sent only to the API's own origin.
func (p *Provider) fetchRecording(ctx context.Context, raw string) (*telephony.Recording, error) {
	u, err := p.base.Parse(raw)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(u.Path, ".wav") && !strings.HasSuffix(u.Path, ".mp3") {
		u.Path += ".wav"
	}
	ctx = outbound.WithResponseLimit(ctx, p.cfg.MaxRecordingBytes)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	if u.Scheme == p.base.Scheme && u.Host == p.base.Host {
		req.SetBasicAuth(p.cfg.AccountSID, p.cfg.AuthToken)
	}
	resp, err := p.out.Do(ctx, req, outbound.DefaultRetry())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("twilio: recording: HTTP %d", resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("twilio: recording: %w", err)
	}
	return parseWAV(b)
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// withParam adds name=value to the query of raw.
func withParam(raw, name, value string) string {
	sep := "?"
	if strings.Contains(raw, "?") {
		sep = "&"
	}
	return raw + sep + url.QueryEscape(name) + "=" + url.QueryEscape(value)
}
