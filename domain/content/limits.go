package content

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// The platforms (the seed's neutral names).
const (
	PhotoNetwork        = "photo_network"
	ShortVideo          = "short_video"
	ProfessionalNetwork = "professional_network"
	VideoSite           = "video_site"
)

// Platforms lists the platforms in documented order.
var Platforms = []string{PhotoNetwork, ShortVideo, ProfessionalNetwork, VideoSite}

// ValidPlatform reports whether p is a platform name.
func ValidPlatform(p string) bool { return slices.Contains(Platforms, p) }

// Media kinds.
const (
	MediaVideo = "video"
	MediaImage = "image"
)

// Media is one image or video of a post, by URL.
type Media struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
}

// Counting rules of text lengths.
const (
	CountCodePoints = "code_points" // Unicode code points
	CountUTF16      = "utf16_units" // UTF-16 code units (an emoji outside the BMP counts 2)
	CountBytes      = "utf8_bytes"  // bytes of UTF-8
)

// Limits are one platform's publishing limits.
type Limits struct {
	Platform string `json:"platform"`
	// Text is the caption, commentary or description.
	TextMax   int    `json:"text_max"`
	TextCount string `json:"text_count"`
	// TitleMax bounds the title where the platform publishes one (0: the
	// title is ours only, not sent).
	TitleMax   int    `json:"title_max,omitempty"`
	TitleCount string `json:"title_count,omitempty"`
	// NoAngleBrackets: the platform refuses < and > in title and text.
	NoAngleBrackets bool `json:"no_angle_brackets,omitempty"`
	MaxHashtags     int  `json:"max_hashtags,omitempty"`
	MaxMentions     int  `json:"max_mentions,omitempty"`
	// MediaMin and MediaMax bound the media count; Kinds are the kinds
	// allowed; VideoAlone: a video must be the only media.
	MediaMin   int      `json:"media_min"`
	MediaMax   int      `json:"media_max"`
	Kinds      []string `json:"kinds"`
	VideoAlone bool     `json:"video_alone,omitempty"`
	Source     string   `json:"source"`
}

// LimitsVersion names the limits table below; a post records the version
// it was checked against.
const LimitsVersion = "2026-11-01"

// LimitsTable is the versioned per-platform limits table (the platforms'
// published limits as of LimitsVersion).
var LimitsTable = map[string]Limits{
	PhotoNetwork: {Platform: PhotoNetwork, TextMax: 2200, TextCount: CountUTF16, MaxHashtags: 30, MaxMentions: 20,
		MediaMin: 1, MediaMax: 10, Kinds: []string{MediaImage, MediaVideo},
		Source: "Instagram Graph API content publishing: caption 2,200 characters, 30 hashtags, 20 @ tags; carousels of up to 10 items"},
	ShortVideo: {Platform: ShortVideo, TextMax: 2200, TextCount: CountUTF16,
		MediaMin: 1, MediaMax: 1, Kinds: []string{MediaVideo},
		Source: "TikTok Content Posting API: post_info.title at most 2,200 UTF-16 runes; one video per post"},
	ProfessionalNetwork: {Platform: ProfessionalNetwork, TextMax: 3000, TextCount: CountCodePoints,
		MediaMin: 0, MediaMax: 20, Kinds: []string{MediaImage, MediaVideo}, VideoAlone: true,
		Source: "LinkedIn Posts API: commentary up to 3,000 characters; up to 20 images (MultiImage) or one video"},
	VideoSite: {Platform: VideoSite, TextMax: 5000, TextCount: CountBytes, TitleMax: 100, TitleCount: CountCodePoints,
		NoAngleBrackets: true, MediaMin: 1, MediaMax: 1, Kinds: []string{MediaVideo},
		Source: "YouTube Data API videos.insert: snippet.title at most 100 characters, snippet.description at most 5,000 bytes, neither may contain < or >; one video"},
}

