package runtime

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultGrace is how long Stop waits after SIGTERM before SIGKILL.
const DefaultGrace = 5 * time.Second

// DataFileName is the name of a company's data file in its data directory.
const DataFileName = "data.json"

// ProcessConfig configures the built-in runtime.
type ProcessConfig struct {
	// Node is the node binary: a path, or a name looked up in PATH. Empty
	// is "node".
	Node string
	// DataDir holds one directory per company (DataDir/<companyID>/), whose
	// data.json is the app's DATA_FILE in every version. Required.
	DataDir string
	// Path is the PATH apps get. Empty is the node binary's directory
	// followed by /usr/local/bin:/usr/bin:/bin.
	Path string
	// Grace is how long Stop waits after SIGTERM; zero is DefaultGrace.
	Grace time.Duration
	// LogLines and LogBytes bound each instance's log ring; zero takes
	// DefaultLogLines and DefaultLogBytes.
	LogLines, LogBytes int
	// Logger receives starts, exits and stops (never environment values);
	// nil discards them.
	Logger *slog.Logger
}

// Process is the built-in Runtime: each instance is `node server.js`, run
// in the app's directory as a child process in a process group of its own,
// listening on a free loopback port the runtime chooses. Its environment is
// a minimal base (PATH, HOME=the app's directory, NODE_ENV=production), then
// App.Env (which may override the base), then PORT, HOST=127.0.0.1 and
// DATA_FILE, which always win. Nothing of the parent's environment leaks in.
//
// The port is chosen by binding port 0 and releasing it just before the app
// binds it; should another process take it in between, the app fails to
// listen and the health check rolls the redeploy back.
type Process struct {
	node string
	cfg  ProcessConfig
	log  *slog.Logger
}

// NewProcess returns the built-in runtime. It fails if the node binary
// cannot be found, DataDir is empty or cannot be created, or the operating
// system has no process groups.
func NewProcess(cfg ProcessConfig) (*Process, error) {
	if !processGroups {
		return nil, fmt.Errorf("runtime: running apps as processes is not supported on this operating system")
	}
	if cfg.Node == "" {
		cfg.Node = "node"
	}
	node, err := exec.LookPath(cfg.Node)
	if err != nil {
		return nil, fmt.Errorf("runtime: node binary: %w", err)
	}
	if node, err = filepath.Abs(node); err != nil {
		return nil, fmt.Errorf("runtime: node binary: %w", err)
	}
	if cfg.DataDir == "" {
		return nil, fmt.Errorf("runtime: ProcessConfig.DataDir is required")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: data directory: %w", err)
	}
	if cfg.Path == "" {
		cfg.Path = filepath.Dir(node) + ":/usr/local/bin:/usr/bin:/bin"
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Process{node: node, cfg: cfg, log: logger}, nil
}

// DataFile returns the DATA_FILE path of a company's apps.
func (p *Process) DataFile(companyID string) string {
	return filepath.Join(p.cfg.DataDir, companyID, DataFileName)
}

// Start starts `node server.js` for app. It returns once the process has
// started; whether it serves is for the Deployer's probes to find out. The
// error wraps ErrInvalidApp when app cannot be run as given.
func (p *Process) Start(ctx context.Context, app App) (Instance, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkApp(app); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p.DataFile(app.CompanyID)), 0o700); err != nil {
		return nil, fmt.Errorf("runtime: company data directory: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ring := NewRingLog(p.cfg.LogLines, p.cfg.LogBytes)
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("runtime: output pipe: %w", err)
	}
	cmd := exec.Command(p.node, "server.js")
	cmd.Dir = app.Dir
	cmd.Env = p.env(app, port)
	cmd.Stdout, cmd.Stderr = pw, pw
	setProcessGroup(cmd)
	err = cmd.Start()
	pw.Close() // the child holds its own copy
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("runtime: start %s: %w", app.Version, err)
	}
	in := &ProcessInstance{
		cmd: cmd, addr: addr, ring: ring, grace: p.cfg.Grace, output: pr,
		exited: make(chan struct{}), copied: make(chan struct{}),
		log: p.log.With("company", app.CompanyID, "version", app.Version, "pid", cmd.Process.Pid),
	}
	ring.Line(fmt.Sprintf("[runtime] started node server.js (pid %d) on %s", cmd.Process.Pid, addr))
	go in.copyOutput(pr)
	go in.wait()
	in.log.Info("app started", "addr", addr)
	return in, nil
}

// env builds the app's environment: base, then App.Env, then the runtime's.
func (p *Process) env(app App, port int) []string {
	vars := map[string]string{"PATH": p.cfg.Path, "HOME": app.Dir, "NODE_ENV": "production"}
	for k, v := range app.Env {
		vars[k] = v
	}
	vars[EnvPort] = strconv.Itoa(port)
	vars[EnvHost] = "127.0.0.1"
	vars[EnvDataFile] = p.DataFile(app.CompanyID)
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	return out
}

// checkApp refuses an App that cannot be run as given. Error messages name
// environment variables but never show their values.
func checkApp(app App) error {
	if !validCompanyID(app.CompanyID) {
		return fmt.Errorf("%w: company id %q is not 1-128 letters, digits, '_' or '-'", ErrInvalidApp, app.CompanyID)
	}
	if !filepath.IsAbs(app.Dir) {
		return fmt.Errorf("%w: directory %q is not an absolute path", ErrInvalidApp, app.Dir)
	}
	if fi, err := os.Stat(app.Dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: directory %q does not exist", ErrInvalidApp, app.Dir)
	}
	for k, v := range app.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("%w: environment name %q", ErrInvalidApp, k)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("%w: the value of %s contains a NUL byte", ErrInvalidApp, k)
		}
	}
	return nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("runtime: free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, fmt.Errorf("runtime: free port: %w", err)
	}
	return port, nil
}

// copyOutput fills the ring from the process group's stdout and stderr until
// every writer has closed them or the group has been gone for a while.
func (in *ProcessInstance) copyOutput(r *os.File) {
	defer close(in.copied)
	_, _ = io.Copy(in.ring, r)
	r.Close()
}
