//go:build !unix

package pgcluster

import (
	"errors"
	"os/exec"
	"runtime"
)

// account is unused where PostgreSQL programs cannot be run as another user.
type account struct{}

func lookupAccount(string) (*account, error) {
	return nil, errors.New("pgcluster: a private PostgreSQL cluster is not supported on " + runtime.GOOS + ": set DATABASE_URL")
}

func (a *account) apply(*exec.Cmd)               {}
func (a *account) chown(string) error            { return nil }
func (a *account) checkTraversable(string) error { return nil }
func processAlive(int) bool                      { return false }

type watchdog struct{}

func startWatchdog(*Cluster) (*watchdog, error) { return nil, nil }
func (w *watchdog) disarm()                     {}
