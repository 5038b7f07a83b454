// Package s3test starts a real S3-compatible server for tests: SeaweedFS's
// `weed mini` (master, volume, filer and S3 gateway in one process) on free
// loopback ports in a temporary directory, with one S3 identity and one
// bucket, stopped when the test ends.
//
// The weed binary is found through STRATA_WEED, then in the tools cache
// (${XDG_CACHE_HOME:-$HOME/.cache}/strata-tools/bin/weed, where .ci/run
// builds it when missing), then on PATH. Without it the test is skipped
// with the command that installs it.
package s3test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/strata-platform/strata/commands/blobs"
)

// EnvWeed names the environment variable that points at a weed binary.
const EnvWeed = "STRATA_WEED"

// InstallHint is the command that builds the weed binary where the tests
// look for it (what .ci/run does when it is missing).
const InstallHint = "bash .ci/install-weed (builds SeaweedFS's weed into ${XDG_CACHE_HOME:-$HOME/.cache}/strata-tools/bin; or set " + EnvWeed + ")"

// Bucket is the bucket the server is started with.
const Bucket = "strata-test"

// Weed returns the path of the weed binary, or an error saying where it
// was looked for.
func Weed() (string, error) {
	if p := os.Getenv(EnvWeed); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvWeed, p, err)
		}
		return p, nil
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		p := filepath.Join(cache, "strata-tools", "bin", "weed")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("weed"); err == nil {
		return p, nil
	}
	return "", errors.New("no weed binary: not in " + EnvWeed + ", the tools cache or PATH")
}

// Server is a running S3-compatible server.
type Server struct {
	// Config reaches the server's bucket with its identity.
	Config blobs.S3Config
	cmd    *exec.Cmd
	logs   *syncBuffer
}

// Start starts a server for t and stops it at t's cleanup; it skips t when
// no weed binary is installed.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Weed()
	if err != nil {
		t.Skipf("S3 tests need SeaweedFS's weed binary (%v); install it with: %s", err, InstallHint)
	}
	dir := t.TempDir()
	ak, sk := "strata-test-key", "strata-test-secret-0123456789"
	ident := map[string]any{"identities": []any{map[string]any{
		"name":        "strata",
		"credentials": []any{map[string]string{"accessKey": ak, "secretKey": sk}},
		"actions":     []string{"Admin", "Read", "Write", "List", "Tagging"},
	}}}
	conf := filepath.Join(dir, "s3.json")
	b, _ := json.Marshal(ident)
	if err := os.WriteFile(conf, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 10)
	s3port := ports[0]
	args := []string{"mini", "-dir=" + filepath.Join(dir, "data"),
		"-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-master.port=" + ports[1], "-master.port.grpc=" + ports[2],
		"-volume.port=" + ports[3], "-volume.port.grpc=" + ports[4],
		"-filer.port=" + ports[5], "-filer.port.grpc=" + ports[6],
		"-s3.port=" + s3port, "-s3.port.grpc=" + ports[7],
		"-s3.port.iceberg=0", "-s3.port.lance=0",
		"-filer.localSocket=" + filepath.Join(dir, "filer.sock"),
		"-s3.localSocket=" + filepath.Join(dir, "s3.sock"),
		// The admin server runs even without its UI: its ports too, and
		// no legacy port (fixed ports would collide between tests).
		"-admin.port=" + ports[8], "-admin.port.grpc=" + ports[9], "-admin.port.legacy=0",
		"-webdav=false", "-admin.ui=false", "-master.telemetry=false",
		"-s3.config=" + conf, "-bucket=" + Bucket,
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &Server{logs: &syncBuffer{}}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start weed: %v", err)
	}
	t.Cleanup(s.stop)
	s.Config = blobs.S3Config{Endpoint: "127.0.0.1:" + s3port, Bucket: Bucket, Region: "us-east-1",
		AccessKey: ak, SecretKey: sk, StagingDir: filepath.Join(dir, "staging")}
	if err := s.waitReady(90 * time.Second); err != nil {
		t.Fatalf("weed mini did not become ready: %v\n%s", err, s.logs.String())
	}
	return s
}

// waitReady waits until the bucket answers through the S3 API with the
// server's identity, and a write and read of an object go through.
func (s *Server) waitReady(limit time.Duration) error {
	client, err := minio.New(s.Config.Endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(s.Config.AccessKey, s.Config.SecretKey, ""), Region: s.Config.Region})
	if err != nil {
		return err
	}
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		if s.cmd.ProcessState != nil {
			return errors.New("weed exited")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		last = probe(ctx, client)
		cancel()
		if last == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return last
}

func probe(ctx context.Context, client *minio.Client) error {
	ok, err := client.BucketExists(ctx, Bucket)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("bucket not there yet")
	}
	_, err = client.PutObject(ctx, Bucket, "ready/probe", bytes.NewReader([]byte("ok")), 2, minio.PutObjectOptions{})
	if err != nil {
		return err
	}
	return client.RemoveObject(ctx, Bucket, "ready/probe", minio.RemoveObjectOptions{})
}

// stop ends the server's process group (SIGTERM, then SIGKILL).
func (s *Server) stop() {
	if s.cmd.Process == nil {
		return
	}
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
}

// freePorts returns n distinct free loopback TCP ports.
func freePorts(t testing.TB, n int) []string {
	t.Helper()
	var out []string
	var ls []net.Listener
	for len(out) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
