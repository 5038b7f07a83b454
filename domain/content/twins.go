// Package content is the content workflow's domain: twins (personas wired
// to a memory namespace), posts (calendar items and direct publishes) with
// their publish targets, the per-platform limits a post is checked against
// when it is scheduled, tasks, and daily social analytics. It decides and
// records; it calls nothing.
package content

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types and ids.
const (
	StreamTwin      = "content.twin"
	StreamPost      = "content.post"
	StreamTask      = "content.task"
	StreamAnalytics = "content.analytics"
)

// TwinStream names a twin's stream.
func TwinStream(id string) string { return "content-twin:" + id }

// Namespace is a twin's memory namespace.
func Namespace(twinID string) string { return "twin_" + twinID }

// Twin is a persona: identity, voice and style.
type Twin struct {
	ID               string                    `json:"id"`
	Owner            string                    `json:"owner"`
	Name             string                    `json:"name"`
	VoiceID          string                    `json:"voice_id"`
	StyleTags        []string                  `json:"style_tags"`
	PersonaPrompt    string                    `json:"persona_prompt"`
	PlatformDefaults map[string]map[string]any `json:"platform_defaults"`
	CreatedAt        time.Time                 `json:"created_at"`
	UpdatedAt        time.Time                 `json:"updated_at"`
	Deleted          bool                      `json:"-"`
}

// TwinFields are a twin's editable fields; nil means "not given" (PATCH).
type TwinFields struct {
	Name             *string                    `json:"name"`
	VoiceID          *string                    `json:"voice_id"`
	StyleTags        *[]string                  `json:"style_tags"`
	PersonaPrompt    *string                    `json:"persona_prompt"`
	PlatformDefaults *map[string]map[string]any `json:"platform_defaults"`
}

// TwinCreated records a new twin with all its fields.
type TwinCreated struct {
	Twin Twin      `json:"twin"`
	By   string    `json:"by"`
	At   time.Time `json:"at"`
}

// TwinUpdated records a twin's fields after a partial update (all of them).
type TwinUpdated struct {
	Twin Twin      `json:"twin"`
	By   string    `json:"by"`
	At   time.Time `json:"at"`
}

// TwinDeleted records a soft delete: later reads answer 404.
type TwinDeleted struct {
	TwinID string    `json:"twin_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*TwinCreated) EventType() string { return "content.twin_created" }

// EventType implements kernel.Event.
func (*TwinUpdated) EventType() string { return "content.twin_updated" }

// EventType implements kernel.Event.
func (*TwinDeleted) EventType() string { return "content.twin_deleted" }

// Apply folds an event into the twin.
func (t *Twin) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *TwinCreated:
		*t = ev.Twin
	case *TwinUpdated:
		*t = ev.Twin
	case *TwinDeleted:
		t.Deleted, t.UpdatedAt = true, ev.At
	}
}

// Twin field limits.
const (
	MaxTwinName      = 100
	MaxVoiceID       = 128
	MaxStyleTags     = 20
	MaxStyleTag      = 50
	MaxPersonaPrompt = 10000
	MaxDefaultsBytes = 8192
)

// Merge applies f to t (only the fields given) and checks the result;
// create says every required field must be present.
func (t Twin) Merge(f TwinFields, create bool) (Twin, error) {
	if create && f.Name == nil {
		return t, kernel.Invalid("name", "required", "name is required")
	}
	if f.Name != nil {
		n := strings.TrimSpace(*f.Name)
		if n == "" || utf8.RuneCountInString(n) > MaxTwinName {
			return t, kernel.Invalid("name", "length:1-100", fmt.Sprintf("name must be 1-%d characters", MaxTwinName))
		}
		t.Name = n
	}
	if f.VoiceID != nil {
		v := strings.TrimSpace(*f.VoiceID)
		if utf8.RuneCountInString(v) > MaxVoiceID || strings.ContainsAny(v, " \t\r\n") {
			return t, kernel.Invalid("voice_id", "format", fmt.Sprintf("voice_id must be at most %d characters without spaces", MaxVoiceID))
		}
		t.VoiceID = v
	}
	if f.StyleTags != nil {
		tags, err := styleTags(*f.StyleTags)
		if err != nil {
			return t, err
		}
		t.StyleTags = tags
	}
	if t.StyleTags == nil {
		t.StyleTags = []string{}
	}
	if f.PersonaPrompt != nil {
		if utf8.RuneCountInString(*f.PersonaPrompt) > MaxPersonaPrompt {
			return t, kernel.Invalid("persona_prompt", "length:0-10000", fmt.Sprintf("persona_prompt must be at most %d characters", MaxPersonaPrompt))
		}
		t.PersonaPrompt = *f.PersonaPrompt
	}
	if f.PlatformDefaults != nil {
		d, err := platformDefaults(*f.PlatformDefaults)
		if err != nil {
			return t, err
		}
		t.PlatformDefaults = d
	}
	if t.PlatformDefaults == nil {
		t.PlatformDefaults = map[string]map[string]any{}
	}
	return t, nil
}

func styleTags(in []string) ([]string, error) {
	if len(in) > MaxStyleTags {
		return nil, kernel.Invalid("style_tags", "max_items:20", fmt.Sprintf("style_tags may hold at most %d tags", MaxStyleTags))
	}
	out := make([]string, 0, len(in))
	for i, tag := range in {
		tag = strings.TrimSpace(tag)
		field := fmt.Sprintf("style_tags[%d]", i)
		if tag == "" || utf8.RuneCountInString(tag) > MaxStyleTag {
			return nil, kernel.Invalid(field, "length:1-50", fmt.Sprintf("%s must be 1-%d characters", field, MaxStyleTag))
		}
		if !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	return out, nil
}

func platformDefaults(in map[string]map[string]any) (map[string]map[string]any, error) {
	for k, v := range in {
		if !ValidPlatform(k) {
			return nil, kernel.Invalid("platform_defaults."+k, "platform",
				"platform_defaults keys must be platforms: "+strings.Join(Platforms, ", "))
		}
		if v == nil {
			return nil, kernel.Invalid("platform_defaults."+k, "object", "platform_defaults."+k+" must be an object of settings")
		}
	}
	raw, err := json.Marshal(in)
	if err != nil || len(raw) > MaxDefaultsBytes {
		return nil, kernel.Invalid("platform_defaults", "max_bytes:8192", "platform_defaults must be at most 8192 bytes of JSON")
	}
	return in, nil
}
