package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/nyaruka/phonenumbers"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/ratelimit"
	"github.com/strata-platform/strata/commands/transcribe"
	cmdvoice "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sip"
	"github.com/strata-platform/strata/commands/voice/telephony/twilio"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	projvoice "github.com/strata-platform/strata/projections/voice"
	"github.com/strata-platform/strata/readapi/httpx"
	readvoice "github.com/strata-platform/strata/readapi/voice"
)

// VoiceConfig is the voice service's telephony and limits
// (STRATA_VOICE_*); with neither a SIP trunk nor Twilio credentials, calls
// and SMS answer 503 telephony_unconfigured.
type VoiceConfig struct {
	SIPTrunk, SIPListen, SIPDomain string
	RTPPortMin, RTPPortMax         int
	TwilioAccountSID               string
	TwilioAuthToken                string
	TwilioBaseURL                  string
	PublicURL                      string // the voice surface's public base URL (Twilio posts status there)
	RateLimit                      int    // requests a minute per tenant
	HealthEvery                    time.Duration
	// OutboundAllow opens private addresses to the platform's outbound
	// client (STRATA_OUTBOUND_ALLOW: comma-separated CIDRs, addresses,
	// host:port; "private" for all), e.g. for status callbacks to a
	// receiver on the same network. Closed by default.
	OutboundAllow outbound.Allow
	// Transcription of recordings: an OpenAI-compatible endpoint
	// (STRATA_TRANSCRIBE_URL, _API_KEY, _MODEL), else pocketsphinx offline
	// when installed; STRATA_TRANSCRIBE=off turns it off.
	TranscribeURL, TranscribeKey, TranscribeModel string
	TranscribeOff                                 bool
}

func loadVoiceConfig(env map[string]string, voiceAddr string) (VoiceConfig, error) {
	get := func(k, def string) string {
		if v := strings.TrimSpace(env[k]); v != "" {
			return v
		}
		return def
	}
	c := VoiceConfig{SIPTrunk: get("STRATA_VOICE_SIP_TRUNK", ""), SIPListen: get("STRATA_VOICE_SIP_LISTEN", "127.0.0.1:5060"),
		SIPDomain: get("STRATA_VOICE_SIP_DOMAIN", ""), TwilioAccountSID: get("STRATA_VOICE_TWILIO_ACCOUNT_SID", ""),
		TwilioAuthToken: get("STRATA_VOICE_TWILIO_AUTH_TOKEN", ""), TwilioBaseURL: get("STRATA_VOICE_TWILIO_BASE_URL", "https://api.twilio.com"),
		PublicURL: strings.TrimRight(get("STRATA_VOICE_PUBLIC_URL", "http://"+voiceAddr), "/")}
	ints := []struct {
		name string
		dst  *int
		def  string
		lo   int
	}{{"STRATA_VOICE_RATE_LIMIT", &c.RateLimit, strconv.Itoa(readvoice.DefaultRate), 1},
		{"STRATA_VOICE_RTP_PORT_MIN", &c.RTPPortMin, "0", 0}, {"STRATA_VOICE_RTP_PORT_MAX", &c.RTPPortMax, "0", 0}}
	for _, f := range ints {
		n, err := strconv.Atoi(get(f.name, f.def))
		if err != nil || n < f.lo || n > 1_000_000 {
			return c, fmt.Errorf("%s: want a whole number of at least %d, got %q", f.name, f.lo, env[f.name])
		}
		*f.dst = n
	}
	d, err := time.ParseDuration(get("STRATA_VOICE_HEALTH_INTERVAL", "15s"))
	if err != nil || d < time.Second {
		return c, fmt.Errorf("STRATA_VOICE_HEALTH_INTERVAL: want a duration of at least 1s, got %q", env["STRATA_VOICE_HEALTH_INTERVAL"])
	}
	c.HealthEvery = d
	if c.SIPTrunk != "" && c.TwilioAccountSID != "" {
		return c, errors.New("STRATA_VOICE_SIP_TRUNK and STRATA_VOICE_TWILIO_ACCOUNT_SID: configure one telephony provider, not both")
	}
	if (c.TwilioAccountSID == "") != (c.TwilioAuthToken == "") {
		return c, errors.New("STRATA_VOICE_TWILIO_ACCOUNT_SID and STRATA_VOICE_TWILIO_AUTH_TOKEN go together")
	}
	c.TranscribeURL, c.TranscribeKey, c.TranscribeModel = get("STRATA_TRANSCRIBE_URL", ""), get("STRATA_TRANSCRIBE_API_KEY", ""), get("STRATA_TRANSCRIBE_MODEL", "")
	switch v := get("STRATA_TRANSCRIBE", "on"); v {
	case "on":
	case "off":
		c.TranscribeOff = true
	default:
		return c, fmt.Errorf("STRATA_TRANSCRIBE: want on or off, got %q", v)
	}
	for _, h := range strings.Split(get("STRATA_OUTBOUND_ALLOW", ""), ",") {
		switch h = strings.TrimSpace(h); h {
		case "":
		case "private":
			c.OutboundAllow.Private = true
		default:
			c.OutboundAllow.Hosts = append(c.OutboundAllow.Hosts, h)
		}
	}
	if err := checkHTTPURL(c.PublicURL); err != nil {
		return c, fmt.Errorf("STRATA_VOICE_PUBLIC_URL: %w", err)
	}
	return c, nil
}

