// Package proc runs the external tools the platform calls as processes
// (ffmpeg, ffprobe, flite, espeak-ng, pocketsphinx): each in a process
// group of its own, killed whole when its context ends, so nothing a tool
// started outlives it; its standard output kept, and the end of its
// standard error for the error message.
package proc

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"time"
)

// WaitDelay bounds how long a killed tool's output pipes are waited for.
const WaitDelay = 2 * time.Second

// stderrKeep is how much of a tool's standard error is kept (its end).
const stderrKeep = 8 << 10

// Run runs name with args in dir ("" the current directory) with stdin
// (nil none) under ctx, and returns its standard output and the last 8 KiB
// of its standard error. err is exec's (the caller checks ctx.Err() first
// to tell a cancellation from the tool's own failure).
func Run(ctx context.Context, dir string, stdin io.Reader, name string, args ...string) (stdout []byte, stderr Tail, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.WaitDelay = WaitDelay
	cmd.Dir, cmd.Stdin = dir, stdin
	var out bytes.Buffer
	errs := &tail{max: stderrKeep}
	cmd.Stdout, cmd.Stderr = &out, errs
	err = cmd.Run()
	return out.Bytes(), Tail(errs.b), err
}

// Tail is the kept end of a tool's standard error.
type Tail []byte

// Lines are its non-empty lines, trimmed.
func (t Tail) Lines() []string {
	var out []string
	for _, l := range strings.Split(string(t), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	b   []byte
}

// Write keeps p's end.
func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}
