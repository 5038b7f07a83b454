// Package runtime runs founders' apps for the builder and redeploys them
// behind a health check.
//
// A Runtime starts one version of an app as an Instance; Process is the
// built-in adapter (`node server.js` as a child process on a loopback port),
// and a container platform can implement the same interface. A Deployer keeps
// each company's serving instance behind a reverse proxy: Redeploy starts the
// new version beside the running one, switches traffic only after
// Probe.Healthy consecutive 2xx answers on the health path within the
// deadline, and drains and stops the old one; otherwise the new one is
// stopped and the old one keeps serving.
//
// The contract an app keeps: it listens on HOST:PORT, answers the health
// path (/healthz) with a 2xx once it can serve, and keeps its records in
// DATA_FILE. DATA_FILE outlives versions, and during a redeploy two versions
// run side by side on it for a moment, so an app reads the file when it
// needs the records (not once at start) and replaces it atomically (write a
// temporary file, then rename it).
//
// Scale-out: instances are local to the process that started them, and so
// is a Deployer's routing table. Several builder processes either route a
// company's preview traffic to the process that deployed it, or use a
// Runtime whose instances are reachable from every process (a container
// platform); serialising redeploys across processes (an advisory lock in
// PostgreSQL) is the caller's part.
package runtime

import (
	"context"
	"errors"
)

// App is one version of a founder's app to run: a directory holding its
// files (server.js at the top; started with `node server.js`), and its
// environment (secrets already decrypted by the caller, plus what the
// runtime adds: PORT, HOST, DATA_FILE).
type App struct {
	CompanyID string            // the company (chat) whose app this is; letters, digits, '_' and '-'
	Version   string            // the version id being deployed
	Dir       string            // the directory holding the app's files
	Env       map[string]string // secrets and settings; never logged
}

// Runtime starts app processes. Process is the built-in adapter (a child
// process on a loopback port); a container platform can implement the same
// interface.
type Runtime interface {
	// Start starts app and returns as soon as it is started, not when it is
	// healthy (the Deployer probes it). ctx bounds the start only, never the
	// instance's life.
	Start(ctx context.Context, app App) (Instance, error)
}

// Instance is one running version of an app.
type Instance interface {
	// Addr is the host:port the app should listen on.
	Addr() string
	// Stop sends SIGTERM, waits up to a grace period (shorter if ctx ends),
	// then sends SIGKILL; it returns once the process and its children are
	// gone. It is safe to call more than once and after the app exited.
	Stop(ctx context.Context) error
	// LogTail returns the last n lines of stdout and stderr (a bounded ring
	// buffer), with the runtime's own notes such as the exit status.
	LogTail(n int) string
	// Exited is closed once the app's process has exited.
	Exited() <-chan struct{}
}

// Names the runtime sets itself: an App.Env entry with one of these names is
// overridden (the secrets store should refuse them).
const (
	EnvPort     = "PORT"      // the loopback port to listen on
	EnvHost     = "HOST"      // the address to listen on (127.0.0.1 for Process)
	EnvDataFile = "DATA_FILE" // the company's data file, kept across versions
)

// Reserved reports whether name is set by the runtime and so cannot be an
// app's secret or setting.
func Reserved(name string) bool {
	switch name {
	case EnvPort, EnvHost, EnvDataFile:
		return true
	}
	return false
}

// Errors callers check with errors.Is.
var (
	// ErrInvalidApp: the App cannot be run (no company, a company id that
	// is not a safe name, no directory, an environment name or value that
	// cannot be passed to a process).
	ErrInvalidApp = errors.New("runtime: invalid app")
	// ErrClosed: the Deployer was closed.
	ErrClosed = errors.New("runtime: deployer closed")
)

// validCompanyID reports whether id can name a directory as is: 1 to 128
// ASCII letters, digits, '_' and '-'.
func validCompanyID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		if !ok {
			return false
		}
	}
	return true
}