// Count measures s by rule.
func Count(s, rule string) int {
	switch rule {
	case CountUTF16:
		return len(utf16.Encode([]rune(s)))
	case CountBytes:
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

var (
	hashtagRE = regexp.MustCompile(`(^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+`)
	mentionRE = regexp.MustCompile(`(^|[^\p{L}\p{N}_.])@[A-Za-z0-9_.]+`)
)

// FieldError is one field's failed rule.
type FieldError struct {
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// CheckPost checks a post's title, text and media against platform's
// limits. It returns the failed rules (empty: fine) and warnings: what the
// post still lacks before it can be published (a video platform's video),
// which does not refuse scheduling.
func CheckPost(platform, title, text string, media []Media) (errs []FieldError, warnings []string) {
	l := LimitsTable[platform]
	add := func(field, rule, msg string) { errs = append(errs, FieldError{Field: field, Rule: rule, Message: msg}) }
	unit := map[string]string{CountUTF16: "UTF-16 code units", CountBytes: "bytes (UTF-8)", CountCodePoints: "characters"}
	if n := Count(text, l.TextCount); n > l.TextMax {
		add("script", fmt.Sprintf("max_length:%d", l.TextMax),
			fmt.Sprintf("script is %d %s; %s allows at most %d", n, unit[l.TextCount], platform, l.TextMax))
	}
	if l.TitleMax > 0 {
		if n := Count(title, l.TitleCount); n > l.TitleMax {
			add("title", fmt.Sprintf("max_length:%d", l.TitleMax),
				fmt.Sprintf("title is %d %s; %s allows at most %d", n, unit[l.TitleCount], platform, l.TitleMax))
		}
	}
	if l.NoAngleBrackets {
		if strings.ContainsAny(title, "<>") {
			add("title", "no_angle_brackets", platform+" does not accept < or > in a title")
		}
		if strings.ContainsAny(text, "<>") {
			add("script", "no_angle_brackets", platform+" does not accept < or > in a description")
		}
	}
	if l.MaxHashtags > 0 {
		if n := len(hashtagRE.FindAllString(text, -1)); n > l.MaxHashtags {
			add("script", fmt.Sprintf("max_hashtags:%d", l.MaxHashtags), fmt.Sprintf("script has %d hashtags; %s allows at most %d", n, platform, l.MaxHashtags))
		}
	}
	if l.MaxMentions > 0 {
		if n := len(mentionRE.FindAllString(text, -1)); n > l.MaxMentions {
			add("script", fmt.Sprintf("max_mentions:%d", l.MaxMentions), fmt.Sprintf("script has %d @mentions; %s allows at most %d", n, platform, l.MaxMentions))
		}
	}
	errs = append(errs, checkMedia(l, media)...)
	if len(media) < l.MediaMin {
		warnings = append(warnings, fmt.Sprintf("%s needs %s before it can publish this item (media: %s)", platform,
			needs(l), strings.Join(l.Kinds, " or ")))
	}
	if len(media) == 0 && strings.TrimSpace(text) == "" && platform == ProfessionalNetwork {
		add("script", "required", "script is required for a professional_network post without media")
	}
	return errs, warnings
}

func needs(l Limits) string {
	if l.MediaMax == 1 {
		return "one " + l.Kinds[0]
	}
	return fmt.Sprintf("at least %d media item", l.MediaMin)
}

func checkMedia(l Limits, media []Media) []FieldError {
	var errs []FieldError
	if len(media) > l.MediaMax {
		errs = append(errs, FieldError{Field: "media", Rule: fmt.Sprintf("max_items:%d", l.MediaMax),
			Message: fmt.Sprintf("%s takes at most %d media items per post; got %d", l.Platform, l.MediaMax, len(media))})
	}
	videos := 0
	for i, m := range media {
		field := fmt.Sprintf("media[%d]", i)
		if !slices.Contains(l.Kinds, m.Kind) {
			errs = append(errs, FieldError{Field: field + ".kind", Rule: "enum",
				Message: fmt.Sprintf("%s.kind must be one of %s on %s", field, strings.Join(l.Kinds, ", "), l.Platform)})
		}
		if m.Kind == MediaVideo {
			videos++
		}
		if err := CheckMediaURL(field+".url", m.URL); err != nil {
			errs = append(errs, FieldError{Field: field + ".url", Rule: "url", Message: err.Error()})
		}
	}
	if l.VideoAlone && videos > 0 && len(media) > 1 {
		errs = append(errs, FieldError{Field: "media", Rule: "video_alone", Message: l.Platform + " takes a video only as the post's one media item"})
	}
	return errs
}

// CheckMediaURL accepts an absolute http(s) URL without user info, at most
// 2,000 bytes. Whether its address may be fetched is checked when it is
// fetched (the SSRF-safe client).
func CheckMediaURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(raw) > 2000 {
		return kernel.Invalid(field, "url", field+" must be an absolute http or https URL without user info (at most 2000 bytes)")
	}
	return nil
}
