package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/crm"
	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/eventstore/pgcluster"
	"github.com/strata-platform/strata/readapi/memory/embeddings"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/wordnet"
)

// Config is Strata's configuration, read from the environment (README.md has
// the table).
type Config struct {
	DatabaseURL  string
	DataDir      string
	Addrs        map[string]string // surface name -> listen address
	AdminAddr    string
	LogLevel     slog.Level
	MaxBodyBytes int64
	// MaxUploadBytes is the cap table's document size limit.
	MaxUploadBytes int64
	Version        string
	ReadWaitLimit  int    // milliseconds a route waits for its projectors (read-your-writes)
	SharedBuffers  string // shared_buffers of the embedded cluster ("" keeps PostgreSQL's default)
	MasterKey      string // base64 of 32 bytes; empty: <data dir>/master.key
	SMTPURL        string // empty: the dev mailbox under <data dir>/mail
	Issuer         string // public base URL of the platform API (JWT iss)
	BuilderURL     string // public base URL of the builder surface (its OAuth redirect URI's base)
	HackathonURL   string // public base URL of the hackathon surface (judge invitation links)
	ResetURL       string // password-reset link mailed to users
	TestAuth       bool   // serve /api/v1/test-auth (never in production)
	// Production (STRATA_ENV=production) refuses what is only for
	// development: the test-auth routes, the built-in development model
	// catalog, answers of the development upstream and `strata
	// dev-upstream` itself.
	Production bool
	// MemorySingleValued adds predicates to the memory graph's
	// single-valued set (STRATA_MEMORY_SINGLE_VALUED, comma-separated).
	MemorySingleValued []string
	// Embeddings is the optional OpenAI-compatible embeddings endpoint of
	// memory recall (STRATA_EMBEDDINGS_URL, _MODEL, _API_KEY); an empty URL
	// keeps recall offline.
	Embeddings embeddings.Config
	// WordNetDir is the WordNet database memory recall reads noun kinds
	// from (STRATA_WORDNET_DIR, default /usr/share/wordnet, "off": none).
	WordNetDir string
	// LLM is the optional OpenAI-compatible chat endpoint that rewrites
	// memory contexts and reflections (STRATA_LLM_URL, _MODEL, _API_KEY);
	// an empty URL keeps them extractive.
	LLM llm.Config
	// MemoryLLMExtract has the LLM endpoint extract each memory's entities
	// and facts too, merged with the offline extractor's: on when
	// STRATA_LLM_URL is set, unless STRATA_MEMORY_LLM_EXTRACT is off.
	MemoryLLMExtract bool
	// Social is social sign-in (STRATA_CODEHOST_*, STRATA_NETWORK_*): a
	// provider without a client id and secret answers 503.
	Social cmdidentity.SocialConfig
	// BlobS3 is the S3-compatible blob store (STRATA_BLOB_S3_*); nil keeps
	// files in <data dir>/blobs (one node).
	BlobS3 *blobs.S3Config
	// Jobs tunes the background jobs (STRATA_JOBS_*); zero fields take
	// commands/jobs' defaults.
	Jobs jobs.Config
	// Payments configures Stripe and the plans' prices (STRATA_STRIPE_*).
	Payments PaymentsConfig
	// CRM receives the accounts provisioned from paid checkouts
	// (STRATA_CRM_*); an empty URL sends nothing.
	CRM crm.Config
	// BuilderModel is the builder's model path (STRATA_BUILDER_MODEL_URL,
	// _MODEL, _API_KEY, STRATA_BUILDER_TOKEN_BUDGET); an empty BaseURL keeps
	// the builder on its offline template generator.
	BuilderModel cmdbuilder.ModelConfig
	// GatewayUpstreams are the inference gateway's upstreams, from the file
	// STRATA_GATEWAY_UPSTREAMS names (none: chat answers 503 naming it).
	GatewayUpstreams []cmdgateway.Upstream
	// Voice is the voice service's telephony and limits (STRATA_VOICE_*).
	Voice VoiceConfig
	// Briefing is the agent briefing's keys, agent names and daily run
	// (STRATA_INTERNAL_API_KEYS, STRATA_BRIEFING_*).
	Briefing BriefingConfig
	// Audit is the agent-readiness audit's configuration (STRATA_AUDIT_BOOKING_URL).
	Audit AuditConfig
	// Data is the data marketplace's configuration (STRATA_DATA_*).
	Data DataConfig
	// Content is the content workflow's and the connected accounts'
	// configuration (STRATA_SOCIAL_*, STRATA_CONNECT_*, STRATA_CONTENT_*).
	Content ContentConfig
}

