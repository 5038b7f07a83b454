package media

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Slideshow defaults.
const (
	// SlideshowWidth and SlideshowHeight are a slideshow's size when the
	// spec gives none (9:16).
	SlideshowWidth, SlideshowHeight = 720, 1280
	// SlideshowFrameRate is a slideshow's frame rate: the picture only
	// changes when a caption does.
	SlideshowFrameRate = 12
)

// fontDirs are where Debian and others keep the DejaVu fonts.
var fontDirs = []string{
	"/usr/share/fonts/truetype/dejavu",
	"/usr/share/fonts/dejavu",
	"/usr/share/fonts/TTF",
}

// SlideshowSpec describes a slideshow video.
type SlideshowSpec struct {
	// Title is shown large near the top for the whole video; "" for none.
	Title string
	// Background is the video's colour (see ParseColor); "" is black.
	Background string
	// Foreground is the title's colour (see ParseColor); "" is white.
	Foreground string
	// Audio are the files played one after the other (the spoken
	// sentences); at least one. The video lasts as long as they do.
	Audio []string
	// Cues are the captions burnt in, timed on the concatenated audio.
	Cues []Cue
	// Caption styles the cues; captions at the top are placed under the
	// title.
	Caption CaptionStyle
	// Width and Height are the video's size in pixels, both even; both 0
	// is SlideshowWidth x SlideshowHeight.
	Width, Height int
	// Out is the output MP4 file.
	Out string
}

// RenderSlideshow renders spec as an MP4: H.264 (libx264 ultrafast,
// stillimage tuning, yuv420p, SlideshowFrameRate fps, +faststart) of the
// background colour with the title and the cues burnt in (lavfi color
// source and the subtitles filter over an ASS script), and AAC audio, the
// concatenation of spec.Audio, whose length the video has. It returns the
// output's probed Info.
func (t Tools) RenderSlideshow(ctx context.Context, spec SlideshowSpec) (Info, error) {
	if err := t.ffmpeg(); err != nil {
		return Info{}, err
	}
	w, h := spec.Width, spec.Height
	if w == 0 && h == 0 {
		w, h = SlideshowWidth, SlideshowHeight
	}
	if w <= 0 || h <= 0 || w%2 != 0 || h%2 != 0 {
		return Info{}, fmt.Errorf("media: slideshow size %dx%d: want even, positive width and height", w, h)
	}
	bg, fg := spec.Background, spec.Foreground
	if bg == "" {
		bg = "black"
	}
	if fg == "" {
		fg = "white"
	}
	br, bgr, bb, err := ParseColor(bg)
	if err != nil {
		return Info{}, fmt.Errorf("media: background: %w", err)
	}
	fr, fgr, fb, err := ParseColor(fg)
	if err != nil {
		return Info{}, fmt.Errorf("media: foreground: %w", err)
	}
	if len(spec.Audio) == 0 {
		return Info{}, errors.New("media: slideshow without audio")
	}
	if spec.Out == "" {
		return Info{}, errors.New("media: slideshow without an output path")
	}
	cs, err := captionStyle(spec.Caption, w, h)
	if err != nil {
		return Info{}, err
	}
	ctx, cancel := bounded(ctx, RenderTimeout)
	defer cancel()

	var total time.Duration
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y"}
	var inputs []string
	for i, a := range spec.Audio {
		path := fileArg(a)
		d, err := t.audioDuration(ctx, path)
		if err != nil {
			return Info{}, fmt.Errorf("media: slideshow audio %d: %w", i, err)
		}
		total += d
		inputs = append(inputs, "-i", path)
	}
	ti := &title{
		style: style{name: "Title", size: max(8, h/16), colour: assColour(fr, fgr, fb, 0), bold: true,
			alignment: 8, marginH: w / 20, marginV: h / 12},
		text: spec.Title,
		end:  total,
	}
	dir, ass, err := scriptFile(spec.Cues, cs, ti, w, h)
	if err != nil {
		return Info{}, err
	}
	defer os.RemoveAll(dir)

	secs := strconv.FormatFloat(math.Ceil(total.Seconds()*1000)/1000, 'f', 3, 64)
	args = append(args, "-f", "lavfi", "-i",
		fmt.Sprintf("color=c=0x%02X%02X%02X:s=%dx%d:r=%d:d=%s", br, bgr, bb, w, h, SlideshowFrameRate, secs))
	args = append(args, inputs...)
	var graph strings.Builder
	fmt.Fprintf(&graph, "[0:v]format=yuv420p,%s[v];", subtitles(ass))
	for i := range spec.Audio {
		fmt.Fprintf(&graph, "[%d:a]aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=mono[a%d];", i+1, i)
	}
	for i := range spec.Audio {
		fmt.Fprintf(&graph, "[a%d]", i)
	}
	fmt.Fprintf(&graph, "concat=n=%d:v=0:a=1[a]", len(spec.Audio))
	args = append(args, "-filter_complex", graph.String(), "-map", "[v]", "-map", "[a]",
		"-c:v", "libx264", "-preset", "ultrafast", "-tune", "stillimage", "-pix_fmt", "yuv420p",
		"-r", strconv.Itoa(SlideshowFrameRate),
		"-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart")
	return t.encode(ctx, dir, args, spec.Out)
}

