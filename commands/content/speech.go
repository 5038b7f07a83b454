package content

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/domain/content"
)

// Spoken is a script spoken sentence by sentence: the sentences' WAV
// files in order, the caption cues timed from each sentence's measured
// audio, and the total length.
type Spoken struct {
	WAVs     []string
	Cues     []media.Cue
	Duration time.Duration
}

// SpeakScript speaks script with voice v, one WAV per sentence in dir, and
// builds the captions by the readable-caption rules, each sentence's words
// spread over its own measured audio.
func SpeakScript(ctx context.Context, tools *media.Tools, v media.Voice, script, dir string) (Spoken, error) {
	var sp Spoken
	var words []content.TimedWord
	for i, sentence := range content.Sentences(script) {
		wav := filepath.Join(dir, fmt.Sprintf("sentence-%03d.wav", i))
		d, err := tools.Speak(ctx, v, sentence, wav)
		if err != nil {
			return sp, fmt.Errorf("speak sentence %d: %w", i+1, err)
		}
		words = append(words, content.SpreadWords(sp.Duration, sp.Duration+d, sentence)...)
		sp.WAVs = append(sp.WAVs, wav)
		sp.Duration += d
	}
	sp.Cues = mediaCues(content.BuildCues(words, content.DefaultCueRules))
	return sp, nil
}