var defaultAddrs = map[string]string{
	"api":       "127.0.0.1:8080",
	"builder":   "127.0.0.1:8081",
	"captable":  "127.0.0.1:8082",
	"voice":     "127.0.0.1:8083",
	"hackathon": "127.0.0.1:8084",
}

// commit is set at build time: -ldflags "-X main.commit=$(git rev-parse HEAD)"
// (Taskfile.yml's build and run do it); see versionFrom.
var commit = ""

func loadConfig(env map[string]string) (Config, error) {
	get := func(k, def string) string {
		if v := strings.TrimSpace(env[k]); v != "" {
			return v
		}
		return def
	}
	c := Config{
		DatabaseURL: get("DATABASE_URL", ""),
		DataDir:     get("STRATA_DATA_DIR", ".strata"),
		AdminAddr:   get("STRATA_ADMIN_ADDR", "127.0.0.1:8089"),
		Addrs:       map[string]string{},
		Version:     get("STRATA_VERSION", buildVersion()),
	}
	for name, def := range defaultAddrs {
		c.Addrs[name] = get("STRATA_"+strings.ToUpper(name)+"_ADDR", def)
	}
	if err := c.LogLevel.UnmarshalText([]byte(get("STRATA_LOG_LEVEL", "info"))); err != nil {
		return c, fmt.Errorf("STRATA_LOG_LEVEL: %w", err)
	}
	n, err := strconv.ParseInt(get("STRATA_MAX_BODY_BYTES", "1048576"), 10, 64)
	if err != nil || n <= 0 {
		return c, fmt.Errorf("STRATA_MAX_BODY_BYTES: must be a positive integer, got %q", env["STRATA_MAX_BODY_BYTES"])
	}
	c.MaxBodyBytes = n
	u, err := strconv.ParseInt(get("STRATA_MAX_UPLOAD_BYTES", "26214400"), 10, 64)
	if err != nil || u <= 0 {
		return c, fmt.Errorf("STRATA_MAX_UPLOAD_BYTES: must be a positive integer, got %q", env["STRATA_MAX_UPLOAD_BYTES"])
	}
	c.MaxUploadBytes = u
	w, err := strconv.Atoi(get("STRATA_READ_WAIT_MS", "2000"))
	if err != nil || w <= 0 {
		return c, fmt.Errorf("STRATA_READ_WAIT_MS: must be a positive integer, got %q", env["STRATA_READ_WAIT_MS"])
	}
	c.ReadWaitLimit = w
	c.SharedBuffers = get("STRATA_PG_SHARED_BUFFERS", "auto")
	if c.SharedBuffers == "auto" {
		c.SharedBuffers = pgcluster.AutoSharedBuffers()
	} else if err := pgcluster.CheckSize(c.SharedBuffers); err != nil {
		return c, fmt.Errorf("STRATA_PG_SHARED_BUFFERS: %w", err)
	}
	c.MasterKey = get("STRATA_MASTER_KEY", "")
	c.SMTPURL = get("STRATA_SMTP_URL", "")
	c.Issuer = strings.TrimRight(get("STRATA_PUBLIC_URL", "http://"+c.Addrs["api"]), "/")
	c.ResetURL = get("STRATA_RESET_URL", c.Issuer+"/reset-password")
	c.BuilderURL = strings.TrimRight(get("STRATA_BUILDER_PUBLIC_URL", "http://"+c.Addrs["builder"]), "/")
	c.HackathonURL = strings.TrimRight(get("STRATA_HACKATHON_PUBLIC_URL", "http://"+c.Addrs["hackathon"]), "/")
	for name, v := range map[string]string{"STRATA_PUBLIC_URL": c.Issuer, "STRATA_BUILDER_PUBLIC_URL": c.BuilderURL,
		"STRATA_HACKATHON_PUBLIC_URL": c.HackathonURL} {
		if err := checkHTTPURL(v); err != nil {
			return c, fmt.Errorf("%s: %w", name, err)
		}
	}
	switch v := get("STRATA_ENABLE_TEST_AUTH", "false"); v {
	case "true", "1":
		c.TestAuth = true
	case "false", "0":
	default:
		return c, fmt.Errorf("STRATA_ENABLE_TEST_AUTH: want true or false, got %q", v)
	}
	switch v := get("STRATA_ENV", "development"); v {
	case "production":
		c.Production = true
		if c.TestAuth {
			return c, fmt.Errorf("STRATA_ENABLE_TEST_AUTH: the test-auth routes are never served with STRATA_ENV=production")
		}
	case "development":
	default:
		return c, fmt.Errorf("STRATA_ENV: want development or production, got %q", v)
	}
	urls := []struct {
		dst       *string
		name, def string
	}{
		{&c.Social.Codehost.AuthorizeURL, "STRATA_CODEHOST_AUTHORIZE_URL", cmdidentity.DefaultCodehostAuthorizeURL},
		{&c.Social.Codehost.TokenURL, "STRATA_CODEHOST_TOKEN_URL", cmdidentity.DefaultCodehostTokenURL},
		{&c.Social.Codehost.APIURL, "STRATA_CODEHOST_API_URL", cmdidentity.DefaultCodehostAPIURL},
		{&c.Social.Network.Issuer, "STRATA_NETWORK_ISSUER", cmdidentity.DefaultNetworkIssuer},
		{&c.Social.Network.AuthorizeURL, "STRATA_NETWORK_AUTHORIZE_URL", cmdidentity.DefaultNetworkAuthorizeURL},
		{&c.Social.Network.TokenURL, "STRATA_NETWORK_TOKEN_URL", cmdidentity.DefaultNetworkTokenURL},
		{&c.Social.Network.JWKSURL, "STRATA_NETWORK_JWKS_URL", cmdidentity.DefaultNetworkJWKSURL},
		{&c.Social.Network.UserinfoURL, "STRATA_NETWORK_USERINFO_URL", cmdidentity.DefaultNetworkUserinfoURL},
	}
	for _, u := range urls {
		*u.dst = get(u.name, u.def)
		if err := checkHTTPURL(*u.dst); err != nil {
			return c, fmt.Errorf("%s: %w", u.name, err)
		}
	}
	for _, p := range strings.Split(get("STRATA_MEMORY_SINGLE_VALUED", ""), ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.MemorySingleValued = append(c.MemorySingleValued, p)
		}
	}
	c.Embeddings = embeddings.Config{URL: get("STRATA_EMBEDDINGS_URL", ""),
		Model: get("STRATA_EMBEDDINGS_MODEL", embeddings.DefaultModel), APIKey: get("STRATA_EMBEDDINGS_API_KEY", "")}
	if c.Embeddings.URL != "" {
		if _, err := embeddings.New(c.Embeddings); err != nil {
			return c, fmt.Errorf("STRATA_EMBEDDINGS_URL: %w", err)
		}
	}
	if c.BuilderModel, err = loadBuilderModel(get); err != nil {
		return c, err
	}
	c.WordNetDir = get("STRATA_WORDNET_DIR", wordnet.DefaultDir)
	if c.WordNetDir == "off" {
		c.WordNetDir = ""
	} else if _, set := env["STRATA_WORDNET_DIR"]; set {
		if _, err := os.Stat(filepath.Join(c.WordNetDir, "data.noun")); err != nil {
			return c, fmt.Errorf("STRATA_WORDNET_DIR: no WordNet noun database: %w", err)
		}
	}
	c.LLM = llm.Config{URL: get("STRATA_LLM_URL", ""), Model: get("STRATA_LLM_MODEL", llm.DefaultModel),
		APIKey: get("STRATA_LLM_API_KEY", "")}
	if c.LLM.URL != "" {
		if _, err := llm.New(c.LLM); err != nil {
			return c, fmt.Errorf("STRATA_LLM_URL: %w", err)
		}
	}
	switch v := strings.ToLower(get("STRATA_MEMORY_LLM_EXTRACT", "on")); v {
	case "on", "true", "1":
		c.MemoryLLMExtract = c.LLM.URL != ""
	case "off", "false", "0":
	default:
		return c, fmt.Errorf("STRATA_MEMORY_LLM_EXTRACT: want on or off, got %q", v)
	}
	c.Social.Codehost.ClientID = get("STRATA_CODEHOST_CLIENT_ID", "")
	c.Social.Codehost.ClientSecret = get("STRATA_CODEHOST_CLIENT_SECRET", "")
	c.Social.Network.ClientID = get("STRATA_NETWORK_CLIENT_ID", "")
	c.Social.Network.ClientSecret = get("STRATA_NETWORK_CLIENT_SECRET", "")
	if c.BlobS3, err = loadBlobConfig(env, c.DataDir); err != nil {
		return c, err
	}
	if c.Jobs, err = loadJobsConfig(env); err != nil {
		return c, err
	}
	if c.Payments, err = loadPaymentsConfig(env); err != nil {
		return c, err
	}
	if c.CRM, err = loadCRMConfig(env); err != nil {
		return c, err
	}
	if c.Voice, err = loadVoiceConfig(env, c.Addrs["voice"]); err != nil {
		return c, err
	}
	if c.Briefing, err = loadBriefingConfig(env); err != nil {
		return c, err
	}
	if c.Audit, err = loadAuditConfig(env); err != nil {
		return c, err
	}
	if c.Data, err = loadDataConfig(env); err != nil {
		return c, err
	}
	if c.Content, err = loadContentConfig(env); err != nil {
		return c, err
	}
	if path := get(cmdgateway.UpstreamsEnv, ""); path != "" {
		if c.GatewayUpstreams, err = cmdgateway.LoadUpstreams(path, func(k string) string { return env[k] }); err != nil {
			return c, err
		}
	}
	return c, nil
}

