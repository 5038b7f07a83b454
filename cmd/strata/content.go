package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/connections"
	cmdcontent "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/network"
	"github.com/strata-platform/strata/commands/content/platforms/photo"
	"github.com/strata-platform/strata/commands/content/platforms/shortvideo"
	"github.com/strata-platform/strata/commands/content/platforms/videosite"
	mediatools "github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/eventstore"
	projcontent "github.com/strata-platform/strata/projections/content"
	readcontent "github.com/strata-platform/strata/readapi/content"
	readmemory "github.com/strata-platform/strata/readapi/memory"
)

// ContentConfig is the content workflow's and the connected accounts'
// configuration: each social platform's and each write-back provider's
// client credentials and endpoints (STRATA_SOCIAL_<PLATFORM>_*,
// STRATA_CONNECT_<KIND>_*), and the publish timeout.
type ContentConfig struct {
	// Providers are the settings by provider name (photo_network, ...,
	// chat, mail, calendar, issues, notes).
	Providers map[string]connections.Settings
	// PublishTimeout bounds one publish attempt (STRATA_CONTENT_PUBLISH_TIMEOUT, 5m).
	PublishTimeout time.Duration
	// MaxMedia caps a fetched media file (STRATA_CONTENT_MAX_MEDIA_MB, 512).
	MaxMedia int64
	// AvatarProvider is the default avatar provider
	// (STRATA_AVATAR_PROVIDER: local-slideshow, heygen or d-id).
	AvatarProvider string
	// Avatar are the avatar providers' settings by name
	// (STRATA_AVATAR_HEYGEN_*, STRATA_AVATAR_DID_*: URL, API_KEY,
	// WEBHOOK_SECRET, DEFAULT_AVATAR).
	Avatar map[string]avatar.Config
}

// avatarEnv is each avatar provider's environment prefix and default base URL.
var avatarEnv = map[string][2]string{
	"heygen": {"STRATA_AVATAR_HEYGEN_", "https://api.heygen.com"},
	"d-id":   {"STRATA_AVATAR_DID_", "https://api.d-id.com"},
}

// providerEnv is each provider's environment prefix.
var providerEnv = map[string]string{
	platforms.PhotoNetwork: "STRATA_SOCIAL_PHOTO_NETWORK_", platforms.ShortVideo: "STRATA_SOCIAL_SHORT_VIDEO_",
	platforms.ProfessionalNetwork: "STRATA_SOCIAL_PROFESSIONAL_NETWORK_", platforms.VideoSite: "STRATA_SOCIAL_VIDEO_SITE_",
	actions.ProviderChat: "STRATA_CONNECT_CHAT_", actions.ProviderMail: "STRATA_CONNECT_MAIL_",
	actions.ProviderCalendar: "STRATA_CONNECT_CALENDAR_", actions.ProviderIssues: "STRATA_CONNECT_ISSUES_",
	actions.ProviderNotes: "STRATA_CONNECT_NOTES_",
}

