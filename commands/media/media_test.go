package media

import (
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needTool skips the test when tool is not installed, naming its Debian package.
func needTool(t *testing.T, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s not found: install the Debian package %s (apt-get install -y --no-install-recommends %s)", tool, pkg, pkg)
	}
}

// withFFmpeg is FindTools, or a skip when ffmpeg is missing.
func withFFmpeg(t *testing.T) Tools {
	t.Helper()
	needTool(t, "ffmpeg", "ffmpeg")
	needTool(t, "ffprobe", "ffmpeg")
	return FindTools()
}

// ffmpegRun runs ffmpeg with args for a test's fixtures.
func ffmpegRun(t *testing.T, args ...string) {
	t.Helper()
	args = append([]string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y"}, args...)
	if out, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// testClip generates a 640x360 25 fps H.264/AAC clip of seconds seconds from
// the lavfi video source src (e.g. "testsrc" or "color=c=0x203040") and a
// sine tone.
func testClip(t *testing.T, src string, seconds string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "clip.mp4")
	sep := "="
	if strings.Contains(src, "=") {
		sep = ":"
	}
	ffmpegRun(t, "-f", "lavfi", "-i", src+sep+"s=640x360:r=25:d="+seconds,
		"-f", "lavfi", "-i", "sine=f=440:d="+seconds,
		"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out)
	return out
}

// frame grabs the video's frame at `at` and decodes it.
func frame(t *testing.T, tools Tools, video string, at time.Duration) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frame.png")
	if err := tools.Frame(context.Background(), video, at, path); err != nil {
		t.Fatalf("Frame(%v): %v", at, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode frame: %v", err)
	}
	return img
}

// rgb is a pixel's 8-bit colour.
func rgb(img image.Image, x, y int) (r, g, b int) {
	r32, g32, b32, _ := img.At(x, y).RGBA()
	return int(r32 >> 8), int(g32 >> 8), int(b32 >> 8)
}

// count is how many pixels of img within rows [top, bottom) (fractions of
// the height) satisfy ok.
func count(img image.Image, top, bottom float64, ok func(r, g, b int) bool) int {
	bd := img.Bounds()
	n := 0
	y0 := bd.Min.Y + int(top*float64(bd.Dy()))
	y1 := bd.Min.Y + int(bottom*float64(bd.Dy()))
	for y := y0; y < y1; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if r, g, b := rgb(img, x, y); ok(r, g, b) {
				n++
			}
		}
	}
	return n
}

// near reports each channel within tol of (r, g, b).
func near(r, g, b, tol int) func(int, int, int) bool {
	return func(pr, pg, pb int) bool {
		return abs(pr-r) <= tol && abs(pg-g) <= tol && abs(pb-b) <= tol
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestMissingToolsAreUnavailable(t *testing.T) {
	var none Tools
	ctx := context.Background()
	if _, err := none.Probe(ctx, "x.mp4"); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Debian package ffmpeg") {
		t.Errorf("Probe: err = %v, want ErrUnavailable naming the Debian package ffmpeg", err)
	}
	if _, err := none.RenderSlideshow(ctx, SlideshowSpec{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("RenderSlideshow: err = %v, want ErrUnavailable", err)
	}
	if _, err := none.BurnIn(ctx, "in.mp4", nil, CaptionStyle{}, "out.mp4"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("BurnIn: err = %v, want ErrUnavailable", err)
	}
	if err := none.Frame(ctx, "in.mp4", 0, "out.png"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Frame: err = %v, want ErrUnavailable", err)
	}
	if vs := none.Voices(); len(vs) != 0 {
		t.Errorf("Voices without engines = %v, want none", vs)
	}
	_, err := none.Speak(ctx, Voice{ID: "flite-slt"}, "hello", filepath.Join(t.TempDir(), "a.wav"))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Debian package flite") {
		t.Errorf("Speak: err = %v, want ErrUnavailable naming the Debian package flite", err)
	}
}

func TestProbe(t *testing.T) {
	tools := withFFmpeg(t)
	clip := testClip(t, "testsrc", "2")
	info, err := tools.Probe(context.Background(), clip)
	if err != nil {
		t.Fatal(err)
	}
	if info.VideoCodec != "h264" || info.AudioCodec != "aac" || info.Width != 640 || info.Height != 360 {
		t.Errorf("Probe = %+v, want h264/aac 640x360", info)
	}
	if info.FrameRate < 24.9 || info.FrameRate > 25.1 {
		t.Errorf("FrameRate = %v, want 25", info.FrameRate)
	}
	if d := info.Duration - 2*time.Second; d < -100*time.Millisecond || d > 100*time.Millisecond {
		t.Errorf("Duration = %v, want 2s", info.Duration)
	}

	bad := filepath.Join(t.TempDir(), "bad.mp4")
	os.WriteFile(bad, []byte("not media"), 0o600)
	if _, err := tools.Probe(context.Background(), bad); err == nil {
		t.Error("Probe of a text file: no error")
	}
}

func TestCancelKillsFFmpeg(t *testing.T) {
	tools := withFFmpeg(t)
	dir := t.TempDir()
	// 20 minutes of silence: a render of minutes.
	wav := filepath.Join(dir, "long.wav")
	if err := os.WriteFile(wav, silentWAV(20*60*8000), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := tools.RenderSlideshow(ctx, SlideshowSpec{
		Title: "Long", Audio: []string{wav}, Out: filepath.Join(dir, "long.mp4"),
		Cues: []Cue{{Start: 0, End: 20 * time.Minute, Lines: []string{"still going"}}},
	})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if took > 5*time.Second {
		t.Errorf("cancelled render returned after %v", took)
	}
	t.Logf("cancelled after %v: %v", took, err)
	if pids := processesUsing(dir); len(pids) > 0 {
		t.Errorf("processes still using %s: %v", dir, pids)
	}
	if _, err := os.Stat(filepath.Join(dir, "long.mp4")); !os.IsNotExist(err) {
		t.Errorf("output of a cancelled render exists (stat: %v)", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".media-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// processesUsing lists the pids whose command line mentions dir (Linux).
func processesUsing(dir string) []string {
	var pids []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			pids = append(pids, filepath.Base(filepath.Dir(p)))
		}
	}
	return pids
}

// silentWAV is a WAV file of n samples of 8 kHz 8-bit mono silence.
func silentWAV(n int) []byte {
	b := make([]byte, 44+n)
	le32 := func(at int, v uint32) {
		b[at], b[at+1], b[at+2], b[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	copy(b, "RIFF")
	le32(4, uint32(36+n))
	copy(b[8:], "WAVEfmt ")
	le32(16, 16)
	b[20], b[22] = 1, 1 // PCM, mono
	le32(24, 8000)      // sample rate
	le32(28, 8000)      // byte rate
	b[32], b[34] = 1, 8 // block align, bits
	copy(b[36:], "data")
	le32(40, uint32(n))
	for i := 44; i < len(b); i++ {
		b[i] = 128
	}
	return b
}
