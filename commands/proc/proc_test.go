//go:build unix

package proc

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestRunKeepsOutputAndTheEndOfStderr(t *testing.T) {
	out, errs, err := Run(context.Background(), "", strings.NewReader("in"), "sh", "-c",
		`cat; i=0; while [ $i -lt 3000 ]; do echo "line $i" >&2; i=$((i+1)); done; echo last >&2; exit 3`)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("err = %v", err)
	}
	if string(out) != "in" {
		t.Fatalf("stdout %q", out)
	}
	lines := errs.Lines()
	if len(errs) > stderrKeep || lines[len(lines)-1] != "last" || strings.Contains(string(errs), "line 0\n") {
		t.Fatalf("kept %d bytes ending %q", len(errs), lines[len(lines)-1])
	}
}

// A cancelled context kills the tool's whole process group: a child that
// holds the output pipe does not keep Run waiting.
func TestRunKillsTheProcessGroup(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := Run(ctx, "", nil, "sh", "-c", "sleep 30 & sleep 30")
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err = %v", err)
	}
	if took := time.Since(start); took > 300*time.Millisecond+WaitDelay {
		t.Fatalf("returned after %v", took)
	}
	if out, _ := exec.Command("pgrep", "-f", "sleep 30").CombinedOutput(); strings.TrimSpace(string(out)) != "" {
		t.Fatalf("left behind: %s", out)
	}
}
