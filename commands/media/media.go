// Package media is the platform's offline media toolkit: probing media
// files, local text-to-speech, caption scripts and rendering, used by the
// content workflow for avatar "slideshow" videos, bulk reels and caption
// burn-in. It drives Debian's programs as processes:
//
//   - ffmpeg and ffprobe (package ffmpeg, built with libass and libx264),
//   - flite (package flite),
//   - espeak-ng (package espeak-ng),
//
// with the DejaVu fonts (package fonts-dejavu-core) for captions. Each
// process runs in a process group of its own that is killed whole when the
// caller's context ends; a context without a deadline gets the operation's
// default timeout (ProbeTimeout, SpeakTimeout, RenderTimeout). A missing
// program is an error matching ErrUnavailable that names it and its Debian
// package.
//
// # Voices
//
// Voices lists the local voices whose engine is installed, by ID:
//
//   - flite-awb: flite "awb", Scottish English male (en-GB)
//   - flite-kal: flite "kal", US English male, 8 kHz diphone (en-US)
//   - flite-kal16: flite "kal16", US English male, 16 kHz diphone (en-US)
//   - flite-rms: flite "rms", US English male (en-US)
//   - flite-slt: flite "slt", US English female (en-US)
//   - espeak-en-gb: espeak-ng "en-gb", British English male (en-GB)
//   - espeak-en-gb-scotland: espeak-ng "en-gb-scotland", Scottish English male (en-GB)
//   - espeak-en-us: espeak-ng "en-us", US English male (en-US)
//   - espeak-en-us-f3: espeak-ng "en-us+f3", US English female variant (en-US)
//
// flite voices are listed only when `flite -lv` reports them (flite's
// limited-domain voice awb_time, which only speaks the time, is left out).
//
// # Rendering
//
// RenderSlideshow draws a 9:16 video (720x1280 unless told otherwise) of a
// plain background with a title and burnt-in captions over the
// concatenated speech: ffmpeg's lavfi color source at SlideshowFrameRate
// fps, the subtitles filter (libass) over an ASS script written by
// WriteASS, libx264 -preset ultrafast -tune stillimage in yuv420p, AAC
// audio and +faststart. BurnIn draws captions onto an existing video.
// Outputs are written to a temporary file beside the output path and
// renamed into place only when ffmpeg succeeds.
package media

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// ErrUnavailable is matched by the error of any operation whose program is
// not installed; the error names the program and its Debian package.
var ErrUnavailable = errors.New("media: tool not installed")

// Default timeouts, applied when the caller's context has no deadline.
const (
	// ProbeTimeout bounds one ffprobe run (and flite -lv).
	ProbeTimeout = 30 * time.Second
	// SpeakTimeout bounds one flite or espeak-ng run.
	SpeakTimeout = 2 * time.Minute
	// RenderTimeout bounds one ffmpeg render (RenderSlideshow, BurnIn, Frame).
	RenderTimeout = 30 * time.Minute
)

// Tools holds the absolute paths of the programs the package runs; a path
// is "" when the program is absent. The zero Tools has none of them.
type Tools struct {
	FFmpeg, FFprobe, Flite, EspeakNG string
}

// FindTools looks each program up in PATH (exec.LookPath).
func FindTools() Tools {
	look := func(name string) string {
		p, err := exec.LookPath(name)
		if err != nil {
			return ""
		}
		return p
	}
	return Tools{
		FFmpeg:   look("ffmpeg"),
		FFprobe:  look("ffprobe"),
		Flite:    look("flite"),
		EspeakNG: look("espeak-ng"),
	}
}

// need is nil when path is set, else ErrUnavailable naming tool and pkg.
func need(path, tool, pkg string) error {
	if path == "" {
		return fmt.Errorf("%w: %s not found (Debian package %s)", ErrUnavailable, tool, pkg)
	}
	return nil
}

// ffmpeg is nil when both ffmpeg and ffprobe are installed.
func (t Tools) ffmpeg() error {
	if err := need(t.FFmpeg, "ffmpeg", "ffmpeg"); err != nil {
		return err
	}
	return need(t.FFprobe, "ffprobe", "ffmpeg")
}

// bounded is ctx, given timeout d when it has no deadline of its own.
func bounded(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, d, fmt.Errorf("media: default timeout of %v reached: %w", d, context.DeadlineExceeded))
}
