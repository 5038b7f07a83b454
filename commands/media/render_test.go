package media

import (
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// speakAll speaks each sentence with flite-slt and returns the WAV files,
// their durations and a cue per sentence on the concatenated audio.
func speakAll(t *testing.T, tools Tools, sentences [][]string) (wavs []string, total time.Duration, cues []Cue) {
	t.Helper()
	needTool(t, "flite", "flite")
	v, ok := tools.Voice("flite-slt")
	if !ok {
		t.Fatal("no voice flite-slt")
	}
	dir := t.TempDir()
	for i, lines := range sentences {
		wav := filepath.Join(dir, fmt.Sprintf("s%02d.wav", i))
		d, err := tools.Speak(context.Background(), v, strings.Join(lines, " "), wav)
		if err != nil {
			t.Fatal(err)
		}
		wavs = append(wavs, wav)
		cues = append(cues, Cue{Start: total, End: total + d, Lines: lines})
		total += d
	}
	return wavs, total, cues
}

func TestRenderSlideshow(t *testing.T) {
	tools := withFFmpeg(t)
	wavs, total, cues := speakAll(t, tools, [][]string{
		{"Welcome to the weekly update."},
		{"Revenue grew by twelve percent,", "and churn fell again."},
		{"Thanks for watching {and} sharing."},
	})
	out := filepath.Join(t.TempDir(), "slides.mp4")
	start := time.Now()
	info, err := tools.RenderSlideshow(context.Background(), SlideshowSpec{
		Title: "Weekly update", Background: "#204080", Foreground: "#FFFFFF",
		Audio: wavs, Cues: cues, Out: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rendered %v of slideshow in %v: %+v", total, time.Since(start), info)
	if info.VideoCodec != "h264" || info.AudioCodec != "aac" || info.Width != 720 || info.Height != 1280 {
		t.Errorf("Info = %+v, want h264/aac 720x1280", info)
	}
	if d := info.Duration - total; d < -300*time.Millisecond || d > 300*time.Millisecond {
		t.Errorf("Duration = %v, want the speech's %v", info.Duration, total)
	}
	if probed, err := tools.Probe(context.Background(), out); err != nil || probed != info {
		t.Errorf("Probe(out) = %+v, %v; want %+v", probed, err, info)
	}

	mid := cues[1].Start + (cues[1].End-cues[1].Start)/2
	img := frame(t, tools, out, mid)
	if b := img.Bounds(); b.Dx() != 720 || b.Dy() != 1280 {
		t.Fatalf("frame is %v", b)
	}
	bg := near(0x20, 0x40, 0x80, 8)
	text := func(r, g, b int) bool { return abs(r-0x20)+abs(g-0x40)+abs(b-0x80) > 150 }
	if n := count(img, 0.75, 0.97, text); n < 500 {
		t.Errorf("caption region: %d pixels unlike the background, want a caption", n)
	}
	if n := count(img, 0.04, 0.2, text); n < 500 {
		t.Errorf("title region: %d pixels unlike the background, want the title", n)
	}
	const from, to = 0.3, 0.6 // between title and caption: nothing drawn
	if n, all := count(img, from, to, bg), 720*(int(to*1280)-int(from*1280)); n != all {
		r, g, b := rgb(img, 360, 640)
		t.Errorf("empty region: %d of %d pixels are the background (centre is %d,%d,%d)", n, all, r, g, b)
	}
}

func TestSlideshowTopCaptionsClearTitle(t *testing.T) {
	tools := withFFmpeg(t)
	dir := t.TempDir()
	wav := filepath.Join(dir, "quiet.wav")
	os.WriteFile(wav, silentWAV(16000), 0o600)
	out := filepath.Join(dir, "top.mp4")
	_, err := tools.RenderSlideshow(context.Background(), SlideshowSpec{
		Title: "A long title that wraps onto two or three lines", Background: "black", Foreground: "red",
		Audio: []string{wav}, Out: out, Caption: CaptionStyle{Position: "top", FontColor: "yellow"},
		Cues: []Cue{{Start: 0, End: 2 * time.Second, Lines: []string{"first caption line", "second line"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	img := frame(t, tools, out, time.Second)
	lowestRed, highestYellow := -1, img.Bounds().Dy()
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			r, g, b := rgb(img, x, y)
			if r > 200 && g < 60 && b < 60 {
				lowestRed = max(lowestRed, y)
			}
			if r > 200 && g > 200 && b < 80 {
				highestYellow = min(highestYellow, y)
			}
		}
	}
	if lowestRed < 0 || highestYellow == img.Bounds().Dy() {
		t.Fatalf("title rows to %d, caption rows from %d: want both drawn", lowestRed, highestYellow)
	}
	if highestYellow <= lowestRed {
		t.Errorf("caption starts at row %d, above the title's end at row %d", highestYellow, lowestRed)
	}
	if highestYellow > img.Bounds().Dy()/2 {
		t.Errorf("top caption starts at row %d, below the middle", highestYellow)
	}
}

func TestRenderSlideshowThirtySeconds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	tools := withFFmpeg(t)
	var sentences [][]string
	for _, s := range []string{
		"Good morning, and welcome to the Strata platform weekly briefing.",
		"This week we shipped captions for every reel in the library.",
		"Bulk scheduling now respects each channel's posting window.",
		"The content team published forty new avatar videos.",
		"Engagement on short clips rose by nine percent.",
		"Next week we will focus on faster reviews and cleaner exports.",
		"Remember to tag your drafts so the right reviewer sees them.",
		"That is all for today. Thank you for watching, and see you next week.",
	} {
		sentences = append(sentences, []string{s})
	}
	wavs, total, cues := speakAll(t, tools, sentences)
	out := filepath.Join(t.TempDir(), "thirty.mp4")
	start := time.Now()
	info, err := tools.RenderSlideshow(context.Background(), SlideshowSpec{
		Title: "Weekly briefing", Background: "#102030", Audio: wavs, Cues: cues, Out: out,
		Caption: CaptionStyle{FontColor: "yellow"},
	})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("render time: %v for a %v script (%d sentences) -> %v, %dx%d %.0f fps", took, total, len(wavs), info.Duration, info.Width, info.Height, info.FrameRate)
	if total < 25*time.Second {
		t.Errorf("script is only %v long", total)
	}
	if d := info.Duration - total; d < -300*time.Millisecond || d > 300*time.Millisecond {
		t.Errorf("Duration = %v, want %v", info.Duration, total)
	}
}

func TestRenderSlideshowRefuses(t *testing.T) {
	tools := withFFmpeg(t)
	wav := filepath.Join(t.TempDir(), "a.wav")
	os.WriteFile(wav, silentWAV(8000), 0o600)
	out := filepath.Join(t.TempDir(), "x.mp4")
	for _, c := range []struct {
		spec SlideshowSpec
		want string
	}{
		{SlideshowSpec{Out: out}, "without audio"},
		{SlideshowSpec{Audio: []string{wav}}, "output path"},
		{SlideshowSpec{Audio: []string{wav}, Out: out, Background: "bluish"}, "background"},
		{SlideshowSpec{Audio: []string{wav}, Out: out, Foreground: "#12"}, "foreground"},
		{SlideshowSpec{Audio: []string{wav}, Out: out, Width: 721, Height: 1280}, "even"},
		{SlideshowSpec{Audio: []string{wav}, Out: out, Caption: CaptionStyle{Position: "side"}}, "position"},
		{SlideshowSpec{Audio: []string{filepath.Join(t.TempDir(), "missing.wav")}, Out: out}, "audio 0"},
	} {
		if _, err := tools.RenderSlideshow(context.Background(), c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RenderSlideshow(%+v): err = %v, want %q", c.spec, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused render left %s", out)
	}
}

func TestBurnIn(t *testing.T) {
	tools := withFFmpeg(t)
	in := testClip(t, "testsrc", "4")
	inInfo, err := tools.Probe(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "burnt.mp4")
	cues := []Cue{{Start: time.Second, End: 3 * time.Second, Lines: []string{"Burnt-in caption", "second line"}}}
	info, err := tools.BurnIn(context.Background(), in, cues, CaptionStyle{}, out)
	if err != nil {
		t.Fatal(err)
	}
	if info.VideoCodec != "h264" || info.AudioCodec != "aac" || info.Width != 640 || info.Height != 360 {
		t.Errorf("Info = %+v, want h264/aac 640x360", info)
	}
	if d := info.Duration - inInfo.Duration; d < -100*time.Millisecond || d > 100*time.Millisecond {
		t.Errorf("Duration = %v, input's %v", info.Duration, inInfo.Duration)
	}
	before, after := frame(t, tools, in, 2*time.Second), frame(t, tools, out, 2*time.Second)
	if n := diffCount(before, after, 2.0/3, 1); n < 300 {
		t.Errorf("caption region: %d pixels changed, want a caption", n)
	}
	if n := diffCount(before, after, 0, 1.0/3); n > 50 {
		t.Errorf("top third: %d pixels changed, want none", n)
	}
	// Outside the cue the picture is the input's.
	at := 3500 * time.Millisecond
	if n := diffCount(frame(t, tools, in, at), frame(t, tools, out, at), 0, 1); n > 50 {
		t.Errorf("after the cue: %d pixels changed, want none", n)
	}
}

func TestBurnInColourAndPosition(t *testing.T) {
	tools := withFFmpeg(t)
	in := testClip(t, "color=c=0x203040", "3")
	cues := []Cue{{Start: 500 * time.Millisecond, End: 2500 * time.Millisecond, Lines: []string{"YELLOW TOP"}}}
	yellow := func(r, g, b int) bool { return r > 200 && g > 200 && b < 100 }
	unlikeBG := func(r, g, b int) bool { return !near(0x20, 0x30, 0x40, 10)(r, g, b) }
	if n := count(frame(t, tools, in, 1500*time.Millisecond), 0, 1, yellow); n != 0 {
		t.Fatalf("input has %d yellow pixels", n)
	}
	for _, c := range []struct {
		position              string
		textTop, textBottom   float64 // where the caption must be
		emptyTop, emptyBottom float64 // where nothing may be drawn
	}{
		{"top", 0, 1.0 / 3, 1.0 / 3, 1},
		{"", 2.0 / 3, 1, 0, 2.0 / 3},
		{"middle", 1.0 / 3, 2.0 / 3, 0, 1.0 / 3},
	} {
		out := filepath.Join(t.TempDir(), "burnt.mp4")
		style := CaptionStyle{FontColor: "yellow", FontSize: 40, Position: c.position}
		if _, err := tools.BurnIn(context.Background(), in, cues, style, out); err != nil {
			t.Fatal(err)
		}
		img := frame(t, tools, out, 1500*time.Millisecond)
		if n := count(img, c.textTop, c.textBottom, yellow); n < 200 {
			t.Errorf("position %q: %d yellow pixels in rows %.2f-%.2f, want the caption", c.position, n, c.textTop, c.textBottom)
		}
		if n := count(img, c.emptyTop, c.emptyBottom, unlikeBG); n != 0 {
			t.Errorf("position %q: %d pixels drawn in rows %.2f-%.2f, want none", c.position, n, c.emptyTop, c.emptyBottom)
		}
	}
}

func TestBurnInRefuses(t *testing.T) {
	tools := withFFmpeg(t)
	wav := filepath.Join(t.TempDir(), "a.wav")
	os.WriteFile(wav, silentWAV(8000), 0o600)
	if _, err := tools.BurnIn(context.Background(), wav, nil, CaptionStyle{}, filepath.Join(t.TempDir(), "x.mp4")); err == nil || !strings.Contains(err.Error(), "no video") {
		t.Errorf("BurnIn of audio: err = %v, want no video", err)
	}
	in := testClip(t, "testsrc", "1")
	if _, err := tools.BurnIn(context.Background(), in, nil, CaptionStyle{FontColor: "nope"}, filepath.Join(t.TempDir(), "x.mp4")); err == nil || !strings.Contains(err.Error(), "font colour") {
		t.Errorf("BurnIn with a bad colour: err = %v", err)
	}
	if err := tools.Frame(context.Background(), in, time.Minute, filepath.Join(t.TempDir(), "x.png")); err == nil {
		t.Error("Frame past the end: no error")
	}
}

// TestSubtitlesFilterQuoting runs the subtitles filter over a script whose
// path has the characters filtergraphs treat specially.
func TestSubtitlesFilterQuoting(t *testing.T) {
	tools := withFFmpeg(t)
	dir := filepath.Join(t.TempDir(), `it's: a, [weird]; dir\x`)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.ass")
	f, _ := os.Create(path)
	WriteASS(f, []Cue{{End: time.Second, Lines: []string{"hi"}}}, CaptionStyle{}, 64, 64)
	f.Close()
	out, err := exec.Command(tools.FFmpeg, "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=s=64x64:d=0.2",
		"-vf", subtitles(path), "-f", "null", "-").CombinedOutput()
	if err != nil {
		t.Errorf("subtitles filter %q: %v\n%s", subtitles(path), err, out)
	}
}

// diffCount counts the pixels in rows [top, bottom) (fractions of the
// height) that differ clearly between a and b.
func diffCount(a, b image.Image, top, bottom float64) int {
	bd := a.Bounds()
	n := 0
	for y := bd.Min.Y + int(top*float64(bd.Dy())); y < bd.Min.Y+int(bottom*float64(bd.Dy())); y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r1, g1, b1 := rgb(a, x, y)
			r2, g2, b2 := rgb(b, x, y)
			if abs(r1-r2)+abs(g1-g2)+abs(b1-b2) > 150 {
				n++
			}
		}
	}
	return n
}
