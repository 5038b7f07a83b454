package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The media bench runs one round: correctness of what it measured is
// asserted (the speech heard, the video's shape, every figure present),
// never timing: targets are checked by the command, not in tests.
func TestBenchMediaMeasuresCaptionsAndSlideshow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pocketsphinx and ffmpeg on 30 seconds of speech")
	}
	for tool, pkg := range map[string]string{"ffmpeg": "ffmpeg", "ffprobe": "ffmpeg", "flite": "flite", "pocketsphinx_continuous": "pocketsphinx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: install the Debian package %s", tool, pkg)
		}
	}
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("pocketsphinx model missing: install the Debian package pocketsphinx-en-us")
	}
	t.Parallel()
	rep, err := runMediaBench(context.Background(), 1, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if rep.Speech.Seconds() < 20 || rep.Speech.Seconds() > 45 {
		t.Errorf("the script spoke for %s, want about 30 s", rep.Speech)
	}
	if rep.Words < 40 || rep.Cues < 3 {
		t.Errorf("%d words heard in %d cues", rep.Words, rep.Cues)
	}
	if rep.VideoCodec != "h264" || rep.AudioCodec != "aac" || rep.Width != 720 || rep.Height != 1280 {
		t.Errorf("video %s/%s %dx%d", rep.VideoCodec, rep.AudioCodec, rep.Width, rep.Height)
	}
	if d := rep.Video - rep.Speech; d < -500e6 || d > 500e6 {
		t.Errorf("video %s for %s of speech", rep.Video, rep.Speech)
	}
	if rep.Decoder <= 0 || rep.Captions <= 0 || rep.Slideshow <= 0 || rep.EncodeBaseline <= 0 || rep.SlideshowSpeak <= 0 {
		t.Errorf("a figure is missing: %+v", rep)
	}
}
