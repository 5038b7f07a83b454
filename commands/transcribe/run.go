package transcribe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// waitDelay bounds how long Wait waits for a killed tool's output pipes.
const waitDelay = 2 * time.Second

// run runs name with args under ctx in a process group of its own (killed
// whole when ctx ends) and returns its standard output. A failure carries
// the tool's ERROR lines (or its last line of standard error).
func run(ctx context.Context, stdin io.Reader, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	cmd.Stdin = stdin
	var out bytes.Buffer
	errs := &tail{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = &out, errs
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("transcribe: %s: %w: %s", filepath.Base(name), err, errs.summary())
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

// summary is the kept text's ERROR/FATAL lines, else its last line.
func (t *tail) summary() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	var bad []string
	for _, l := range lines {
		if strings.HasPrefix(l, "ERROR") || strings.HasPrefix(l, "FATAL") {
			bad = append(bad, strings.TrimSpace(l))
		}
	}
	if len(bad) > 0 {
		return strings.Join(bad, "; ")
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// deadline maps the end of a job's context: the caller's own cancellation
// or deadline is returned as it is, the job's Timeout as ErrTimeout (which
// also matches context.DeadlineExceeded).
func deadline(parent, job context.Context, engine string, timeout time.Duration) error {
	if err := parent.Err(); err != nil {
		return err
	}
	if errors.Is(job.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %s did not finish within %v: %w", ErrTimeout, engine, timeout, context.DeadlineExceeded)
	}
	return job.Err()
}
