package media

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/strata-platform/strata/commands/proc"
)

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
	out, errs, err := proc.Run(ctx, dir, nil, name, args...)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("media: %s stopped: %w", base, context.Cause(ctx))
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, name, err)
	}
	if err != nil {
		lines := errs.Lines()
		if len(lines) > 3 {
			lines = lines[len(lines)-3:]
		}
		if len(lines) > 0 {
			return nil, fmt.Errorf("media: %s: %w: %s", base, err, strings.Join(lines, "; "))
		}
		return nil, fmt.Errorf("media: %s: %w", base, err)
	}
	return out, nil
}
