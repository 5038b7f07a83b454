package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// waitDelay bounds how long Wait waits for a killed tool's output pipes.
const waitDelay = 2 * time.Second

// run runs name with args in dir ("" for the current directory) under ctx,
// in a process group of its own that is killed whole when ctx ends, and
// returns its standard output. When ctx ends the error wraps its cause
// (context.Canceled or context.DeadlineExceeded); a failure of the tool
// carries the last lines of its standard error.
func run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	base := filepath.Base(name)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("media: %s: %w", base, context.Cause(ctx))
	}
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	cmd.Dir = dir
	var out bytes.Buffer
	errs := &tail{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = &out, errs
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("media: %s stopped: %w", base, context.Cause(ctx))
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, name, err)
	}
	if err != nil {
		if s := errs.summary(); s != "" {
			return nil, fmt.Errorf("media: %s: %w: %s", base, err, s)
		}
		return nil, fmt.Errorf("media: %s: %w", base, err)
	}
	return out.Bytes(), nil
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

// summary is the kept text's last three non-empty lines, joined by "; ".
func (t *tail) summary() string {
	var lines []string
	for _, l := range strings.Split(string(t.b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, "; ")
}
