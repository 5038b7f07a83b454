package transcribe

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// humanSpeechDir is where Debian's pocketsphinx-testdata puts
// pocketsphinx's test recordings.
const humanSpeechDir = "/usr/share/pocketsphinx/test/data"

// humanMaxWER is the target for recorded human speech: the
// aggregate word error rate (total edits / total reference words) of the
// offline engine over the clips below.
const humanMaxWER = 0.45

// humanSpeechSets are the recordings in pocketsphinx-testdata that come
// with a reference transcript: a sphinx .transcription file whose lines
// are "<s> words </s> (id)", the clip being dir/id.wav (16 kHz mono 16-bit
// WAV). cards is playing-card names read aloud (recorded for a
// JSGF grammar, read here with the general model); librivox is five
// sentences of a LibriVox reading of Sense and Sensibility. The package's
// other recordings (goforward.raw, numbers.raw, something.raw,
// tidigits/dhd.2934z.raw) ship without a reference transcript, and its
// tidigits *.mfc are features, not audio.
var humanSpeechSets = []struct{ dir, transcription string }{
	{"cards", "cards.transcription"},
	{"librivox", "transcription"},
}

// humanClip is a recording and what was said in it.
type humanClip struct {
	name, wav, ref string
}

// readTranscription parses a sphinx .transcription file: each line's
// trailing "(id)" names dir/id.wav, and the sentence markers <s> and </s>
// are dropped.
func readTranscription(t *testing.T, dir, file string) []humanClip {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	var clips []humanClip
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		open := strings.LastIndex(line, "(")
		if open < 0 || !strings.HasSuffix(line, ")") {
			t.Fatalf("%s: no utterance id in %q", file, line)
		}
		id := strings.TrimSpace(line[open+1 : len(line)-1])
		var ref []string
		for _, w := range strings.Fields(line[:open]) {
			if w != "<s>" && w != "</s>" && w != "<sil>" {
				ref = append(ref, w)
			}
		}
		if id == "" || len(ref) == 0 {
			t.Fatalf("%s: no id or no words in %q", file, line)
		}
		clips = append(clips, humanClip{
			name: filepath.Base(dir) + "/" + id,
			wav:  filepath.Join(dir, id+".wav"),
			ref:  strings.Join(ref, " "),
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return clips
}

// TestPocketsphinxHumanSpeechWER transcribes pocketsphinx-testdata's
// recorded human speech through the engine's public path (Transcribe with
// Audio{WAV}, as the captions feature calls it, with the default US
// English model) and holds the aggregate word error rate under the issue's
// target.
func TestPocketsphinxHumanSpeechWER(t *testing.T) {
	if _, err := os.Stat(humanSpeechDir); err != nil {
		t.Skipf("recorded speech missing: install the Debian package pocketsphinx-testdata (apt-get install -y --no-install-recommends pocketsphinx-testdata): %v", err)
	}
	e := offline(t, PocketsphinxConfig{})

	var clips []humanClip
	for _, s := range humanSpeechSets {
		clips = append(clips, readTranscription(t, filepath.Join(humanSpeechDir, s.dir), s.transcription)...)
	}

	var edits, refWords int
	for _, c := range clips {
		wav, err := os.ReadFile(c.wav)
		if err != nil {
			t.Fatal(err)
		}
		if wavRate(wav) != modelRate {
			t.Fatalf("%s: sample rate %d, want a %d Hz WAV", c.wav, wavRate(wav), modelRate)
		}
		tr := transcribe(t, e, Audio{WAV: wav, Language: "en-US"})
		n := len(words(c.ref))
		// wer is edits / n; n is small, so rounding gives the exact count.
		d := int(math.Round(wer(c.ref, tr.Text) * float64(n)))
		edits += d
		refWords += n
		t.Logf("%s: WER %.2f (%d edits / %d words)\n  ref: %q\n  hyp: %q", c.name, float64(d)/float64(n), d, n, c.ref, tr.Text)
	}
	if refWords == 0 {
		t.Fatal("no reference words")
	}
	agg := float64(edits) / float64(refWords)
	t.Logf("aggregate over %d clips: WER %.3f (%d edits / %d reference words), engine %s", len(clips), agg, edits, refWords, e.Name())
	if agg >= humanMaxWER {
		t.Errorf("aggregate WER %.3f on recorded human speech, want under %.2f", agg, humanMaxWER)
	}
}
