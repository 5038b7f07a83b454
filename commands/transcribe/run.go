package transcribe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/proc"
)

// run runs name with args under ctx in a process group of its own (killed
// whole when ctx ends) and returns its standard output. A failure carries
// the tool's ERROR lines (or its last line of standard error).
func run(ctx context.Context, stdin io.Reader, name string, args ...string) ([]byte, error) {
	out, errs, err := proc.Run(ctx, "", stdin, name, args...)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("transcribe: %s: %w: %s", filepath.Base(name), err, summary(errs))
	}
	return out, nil
}

// summary is a tool's ERROR/FATAL lines, else its last line.
func summary(t proc.Tail) string {
	lines := t.Lines()
	var bad []string
	for _, l := range lines {
		if strings.HasPrefix(l, "ERROR") || strings.HasPrefix(l, "FATAL") {
			bad = append(bad, l)
		}
	}
	if len(bad) > 0 {
		return strings.Join(bad, "; ")
	}
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
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