// numberZones gives the time zones of an E.164 number (libphonenumber's
// geocoding data); none when the number's place is unknown.
func numberZones(e164 string) []*time.Location {
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return nil
	}
	names, err := phonenumbers.GetTimezonesForNumber(n)
	if err != nil {
		return nil
	}
	var out []*time.Location
	for _, name := range names {
		if loc, err := time.LoadLocation(name); err == nil && name != "Etc/Unknown" {
			out = append(out, loc)
		}
	}
	return out
}

// voiceParts are what startVoice built that routes and health need.
type voiceParts struct {
	Provider telephony.Provider
	Handlers map[string]http.Handler
	// Audio serves GET /api/v1/providers/twilio/audio/{clip} (Twilio).
	Audio  http.Handler
	Closer func()
	Blobs  blobs.Store
}

// startVoice builds the voice service: the telephony provider configured
// (SIP trunk or Twilio), status callbacks through the platform's outbound
// client as durable jobs, recordings in the blob store, a health ping of
// the provider feeding the circuit breaker.
func startVoice(ctx context.Context, app *App) error {
	vc := app.Config.Voice
	blobStore, err := openBlobStore(ctx, app.Config)
	if err != nil {
		return err
	}
	client := outbound.New(outbound.Config{Allow: vc.OutboundAllow, Logger: app.Logger})
	parts := &voiceParts{Handlers: map[string]http.Handler{}, Blobs: blobStore}
	var svc *cmdvoice.Service // the provider's reports reach it once built
	switch {
	case vc.SIPTrunk != "":
		p, err := sip.New(ctx, sip.Config{ListenAddr: vc.SIPListen, Trunk: vc.SIPTrunk, Domain: vc.SIPDomain,
			RTPPortMin: vc.RTPPortMin, RTPPortMax: vc.RTPPortMax, Logger: app.Logger})
		if err != nil {
			return fmt.Errorf("voice: SIP adapter: %w", err)
		}
		parts.Provider, parts.Closer = p, p.Close
	case vc.TwilioAccountSID != "":
		p, err := twilio.New(twilio.Config{BaseURL: vc.TwilioBaseURL, AccountSID: vc.TwilioAccountSID, AuthToken: vc.TwilioAuthToken,
			StatusCallbackURL: vc.PublicURL + "/api/v1/providers/twilio/status", InboundSMSURL: vc.PublicURL + "/api/v1/providers/twilio/sms",
			VoiceURL: vc.PublicURL + "/api/v1/providers/twilio/voice", AudioURL: vc.PublicURL + "/api/v1/providers/twilio/audio",
			Client: client, Logger: app.Logger,
			OnMessageStatus: func(m twilio.MessageStatus) {
				if err := svc.ProviderMessageStatus(context.Background(), m.ProviderID, m.Status, m.ErrorCode); err != nil {
					app.Logger.Warn("voice: message status not recorded", "provider_id", m.ProviderID, "err", err)
				}
			}})
		if err != nil {
			return fmt.Errorf("voice: Twilio adapter: %w", err)
		}
		parts.Provider = p
		parts.Handlers["twilio/status"] = p.StatusHandler()
		parts.Handlers["twilio/sms"] = p.SMSHandler()
		parts.Handlers["twilio/voice"] = p.VoiceHandler()
		parts.Audio = p.AudioHandler() // GET: Twilio fetches <Play> audio
	}
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projvoice.Name)
	}
	tr, err := transcriber(vc, app)
	if err != nil {
		return err
	}
	master := app.Identity.Master
	svc = cmdvoice.New(app.Store, app.Clock, app.Logger, cmdvoice.Config{Provider: parts.Provider, Keys: app.Keys,
		IndexKey: master.Derive("voice party index"), Jobs: app.Jobs, Deliver: deliverer(client), Sign: outbound.Sign,
		SecretKey: master.Derive("voice callback signing"), Blobs: blobStore, Zones: numberZones, Wait: wait, Transcriber: tr,
		Inline: projvoice.Inline})
	if err := svc.RegisterJobs(app.Jobs); err != nil {
		return err
	}
	app.Voice, app.voiceParts = svc, parts
	if rc, ok := parts.Provider.(telephony.Receiver); ok {
		rc.Receive(func(ctx context.Context, in telephony.Inbound) { svc.Inbound(ctx, in) })
	}
	if rc, ok := parts.Provider.(telephony.SMSReceiver); ok {
		rc.ReceiveSMS(func(ctx context.Context, m telephony.InboundSMS) error {
			_, err := svc.Receive(ctx, m.To, m.From, m.Body, m.ProviderID)
			return err
		})
	}
	app.Go(func(ctx context.Context) { svc.RunHealth(ctx, vc.HealthEvery) })
	app.Go(svc.RunControl)
	app.Go(func(ctx context.Context) {
		<-ctx.Done()
		svc.Close()
		if parts.Closer != nil {
			parts.Closer()
		}
	})
	return nil
}

