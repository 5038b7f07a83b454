package builder

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// DeploysConfig is what app deploys need.
type DeploysConfig struct {
	Chats    *Chats
	Store    *eventstore.Store
	Clock    kernel.Clock
	Deployer *runtime.Deployer
	// AppsDir is where versions' files are written to be run
	// (AppsDir/<chatId>/<versionId>/).
	AppsDir string
	// Secrets returns a company's secret values for its app's environment;
	// nil: none.
	Secrets func(ctx context.Context, companyID string) (map[string]string, error)
	// AppEnv adds the platform's own settings to an app's environment
	// (the business systems' key and URL); nil: none.
	AppEnv func(ctx context.Context, companyID string, env map[string]string) error
	Logger *slog.Logger
}

// Deploys runs chats' apps: the preview is the app of the chat's current
// version, started on its first request (and health-checked like any
// redeploy); Redeploy restarts it with the current secrets.
type Deploys struct {
	cfg      DeploysConfig
	mu       sync.Mutex
	inflight map[string]*deployCall
}

type deployCall struct {
	done     chan struct{}
	res      runtime.Result
	err      error
	secretAt time.Time // when the deploy read the secrets
}

// NewDeploys returns the deploy commands.
func NewDeploys(cfg DeploysConfig) *Deploys {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Deploys{cfg: cfg, inflight: map[string]*deployCall{}}
}