func loadContentConfig(env map[string]string) (ContentConfig, error) {
	get := func(k string) string { return strings.TrimSpace(env[k]) }
	c := ContentConfig{Providers: map[string]connections.Settings{}, PublishTimeout: 5 * time.Minute, MaxMedia: 512 << 20}
	for name, prefix := range providerEnv {
		s := connections.Settings{Env: prefix, ClientID: get(prefix + "CLIENT_ID"), ClientSecret: get(prefix + "CLIENT_SECRET"),
			AuthURL: get(prefix + "AUTH_URL"), TokenURL: get(prefix + "TOKEN_URL"), RevokeURL: get(prefix + "REVOKE_URL"),
			APIBase: strings.TrimRight(get(prefix+"API_BASE"), "/")}
		for _, u := range []struct{ k, v string }{{"AUTH_URL", s.AuthURL}, {"TOKEN_URL", s.TokenURL}, {"REVOKE_URL", s.RevokeURL}, {"API_BASE", s.APIBase}} {
			if u.v != "" {
				if err := checkHTTPURL(u.v); err != nil {
					return c, fmt.Errorf("%s%s: %w", prefix, u.k, err)
				}
			}
		}
		if v := get(prefix + "SCOPES"); v != "" {
			s.Scopes = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
		}
		if (s.ClientID == "") != (s.ClientSecret == "") {
			return c, fmt.Errorf("%sCLIENT_ID and %sCLIENT_SECRET go together", prefix, prefix)
		}
		c.Providers[name] = s
	}
	if v := get("STRATA_CONTENT_PUBLISH_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second || d > 10*time.Minute {
			return c, fmt.Errorf("STRATA_CONTENT_PUBLISH_TIMEOUT: want a duration from 10s to 10m, got %q", v)
		}
		c.PublishTimeout = d
	}
	c.Avatar = map[string]avatar.Config{}
	for name, e := range avatarEnv {
		a := avatar.Config{BaseURL: strings.TrimRight(get(e[0]+"URL"), "/"), APIKey: get(e[0] + "API_KEY"),
			WebhookSecret: get(e[0] + "WEBHOOK_SECRET"), DefaultAvatar: get(e[0] + "DEFAULT_AVATAR")}
		if a.BaseURL == "" {
			a.BaseURL = e[1]
		} else if err := checkHTTPURL(a.BaseURL); err != nil {
			return c, fmt.Errorf("%sURL: %w", e[0], err)
		}
		c.Avatar[name] = a
	}
	c.AvatarProvider = strings.ToLower(get("STRATA_AVATAR_PROVIDER"))
	if _, ok := avatarEnv[c.AvatarProvider]; !ok && c.AvatarProvider != "" && c.AvatarProvider != "local-slideshow" {
		return c, fmt.Errorf("STRATA_AVATAR_PROVIDER: want local-slideshow, heygen or d-id, got %q", c.AvatarProvider)
	}
	if v := get("STRATA_CONTENT_MAX_MEDIA_MB"); v != "" {
		var mb int64
		if _, err := fmt.Sscan(v, &mb); err != nil || mb < 1 || mb > 4096 {
			return c, fmt.Errorf("STRATA_CONTENT_MAX_MEDIA_MB: want a whole number from 1 to 4096, got %q", v)
		}
		c.MaxMedia = mb << 20
	}
	return c, nil
}

// contentParts are what startContent built that the routes need.
type contentParts struct {
	Service *cmdcontent.Service
	Blobs   blobs.Store
	Links   *blobs.Links
	Actions *actions.Service
}

// startConnections builds the connected-accounts store every provider's
// adapter registers with: the four social platforms and the five
// write-back providers, each over the platform's SSRF-safe outbound client.
func startConnections(_ context.Context, app *App) error {
	cc := app.Config.Content
	conns, err := connections.New(connections.Config{Store: app.Store, Key: app.Identity.Master.Derive("connected account tokens"),
		Clock: app.Clock, IDs: app.IDs, Logger: app.Logger})
	if err != nil {
		return err
	}
	hc := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger, Timeout: cc.PublishTimeout,
		MaxResponseBytes: 16 << 20}).HTTPClient()
	plats := map[string]platforms.Platform{
		platforms.PhotoNetwork:        photo.New(cc.Providers[platforms.PhotoNetwork], hc),
		platforms.ShortVideo:          shortvideo.New(cc.Providers[platforms.ShortVideo], hc),
		platforms.ProfessionalNetwork: network.New(cc.Providers[platforms.ProfessionalNetwork], hc),
		platforms.VideoSite:           videosite.New(cc.Providers[platforms.VideoSite], hc),
	}
	for _, p := range plats {
		if err := conns.Register(p); err != nil {
			return err
		}
	}
	act := actions.New(app.Store, readmemory.ActionTokens(conns), actions.Adapters{
		Chat: actions.NewChat(cc.Providers[actions.ProviderChat], hc), Mail: actions.NewMail(cc.Providers[actions.ProviderMail], hc),
		Calendar: actions.NewCalendar(cc.Providers[actions.ProviderCalendar], hc),
		Issues:   actions.NewIssues(cc.Providers[actions.ProviderIssues], hc), Notes: actions.NewNotes(cc.Providers[actions.ProviderNotes], hc),
	}, app.Clock, app.IDs, app.Logger)
	if err := conns.Register(act.Providers()...); err != nil {
		return err
	}
	app.Connections, app.platforms, app.actions = conns, plats, act
	if app.Jobs != nil {
		return conns.RegisterJobs(app.Jobs)
	}
	return nil
}