// transcriber is the configured speech-to-text engine: the endpoint when
// STRATA_TRANSCRIBE_URL is set, else pocketsphinx when installed, else
// none (recordings stay untranscribed, and the log says why).
func transcriber(vc VoiceConfig, app *App) (transcribe.Transcriber, error) {
	if vc.TranscribeOff {
		return nil, nil
	}
	if vc.TranscribeURL != "" {
		return transcribe.NewOpenAI(transcribe.OpenAIConfig{BaseURL: vc.TranscribeURL, APIKey: vc.TranscribeKey, Model: vc.TranscribeModel})
	}
	p, err := transcribe.NewPocketsphinx(transcribe.PocketsphinxConfig{})
	if err != nil {
		app.Logger.Info("voice: recordings are not transcribed", "reason", err.Error())
		return nil, nil
	}
	return p, nil
}

// deliverer posts status callbacks through the outbound client (no retries
// inside: the job retries, recording every attempt).
func deliverer(c *outbound.Client) cmdvoice.Deliverer {
	return func(ctx context.Context, url string, body []byte, header http.Header) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
		if err != nil {
			return 0, fmt.Errorf("%w: %v", cmdvoice.ErrRefusedURL, err)
		}
		req.Header = header
		resp, err := c.Do(ctx, req, outbound.RetryPolicy{Attempts: 1})
		var refused *outbound.Refused
		if errors.As(err, &refused) {
			return 0, fmt.Errorf("%w: %v", cmdvoice.ErrRefusedURL, err)
		}
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
}

// voiceRoutes serves the voice service on its own surface.
func voiceRoutes(surface string, r *mux.Router, app *App) {
	if surface != "voice" || app.Voice == nil || app.Auth == nil {
		return
	}
	readvoice.Routes(r, readvoice.Config{Service: app.Voice, DB: app.Store.DB(), Auth: app.Auth,
		Limiter:  httpx.NewSharedWindowLimiter(app.Config.Voice.RateLimit, ratelimit.New(app.Store.DB(), app.Clock)),
		Handlers: app.voiceParts.Handlers})
	if a := app.voiceParts.Audio; a != nil {
		r.Handle("/api/v1/providers/twilio/audio/{clip}", a).Methods(http.MethodGet, http.MethodHead)
	}
}

// voiceChecks are the voice surface's readiness checks beyond the
// database: the telephony provider (configured, and its breaker not open:
// the last SIP OPTIONS ping or provider call answered), the payment
// processor (configured) and the blob store (answers a lookup).
func voiceChecks(surface string, app *App) func(ctx context.Context) map[string]error {
	if surface != "voice" || app.Voice == nil {
		return nil
	}
	return func(ctx context.Context) map[string]error {
		out := map[string]error{}
		switch state, last := app.Voice.Breaker().State(); {
		case app.Voice.Provider() == nil:
			out["telephony"] = kernel.Unavailable("no telephony provider is configured", nil)
		case state == cmdvoice.BreakerOpen:
			out["telephony"] = kernel.Unavailable("circuit breaker open: "+app.Voice.Provider().Name()+" did not answer ("+last+")", nil)
		default:
			out["telephony"] = nil
		}
		out["payments"] = nil
		if app.Payments == nil || !app.Payments.Configured() {
			out["payments"] = kernel.Unavailable("no payment processor is configured (STRATA_STRIPE_SECRET_KEY)", nil)
		}
		out["blobs"] = nil
		if _, err := app.voiceParts.Blobs.Exists(ctx, "health", strings.Repeat("0", 64)); err != nil {
			out["blobs"] = kernel.Unavailable("the blob store does not answer", nil)
		}
		return out
	}
}