// checkHTTPURL accepts an absolute http or https URL with a host.
func checkHTTPURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an absolute http(s) URL, got %q", raw)
	}
	if u.User != nil || u.Fragment != "" {
		return fmt.Errorf("must not carry user information or a fragment, got %q", u.Redacted())
	}
	return nil
}

// buildVersion returns the version this binary reports (`strata version`,
// the builder health check); see versionFrom.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(commit, info, builtByGoRun(), gitHead)
}

// versionFrom picks the version, first found: the linker flag
// (`-ldflags "-X main.commit=..."`, which Taskfile.yml's build and run pass
// and which works outside a git checkout); the VCS revision `go build` and
// `go run` stamp from a git checkout (with "-dirty" for uncommitted changes;
// GOFLAGS=-buildvcs=false turns the stamp off); the module version of `go
// install module@version`; for a `go run` build only, the HEAD of the git
// checkout it runs in (a binary run elsewhere must not report the commit of
// whatever checkout it happens to run in); else "dev".
func versionFrom(commit string, info *debug.BuildInfo, goRun bool, git func() string) string {
	if commit != "" {
		return commit
	}
	if info != nil {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if modified == "true" {
				return rev + "-dirty"
			}
			return rev
		}
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	if goRun {
		if v := git(); v != "" {
			return v
		}
	}
	return "dev"
}

