package transcribe

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Transcriber turns speech into text. Implementations are safe for
// concurrent use.
type Transcriber interface {
	// Name is the engine's label as it appears in Transcript.Engine.
	Name() string
	// Languages lists the BCP 47 tags the engine serves; "*" means any
	// language (see Serves).
	Languages() []string
	// Transcribe recognises the speech in a. A language the engine does not
	// serve is refused with a *LanguageError (errors.Is ErrLanguage).
	Transcribe(ctx context.Context, a Audio) (Transcript, error)
}

// Audio is the speech to transcribe: either WAV (call recordings and
// voicemails are 8 kHz WAV; the offline engine reads any container and
// codec ffmpeg reads, the OpenAI engine uploads it as audio.wav) or PCM,
// mono signed 16-bit samples at SampleRate. WAV wins when both are set.
type Audio struct {
	WAV        []byte
	PCM        []int16
	SampleRate int // of PCM, in Hz
	// Language is the BCP 47 tag of the speech; empty means "en".
	Language string
}

// Transcript is an engine's reading of the audio, labelled with what made
// it so that it is never taken for more than it is.
type Transcript struct {
	// Engine names the engine, its version and model, e.g.
	// "pocketsphinx 0.8+5prealpha+1-15 en-us" or "openai whisper-1".
	Engine string
	// Language is the BCP 47 tag the audio was transcribed as (the asked one).
	Language string
	// Text is the whole transcript: the segments' texts joined by spaces.
	Text string
	// Confidence is in [0,1], derived as the engine's documentation says
	// (see the package doc); nil when the engine gave nothing to derive it
	// from, never a made-up value.
	Confidence *float64
	// Segments are time-ordered, non-overlapping stretches of speech.
	Segments []Segment
}

// Segment is a stretch of speech with its times from the audio's start.
type Segment struct {
	Start, End time.Duration
	Text       string
	Confidence *float64 // in [0,1] or nil, as Transcript.Confidence
	// NoSpeechProb is the engine's probability that the segment holds no
	// speech at all (OpenAI-compatible endpoints); nil when not given.
	NoSpeechProb *float64
	// Words are the recognised words with their own times and confidences
	// (pocketsphinx); nil when the engine reports segments only.
	Words []Word
}

// Word is one recognised word.
type Word struct {
	Start, End time.Duration
	Text       string
	Confidence *float64 // in [0,1] or nil
}

// ErrLanguage is matched (errors.Is) by every *LanguageError.
var ErrLanguage = errors.New("transcribe: language not served")

// ErrUnavailable means an engine's program, model or endpoint is missing or
// unusable; the wrapping error says which and how to get it.
var ErrUnavailable = errors.New("transcribe: engine unavailable")

// ErrTimeout means the engine did not finish within its Timeout; the
// wrapping error also matches context.DeadlineExceeded.
var ErrTimeout = errors.New("transcribe: timed out")

// Offer is an engine and the languages it serves.
type Offer struct {
	Engine    string
	Languages []string
}

// LanguageError refuses a language no configured engine serves. It names the
// engines asked and what they serve, and the kinds of engine that would
// serve the language if configured.
type LanguageError struct {
	Language string
	Engines  []Offer
	// Could lists engines that are not configured but would serve Language.
	Could []string
}

// Error names the language, the engines and what they serve.
func (e *LanguageError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "transcribe: no engine serves language %q", e.Language)
	for i, o := range e.Engines {
		sep := "; "
		if i == 0 {
			sep = " (configured: "
		}
		fmt.Fprintf(&b, "%s%s serves %s", sep, o.Engine, strings.Join(o.Languages, ", "))
	}
	if len(e.Engines) > 0 {
		b.WriteString(")")
	} else {
		b.WriteString(" (no engine configured)")
	}
	if len(e.Could) > 0 {
		fmt.Fprintf(&b, "; it would be served by %s", strings.Join(e.Could, " or "))
	}
	return b.String()
}

// Is makes errors.Is(err, ErrLanguage) true.
func (e *LanguageError) Is(target error) bool { return target == ErrLanguage }

// refuse builds the LanguageError for lang over engines.
func refuse(lang string, engines ...Transcriber) *LanguageError {
	e := &LanguageError{Language: lang}
	for _, t := range engines {
		e.Engines = append(e.Engines, Offer{Engine: t.Name(), Languages: t.Languages()})
	}
	e.Could = append(e.Could, "an OpenAI-compatible transcription endpoint (OpenAI engine, e.g. whisper-1)")
	if primary(lang) == "en" {
		e.Could = append(e.Could, "the offline Pocketsphinx engine (Debian packages pocketsphinx, pocketsphinx-en-us and ffmpeg)")
	} else {
		e.Could = append(e.Could, "pocketsphinx with a "+lang+" acoustic model, language model and dictionary (not packaged in Debian)")
	}
	return e
}

// Serves reports whether an engine offering langs serves the BCP 47 tag
// lang: "*" serves every language, otherwise the primary language subtags
// must be equal ("en-US" serves "en" and "en-GB": the engine's label says
// which variant its model is).
func Serves(langs []string, lang string) bool {
	want := primary(lang)
	for _, l := range langs {
		if l == "*" || primary(l) == want {
			return true
		}
	}
	return false
}

// Pick returns a router that, for a BCP 47 tag, gives the first of engines
// that serves it, or a *LanguageError naming every engine and its
// languages. An empty tag means "en".
func Pick(engines ...Transcriber) func(lang string) (Transcriber, error) {
	engines = append([]Transcriber(nil), engines...)
	return func(lang string) (Transcriber, error) {
		lang = languageOf(lang)
		for _, t := range engines {
			if Serves(t.Languages(), lang) {
				return t, nil
			}
		}
		return nil, refuse(lang, engines...)
	}
}

// languageOf defaults an empty tag to "en".
func languageOf(lang string) string {
	if lang = strings.TrimSpace(lang); lang == "" {
		return "en"
	}
	return lang
}

// primary is the lower-cased primary language subtag of a BCP 47 tag.
func primary(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	return tag
}

// clamp01 bounds a probability to [0,1]; engines round past the ends
// (pocketsphinx prints 1.000100 for certain words).
func clamp01(p float64) float64 {
	switch {
	case p < 0 || p != p:
		return 0
	case p > 1:
		return 1
	}
	return p
}
