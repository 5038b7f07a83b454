package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	cmdcontent "github.com/strata-platform/strata/commands/content"
	"github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/domain/content"
)

// benchScript is about 30 seconds of speech in flite's voices.
const benchScript = `Strata turns every write into an event. Founders call it over HTTP, and their agents do too.
Captions come from real speech recognition, running offline on this machine.
Avatar videos are rendered locally as a slideshow, with the twin's colours and title. Every sentence is spoken by a local voice.
The captions are timed from the measured audio of each sentence. The finished video is billed by its measured length.`

// Targets of issue 29's benchmark.
const (
	mediaCaptionOverheadTarget = 0.10            // our captions at most 10% slower than the bare decoder
	mediaSlideshowTarget       = 5 * time.Second // a 30-second script rendered within 5 s
)

// mediaReport is what `strata bench media` measured.
type mediaReport struct {
	Runs            int
	Voice           string
	Speech          time.Duration // the captions' audio
	Engine          string
	Words           int
	Decoder         time.Duration // median: the bare pocketsphinx process on the prepared samples
	Captions        time.Duration // median: the caption path (ffmpeg, decoder, parse, cues, SRT and WebVTT)
	Cues            int
	Video           time.Duration // the slideshow's measured length
	Slideshow       time.Duration // median: speak, time the captions, render
	SlideshowSpeak  time.Duration // median: of which speaking
	EncodeBaseline  time.Duration // median: ffmpeg encoding the same length of a plain colour, no text, no audio
	VideoCodec      string
	AudioCodec      string
	Width, Height   int
	CaptionOverhead float64
}

// benchMedia runs `strata bench media`: caption transcription against the
// bare decoder on the same audio, and the slideshow render of a 30-second
// script against a plain ffmpeg encode of the same length. No database.
func (c *command) benchMedia(ctx context.Context, quick bool) error {
	runs := 5
	if quick {
		runs = 1
	}
	rep, err := runMediaBench(ctx, runs, c.stderr)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

// runMediaBench measures runs interleaved rounds (medians reported).
func runMediaBench(ctx context.Context, runs int, progress io.Writer) (mediaReport, error) {
	tools := media.FindTools()
	if tools.FFmpeg == "" || tools.FFprobe == "" || tools.Flite == "" {
		return mediaReport{}, errors.New("bench media needs ffmpeg, ffprobe and flite: install Debian's ffmpeg and flite")
	}
	ps, err := transcribe.NewPocketsphinx(transcribe.PocketsphinxConfig{})
	if err != nil {
		return mediaReport{}, fmt.Errorf("bench media: %w", err)
	}
	voice, ok := tools.Voice("flite-rms")
	if !ok {
		return mediaReport{}, errors.New("bench media: flite's rms voice is missing")
	}
	dir, err := os.MkdirTemp("", "strata-bench-media-")
	if err != nil {
		return mediaReport{}, err
	}
	defer os.RemoveAll(dir)
	rep := mediaReport{Runs: runs, Voice: voice.ID, Engine: ps.Name()}

	// The captions' audio: the script spoken as one WAV, and the same
	// samples prepared for the bare decoder (16 kHz mono 16-bit, headerless).
	wav, raw := filepath.Join(dir, "speech.wav"), filepath.Join(dir, "speech.raw")
	if rep.Speech, err = tools.Speak(ctx, voice, strings.Join(strings.Fields(benchScript), " "), wav); err != nil {
		return rep, err
	}
	if out, err := exec.CommandContext(ctx, tools.FFmpeg, "-nostdin", "-loglevel", "error", "-i", wav, "-ac", "1", "-ar", "16000",
		"-f", "s16le", raw).CombinedOutput(); err != nil {
		return rep, fmt.Errorf("prepare the samples: %v: %s", err, out)
	}
	audio, err := os.ReadFile(wav)
	if err != nil {
		return rep, err
	}
	var decoder, captions, slideshow, speak, baseline []time.Duration
	for i := range runs {
		fmt.Fprintf(progress, "bench media: round %d of %d\n", i+1, runs)
		bin, args := ps.Decoder(raw)
		t0 := time.Now()
		if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
			return rep, fmt.Errorf("the bare decoder: %v: %s", err, tail(out))
		}
		decoder = append(decoder, time.Since(t0))

		t0 = time.Now()
		tr, err := ps.Transcribe(ctx, transcribe.Audio{WAV: audio, Language: "en"})
		if err != nil {
			return rep, err
		}
		cues := benchCues(tr)
		_, _ = content.SRT(cues), content.VTT(cues)
		captions = append(captions, time.Since(t0))
		rep.Words, rep.Cues = len(strings.Fields(tr.Text)), len(cues)

		t0 = time.Now()
		sdir := filepath.Join(dir, fmt.Sprintf("slides-%d", i))
		if err := os.Mkdir(sdir, 0o755); err != nil {
			return rep, err
		}
		sp, err := cmdcontent.SpeakScript(ctx, &tools, voice, benchScript, sdir)
		if err != nil {
			return rep, err
		}
		speak = append(speak, time.Since(t0))
		info, err := tools.RenderSlideshow(ctx, media.SlideshowSpec{Title: "Strata", Background: "#1E3A5F", Foreground: "#FFFFFF",
			Audio: sp.WAVs, Cues: sp.Cues, Out: filepath.Join(sdir, "video.mp4")})
		if err != nil {
			return rep, err
		}
		slideshow = append(slideshow, time.Since(t0))
		rep.Video, rep.VideoCodec, rep.AudioCodec, rep.Width, rep.Height = info.Duration, info.VideoCodec, info.AudioCodec, info.Width, info.Height

		t0 = time.Now()
		if out, err := exec.CommandContext(ctx, tools.FFmpeg, "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
			fmt.Sprintf("color=c=0x1E3A5F:s=%dx%d:r=%d:d=%.3f", media.SlideshowWidth, media.SlideshowHeight, media.SlideshowFrameRate,
				info.Duration.Seconds()), "-c:v", "libx264", "-preset", "ultrafast", "-tune", "stillimage", "-pix_fmt", "yuv420p",
			"-y", filepath.Join(sdir, "plain.mp4")).CombinedOutput(); err != nil {
			return rep, fmt.Errorf("the encode baseline: %v: %s", err, tail(out))
		}
		baseline = append(baseline, time.Since(t0))
	}
	rep.Decoder, rep.Captions = median(decoder), median(captions)
	rep.Slideshow, rep.SlideshowSpeak, rep.EncodeBaseline = median(slideshow), median(speak), median(baseline)
	rep.CaptionOverhead = float64(rep.Captions)/float64(rep.Decoder) - 1
	return rep, nil
}

