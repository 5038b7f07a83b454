package stripemock

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
)

// Version is the stripe-mock release the tests build when none is
// installed (.ci/install-stripe-mock builds the same one).
const Version = "v0.203.0"

// install builds stripe-mock Version into dir through the Go module proxy
// (`go install`), once: a file lock makes concurrent test binaries wait for
// the first build instead of starting their own. It returns the binary's
// path.
func install(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "stripe-mock")
	lock, err := os.OpenFile(filepath.Join(dir, ".stripe-mock.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing releases it too
	if _, err := os.Stat(bin); err == nil {
		return bin, nil // another test binary built it while this one waited
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goCmd, "install", "github.com/stripe/stripe-mock@"+Version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install github.com/stripe/stripe-mock@%s: %v\n%s", Version, err, out)
	}
	if err := os.Rename(filepath.Join(tmp, "stripe-mock"), bin); err != nil {
		return "", err
	}
	return bin, nil
}