// startContent builds the content workflow: twins, the calendar and its
// dispatcher, publishing, analytics and exports.
func startContent(ctx context.Context, app *App) error {
	cc := app.Config.Content
	store, err := openBlobStore(ctx, app.Config)
	if err != nil {
		return err
	}
	tr, err := transcriber(app.Config.Voice, app)
	if err != nil {
		return err
	}
	var engines []transcribe.Transcriber
	if tr != nil {
		engines = append(engines, tr)
	}
	media := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger, Timeout: cc.PublishTimeout})
	links := blobs.NewLinks(app.Identity.Master.Derive("content download links"), app.Clock.Now)
	apiClient := outbound.New(outbound.Config{Allow: app.Config.Voice.OutboundAllow, Logger: app.Logger, Timeout: time.Minute,
		MaxResponseBytes: 4 << 20})
	api := apiClient.HTTPClient()
	providers := map[string]avatar.Provider{}
	for name, a := range cc.Avatar {
		a.HTTPClient, a.Clock = api, app.Clock.Now
		if name == "heygen" {
			providers[name] = avatar.NewHeyGen(a)
		} else {
			providers[name] = avatar.NewDID(a)
		}
	}
	var tools *mediatools.Tools
	if t := mediatools.FindTools(); t.FFmpeg != "" && t.FFprobe != "" {
		tools = &t
	} else {
		app.Logger.Warn("content: ffmpeg not found: avatar slideshows, bulk reels and caption burn-in answer 503 (install Debian's ffmpeg, flite, espeak-ng)")
	}
	var credits cmdcontent.Credits
	if app.Gateway != nil && app.Gateway.Credits != nil {
		credits = app.Gateway.Credits.Billing
	}
	svc := cmdcontent.New(cmdcontent.Config{Store: app.Store, Connections: app.Connections, Platforms: app.platforms, Jobs: app.Jobs,
		Media: &cmdcontent.Fetcher{Client: media, Max: cc.MaxMedia}, Blobs: store, Links: links, DownloadBase: app.Config.Issuer,
		Clock: app.Clock, IDs: app.IDs, Logger: app.Logger, PublishTimeout: cc.PublishTimeout, Transcribers: engines,
		Tools: tools, AvatarProviders: providers, AvatarProvider: cc.AvatarProvider, Credits: credits, Webhooks: api,
		SecretKey: app.Identity.Master.Derive("content webhook signing"), CheckWebhook: apiClient.Check,
		Wait: func(ctx context.Context, key eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
			defer cancel()
			return app.Runner.WaitFor(wctx, key, projcontent.Name)
		}})
	if app.Jobs != nil {
		if err := svc.RegisterJobs(app.Jobs); err != nil {
			return err
		}
	}
	app.content = &contentParts{Service: svc, Blobs: store, Links: links, Actions: app.actions}
	return nil
}

// contentBodyLimits lets the caption upload be larger than the surface's
// default body limit.
func contentBodyLimits(surface string, app *App) func(*http.Request) int64 {
	if surface != "api" || app.content == nil {
		return nil
	}
	return readcontent.BodyLimit
}

// contentRoutes serves the content workflow on the platform API.
func contentRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.content == nil || app.Auth == nil {
		return
	}
	readcontent.Routes(r, readcontent.Config{Service: app.content.Service, Connections: app.Connections, DB: app.Store.DB(),
		Auth: app.Auth, Blobs: app.content.Blobs, Links: app.content.Links, BaseURL: app.Config.Issuer})
}