// benchCues builds a transcript's cues the way captions do (word times).
func benchCues(tr transcribe.Transcript) []content.Cue {
	var words []content.TimedWord
	for _, s := range tr.Segments {
		for _, w := range s.Words {
			words = append(words, content.TimedWord{Start: w.Start, End: w.End, Text: w.Text})
		}
	}
	return content.BuildCues(words, content.DefaultCueRules)
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func tail(b []byte) string {
	if len(b) > 400 {
		b = b[len(b)-400:]
	}
	return strings.TrimSpace(string(b))
}

// Print writes the report: figures next to their baselines and targets.
func (r mediaReport) Print(w io.Writer) error {
	pass := func(ok bool) string {
		if ok {
			return "PASS"
		}
		return "MISS"
	}
	rtf := func(d time.Duration) float64 { return d.Seconds() / r.Speech.Seconds() }
	_, err := fmt.Fprintf(w, `strata bench media (%d round(s), medians)

captions: %.1f s of speech (flite voice %s), engine %s, %d words heard, %d cues
  bare decoder (baseline)   %7.0f ms   real-time factor %.3f
  caption path (ours)       %7.0f ms   real-time factor %.3f
  overhead                  %+6.1f%%    target at most +%.0f%%: %s

slideshow: a %.1f s video (%s/%s %dx%d) from a 30-second script
  render (ours)             %7.0f ms   of which speaking %.0f ms   target within %s: %s
  plain encode (baseline)   %7.0f ms   (the same length of colour, no text, no audio)
  ratio ours/baseline       %7.2f
`, r.Runs, r.Speech.Seconds(), r.Voice, r.Engine, r.Words, r.Cues,
		ms(r.Decoder), rtf(r.Decoder), ms(r.Captions), rtf(r.Captions), r.CaptionOverhead*100, mediaCaptionOverheadTarget*100,
		pass(r.CaptionOverhead <= mediaCaptionOverheadTarget),
		r.Video.Seconds(), r.VideoCodec, r.AudioCodec, r.Width, r.Height,
		ms(r.Slideshow), ms(r.SlideshowSpeak), mediaSlideshowTarget, pass(r.Slideshow <= mediaSlideshowTarget),
		ms(r.EncodeBaseline), float64(r.Slideshow)/float64(r.EncodeBaseline))
	return err
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
