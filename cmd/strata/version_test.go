package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	module := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	git := func() string { return "0123abc" }
	none := func() string { return "" }
	for _, tc := range []struct {
		name   string
		commit string
		info   *debug.BuildInfo
		goRun  bool
		git    func() string
		want   string
	}{
		{"the linker flag wins", "feedbeef", vcs("aaa", "false"), true, git, "feedbeef"},
		{"go build in a checkout", "", vcs("aaa", "false"), false, none, "aaa"},
		{"go build of a changed checkout", "", vcs("aaa", "true"), false, none, "aaa-dirty"},
		{"go install module@version, no checkout", "", module, false, git, "v1.4.0"},
		{"go run without vcs stamping asks git", "", devel, true, git, "0123abc"},
		{"a binary run inside some other checkout does not take its commit", "", devel, false, git, "dev"},
		{"nothing known", "", nil, true, none, "dev"},
	} {
		if got := versionFrom(tc.commit, tc.info, tc.goRun, tc.git); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The Taskfile's build stamps the version with the linker flag, which works
// outside a git checkout too (a tarball, a container build context).
func TestVersionLinkerFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "strata")
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", "-X main.commit=v9.9.9-test", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "version")
	cmd.Dir = t.TempDir() // not a git checkout
	cmd.Env = append(os.Environ(), "STRATA_VERSION=")
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "v9.9.9-test" {
		t.Fatalf("strata version: %q, %v", out, err)
	}
}