// BurnIn draws cues, styled by style, onto the video at in and writes the
// result to out as an MP4: H.264 (libx264 veryfast, CRF 20, yuv420p) and
// the first audio stream, if any, copied when it is AAC and encoded to AAC
// otherwise. It returns out's probed Info.
func (t Tools) BurnIn(ctx context.Context, in string, cues []Cue, style CaptionStyle, out string) (Info, error) {
	if err := t.ffmpeg(); err != nil {
		return Info{}, err
	}
	if out == "" {
		return Info{}, errors.New("media: burn-in without an output path")
	}
	ctx, cancel := bounded(ctx, RenderTimeout)
	defer cancel()
	src := fileArg(in)
	info, err := t.Probe(ctx, src)
	if err != nil {
		return Info{}, err
	}
	if info.VideoCodec == "" || info.Width <= 0 || info.Height <= 0 {
		return Info{}, fmt.Errorf("media: burn-in: %s has no video", in)
	}
	cs, err := captionStyle(style, info.Width, info.Height)
	if err != nil {
		return Info{}, err
	}
	dir, ass, err := scriptFile(cues, cs, nil, info.Width, info.Height)
	if err != nil {
		return Info{}, err
	}
	defer os.RemoveAll(dir)
	vf := subtitles(ass)
	if info.Width%2 != 0 || info.Height%2 != 0 {
		vf += ",pad=ceil(iw/2)*2:ceil(ih/2)*2" // yuv420p needs an even size
	}
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y",
		"-i", src, "-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn",
		"-vf", vf, "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"}
	if info.AudioCodec == "aac" {
		args = append(args, "-c:a", "copy")
	} else {
		args = append(args, "-c:a", "aac", "-b:a", "128k")
	}
	args = append(args, "-movflags", "+faststart")
	return t.encode(ctx, dir, args, out)
}

// Frame writes the video's frame at `at` (seeking accurately) to outPNG.
func (t Tools) Frame(ctx context.Context, video string, at time.Duration, outPNG string) error {
	if err := need(t.FFmpeg, "ffmpeg", "ffmpeg"); err != nil {
		return err
	}
	if at < 0 {
		return fmt.Errorf("media: frame at %v: want a time from 0", at)
	}
	ctx, cancel := bounded(ctx, RenderTimeout)
	defer cancel()
	tmp, err := tempBeside(outPNG, ".png")
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	_, err = run(ctx, "", t.FFmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
		"-ss", strconv.FormatFloat(at.Seconds(), 'f', 3, 64), "-i", fileArg(video),
		"-map", "0:v:0", "-frames:v", "1", "-update", "1", "-c:v", "png", "-f", "image2", tmp)
	if err != nil {
		return fmt.Errorf("media: frame of %s at %v: %w", video, at, err)
	}
	if st, err := os.Stat(tmp); err != nil || st.Size() == 0 {
		return fmt.Errorf("media: frame of %s at %v: no frame there", video, at)
	}
	if err := os.Rename(tmp, outPNG); err != nil {
		return fmt.Errorf("media: frame: %w", err)
	}
	return nil
}

// encode runs ffmpeg with args and a temporary MP4 beside out as the
// output, renames it to out when ffmpeg succeeds, and probes it.
func (t Tools) encode(ctx context.Context, dir string, args []string, out string) (Info, error) {
	tmp, err := tempBeside(out, ".mp4")
	if err != nil {
		return Info{}, err
	}
	defer os.Remove(tmp)
	args = append(args, "-f", "mp4", tmp)
	if _, err := run(ctx, dir, t.FFmpeg, args...); err != nil {
		return Info{}, fmt.Errorf("media: render %s: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return Info{}, fmt.Errorf("media: render: %w", err)
	}
	return t.Probe(ctx, out)
}

// scriptFile writes the ASS script to a new temporary directory, returned
// with the script's path; the caller removes the directory.
func scriptFile(cues []Cue, cs style, ti *title, w, h int) (dir, path string, err error) {
	dir, err = os.MkdirTemp("", "strata-media-*")
	if err != nil {
		return "", "", fmt.Errorf("media: %w", err)
	}
	path = filepath.Join(dir, "captions.ass")
	f, err := os.Create(path)
	if err == nil {
		err = writeASS(f, cues, cs, ti, w, h)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("media: captions: %w", err)
	}
	return dir, path, nil
}

// tempBeside creates an empty temporary file, ending in ext, in the
// directory of path, so that it can be renamed to path.
func tempBeside(path, ext string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(fileArg(path)), ".media-*"+ext)
	if err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	name := f.Name()
	f.Close()
	return name, nil
}

// subtitles is the subtitles filter over the ASS script at path, with the
// DejaVu fonts' directory when there is one (fontconfig is asked too).
func subtitles(path string) string {
	f := "subtitles=filename=" + filterArg(path)
	for _, d := range fontDirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return f + ":fontsdir=" + filterArg(d)
		}
	}
	return f
}

// filterArg quotes s as an option value inside a filtergraph: quoted for
// the option parser, then escaped for the graph parser.
func filterArg(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`, `[`, `\[`, `]`, `\]`, `,`, `\,`, `;`, `\;`).Replace(q)
}

// fileArg is path made absolute, so that ffmpeg takes it for a file
// whatever its name and the process's directory.
func fileArg(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
