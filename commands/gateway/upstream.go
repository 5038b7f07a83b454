package gateway

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// UpstreamsEnv names the environment variable holding the path of the
// upstream configuration file.
const UpstreamsEnv = "STRATA_GATEWAY_UPSTREAMS"

// Upstream formats: the wire format an upstream speaks.
const (
	FormatOpenAI   = "openai"   // POST {base_url}/chat/completions
	FormatMessages = "messages" // POST {base_url}/messages
)

// Defaults of an upstream's settings.
const (
	DefaultUpstreamTimeout = 60 * time.Second
	DefaultUpstreamRetries = 2
	DefaultUpstreamWeight  = 1
)

// UpstreamConfig is one upstream of the configuration file.
type UpstreamConfig struct {
	ID        string   `json:"id" yaml:"id"`
	Format    string   `json:"format" yaml:"format"`     // openai | messages
	BaseURL   string   `json:"base_url" yaml:"base_url"` // up to the version: http://127.0.0.1:8000/v1
	APIKeyEnv string   `json:"api_key_env,omitempty" yaml:"api_key_env,omitempty"`
	Timeout   string   `json:"timeout,omitempty" yaml:"timeout,omitempty"` // a Go duration; default 60s
	Retries   *int     `json:"retries,omitempty" yaml:"retries,omitempty"` // retries on 429/502/503; default 2
	Weight    *int     `json:"weight,omitempty" yaml:"weight,omitempty"`   // share among upstreams serving one model; default 1
	Models    []string `json:"models,omitempty" yaml:"models,omitempty"`   // catalog models it also serves (fallbacks)
}

// UpstreamsFile is the configuration file: {"upstreams": [...]}.
type UpstreamsFile struct {
	Upstreams []UpstreamConfig `json:"upstreams" yaml:"upstreams"`
}

// Upstream is a configured upstream, ready to call.
type Upstream struct {
	ID      string
	Format  string
	BaseURL string // without a trailing slash
	APIKey  string // from the environment variable the file names
	Timeout time.Duration
	Retries int
	Weight  int
	Models  []string
}

var upstreamIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// LoadUpstreams reads the configuration file at path (JSON, or YAML for a
// .yaml or .yml name), taking each upstream's key from the environment
// through getenv. A refusal names the upstream and the field.
func LoadUpstreams(path string, getenv func(string) string) ([]Upstream, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", UpstreamsEnv, err)
	}
	var f UpstreamsFile
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		dec.KnownFields(true)
		err = dec.Decode(&f)
	default:
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		err = dec.Decode(&f)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", UpstreamsEnv, path, err)
	}
	ups, err := ParseUpstreams(f, getenv)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", UpstreamsEnv, path, err)
	}
	return ups, nil
}

// ParseUpstreams validates a configuration and applies its defaults.
func ParseUpstreams(f UpstreamsFile, getenv func(string) string) ([]Upstream, error) {
	seen := map[string]bool{}
	var out []Upstream
	for i, c := range f.Upstreams {
		at := fmt.Sprintf("upstreams[%d]", i)
		if !upstreamIDRE.MatchString(c.ID) {
			return nil, fmt.Errorf("%s.id: %q must be 1-64 of a-z 0-9 . _ - (starting with a letter or digit)", at, c.ID)
		}
		at = fmt.Sprintf("upstreams[%d] (%s)", i, c.ID)
		if seen[c.ID] {
			return nil, fmt.Errorf("%s.id: listed twice", at)
		}
		seen[c.ID] = true
		if c.Format != FormatOpenAI && c.Format != FormatMessages {
			return nil, fmt.Errorf("%s.format: %q must be openai or messages", at, c.Format)
		}
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%s.base_url: %q must be an http(s) URL such as http://127.0.0.1:8000/v1", at, c.BaseURL)
		}
		up := Upstream{ID: c.ID, Format: c.Format, BaseURL: strings.TrimRight(c.BaseURL, "/"), Timeout: DefaultUpstreamTimeout,
			Retries: DefaultUpstreamRetries, Weight: DefaultUpstreamWeight, Models: c.Models}
		if c.APIKeyEnv != "" {
			if up.APIKey = getenv(c.APIKeyEnv); up.APIKey == "" {
				return nil, fmt.Errorf("%s.api_key_env: the environment variable %s is not set", at, c.APIKeyEnv)
			}
		}
		if c.Timeout != "" {
			d, err := time.ParseDuration(c.Timeout)
			if err != nil || d < time.Second || d > time.Hour {
				return nil, fmt.Errorf("%s.timeout: %q must be a duration between 1s and 1h", at, c.Timeout)
			}
			up.Timeout = d
		}
		if c.Retries != nil {
			if *c.Retries < 0 || *c.Retries > 10 {
				return nil, fmt.Errorf("%s.retries: %d must be 0-10", at, *c.Retries)
			}
			up.Retries = *c.Retries
		}
		if c.Weight != nil {
			if *c.Weight < 1 || *c.Weight > 1000 {
				return nil, fmt.Errorf("%s.weight: %d must be 1-1000", at, *c.Weight)
			}
			up.Weight = *c.Weight
		}
		out = append(out, up)
	}
	return out, nil
}