// materialize writes version v's files under AppsDir (once: a complete
// copy is marked) and returns the directory.
func (d *Deploys) materialize(ctx context.Context, chatID string, v builder.Version) (string, error) {
	dir := filepath.Join(d.cfg.AppsDir, chatID, v.VersionID)
	marker := filepath.Join(dir, ".strata-complete")
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", err
	}
	for _, f := range v.Files {
		if err := checkPath(f.Path); err != nil {
			return "", err
		}
		dst := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		b, err := d.cfg.Chats.File(ctx, chatID, f)
		if err != nil {
			return "", err
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err == nil {
			_, err = io.Copy(out, b)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		b.Close()
		if err != nil {
			return "", fmt.Errorf("write %s: %w", f.Path, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".strata-complete"), []byte(v.VersionID+"\n"), 0o644); err != nil {
		return "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// deploy starts version v of chat ch beside what runs (one deploy of a
// chat at a time: concurrent callers share its result).
func (d *Deploys) deploy(ctx context.Context, ch *builder.Chat, v builder.Version, trigger, founderID string) (runtime.Result, error) {
	d.mu.Lock()
	if call, ok := d.inflight[ch.ID]; ok {
		d.mu.Unlock()
		select {
		case <-call.done:
			return call.res, call.err
		case <-ctx.Done():
			return runtime.Result{}, ctx.Err()
		}
	}
	call := &deployCall{done: make(chan struct{})}
	d.inflight[ch.ID] = call
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.inflight, ch.ID)
		d.mu.Unlock()
		close(call.done)
	}()
	call.res, call.secretAt, call.err = d.run(context.WithoutCancel(ctx), ch, v)
	if call.err == nil {
		ev := &builder.AppDeployed{CompanyID: ch.ID, VersionID: v.VersionID, Previous: call.res.Previous, Switched: call.res.Switched,
			Reason: call.res.Reason, Probes: len(call.res.Probes), DurationMS: call.res.Duration.Milliseconds(), Trigger: trigger,
			FounderID: founderID, SecretsReadAt: call.secretAt, At: d.cfg.Clock.Now()}
		stream := eventstore.Stream{Type: builder.StreamDeploys, ID: builder.DeploysStream(ch.ID)}
		if _, err := d.cfg.Store.Append(context.WithoutCancel(ctx), stream, eventstore.AnyVersion, ev); err != nil {
			d.cfg.Logger.Error("builder: recording a deploy failed", "chat", ch.ID, "version", v.VersionID, "error", err)
		}
	}
	return call.res, call.err
}

func (d *Deploys) run(ctx context.Context, ch *builder.Chat, v builder.Version) (runtime.Result, time.Time, error) {
	dir, err := d.materialize(ctx, ch.ID, v)
	if err != nil {
		return runtime.Result{}, time.Time{}, fmt.Errorf("deploy %s: %w", ch.ID, err)
	}
	env := map[string]string{}
	readAt := d.cfg.Clock.Now()
	if d.cfg.Secrets != nil {
		if env, err = d.cfg.Secrets(ctx, ch.ID); err != nil {
			return runtime.Result{}, readAt, fmt.Errorf("deploy %s: secrets: %w", ch.ID, err)
		}
		if env == nil {
			env = map[string]string{}
		}
	}
	// The preview runs in a sandboxed document (an opaque origin): its
	// API calls come with Origin: null.
	env["ALLOW_ORIGIN"] = "null"
	if d.cfg.AppEnv != nil {
		if err := d.cfg.AppEnv(ctx, ch.ID, env); err != nil {
			return runtime.Result{}, readAt, fmt.Errorf("deploy %s: systems settings: %w", ch.ID, err)
		}
	}
	res, err := d.cfg.Deployer.Redeploy(ctx, runtime.App{CompanyID: ch.ID, Version: v.VersionID, Dir: dir, Env: env})
	return res, readAt, err
}

// ServePreview serves a request to the app of chat ch's version v, under
// the path rest (the preview's prefix removed): the running app when it
// runs v, else after starting v (health-checked). A version that fails
// its health check answers 503 with the reason.
func (d *Deploys) ServePreview(w http.ResponseWriter, r *http.Request, ch *builder.Chat, v builder.Version, rest string) {
	if cur, ok := d.cfg.Deployer.Current(ch.ID); !ok || cur != v.VersionID {
		res, err := d.deploy(r.Context(), ch, v, builder.TriggerPreview, "")
		if err != nil || !res.Switched {
			reason := res.Reason
			if err != nil {
				d.cfg.Logger.Error("builder: starting a preview failed", "chat", ch.ID, "version", v.VersionID, "error", err)
				reason = "the app could not be started"
			}
			w.Header().Set("Retry-After", "5")
			http.Error(w, "This preview's app is not running: "+reason, http.StatusServiceUnavailable)
			return
		}
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + strings.TrimPrefix(rest, "/")
	r2.URL.RawPath = ""
	d.cfg.Deployer.Handler(ch.ID).ServeHTTP(w, r2)
}

// Redeploy starts the company's current version with its current secrets
// beside the running one and switches only after its health checks pass
// (runtime.Deployer); the result says what happened, never healthy before
// the probes did. founderID must own the company (Chats.Owned).
func (d *Deploys) Redeploy(ctx context.Context, founderID, companyID string) (runtime.Result, error) {
	ch, err := d.cfg.Chats.Owned(ctx, founderID, companyID)
	if err != nil {
		return runtime.Result{}, err
	}
	v, ok := ch.CurrentVersion()
	if !ok {
		return runtime.Result{}, kernel.Invalid("companyId", "no_version", "this company has no version to deploy yet: its generation has not completed")
	}
	return d.deploy(ctx, ch, v, builder.TriggerRedeploy, founderID)
}

// DeployedAt is when the company's app that serves now read its secrets
// (false: never deployed), for the secrets' pending_redeploy: a change
// after it is not in the running app's environment.
func (d *Deploys) DeployedAt(ctx context.Context, companyID string) (time.Time, bool, error) {
	evs, err := d.cfg.Store.Load(ctx, builder.DeploysStream(companyID), eventstore.LoadOptions{})
	if err != nil {
		return time.Time{}, false, err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if e, ok := evs[i].Event.(*builder.AppDeployed); ok && e.Switched {
			if !e.SecretsReadAt.IsZero() {
				return e.SecretsReadAt, true, nil
			}
			return e.At, true, nil
		}
	}
	return time.Time{}, false, nil
}