// gitHead returns `git rev-parse HEAD` in the working directory, "" when
// that fails.
func gitHead() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}

// loadBuilderModel reads the builder's model path: an OpenAI-compatible
// endpoint (Strata's own gateway, .../v1) with a key and a model or
// router id, and the token budget of one generation.
func loadBuilderModel(get func(k, def string) string) (cmdbuilder.ModelConfig, error) {
	m := cmdbuilder.ModelConfig{BaseURL: get("STRATA_BUILDER_MODEL_URL", ""), APIKey: get("STRATA_BUILDER_MODEL_API_KEY", ""),
		Model: get("STRATA_BUILDER_MODEL", "software-engineering")}
	if m.BaseURL == "" {
		return m, nil
	}
	if err := checkHTTPURL(m.BaseURL); err != nil {
		return m, fmt.Errorf("STRATA_BUILDER_MODEL_URL: %w", err)
	}
	b, err := strconv.Atoi(get("STRATA_BUILDER_TOKEN_BUDGET", strconv.Itoa(cmdbuilder.DefaultModelBudget)))
	if err != nil || b < 1000 || b > 10_000_000 {
		return m, fmt.Errorf("STRATA_BUILDER_TOKEN_BUDGET: must be an integer between 1000 and 10000000")
	}
	m.Budget = b
	return m, nil
}
