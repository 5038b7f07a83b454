package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/readapi"
)

// serve runs the chosen surfaces, the admin listener, the projectors and the
// background jobs until ctx ends; then it stops accepting requests, drains
// the ones in flight, lets running jobs finish (or releases them), lets
// every projector commit its batch, closes the database and stops the
// embedded cluster.
func (c *command) serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	list := fs.String("surfaces", strings.Join(readapi.Surfaces(), ","), "comma-separated surfaces to run")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the process, until it stops, to this file (go tool pprof)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fmt.Errorf("serve: --cpuprofile: %w", err)
		}
		defer stop()
	}
	surfaces, err := chooseSurfaces(*list)
	if err != nil {
		return err
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()

	var clock kernel.Clock = kernel.SystemClock{}
	if c.wiring.Clock != nil {
		clock = c.wiring.Clock
	}
	ids := eventstore.NewULIDs(clock)
	store := eventstore.New(db.SQL, reg, clock, ids)
	wake := projections.NewSignal()
	bg, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	var bgDone sync.WaitGroup
	bgDone.Add(1)
	go func() { defer bgDone.Done(); projections.Listen(bg, db.URL, wake, c.logger) }()
	bgDone.Add(1)
	go func() { defer bgDone.Done(); store.RunNotifierTypes(bg, wake.FireTypes) }()
	keys, err := c.keyRing()
	if err != nil {
		stopBG()
		return err
	}
	runner, err := projections.NewRunner(db.SQL, reg, wake, c.logger, projections.Config{}, c.wiring.projectors(reg, keys)...)
	if err != nil {
		stopBG()
		return err
	}
	store.SetGuard(runner.Guard().Check) // commands on a parked stream answer 503
	bgDone.Add(1)
	go func() { defer bgDone.Done(); runner.Run(bg) }()
	defer func() { stopBG(); bgDone.Wait() }() // projectors commit their batch, then the pool closes

	jobsCfg := c.cfg.Jobs
	jobsCfg.ListenURL, jobsCfg.Clock, jobsCfg.Logger = db.URL, clock, c.logger
	if c.wiring.Clock != nil {
		jobsCfg.DueClock = clock
	}
	jobsSvc, err := jobs.New(db.SQL, jobsCfg)
	if err != nil {
		return err
	}
	prom := prometheus.NewRegistry()
	prom.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newStoreCollector(db.SQL, runner), newJobsCollector(jobsSvc))
	health := &healthSource{db: db.SQL, runner: runner}
	app := &App{Store: store, Runner: runner, Clock: clock, IDs: ids, Logger: c.logger, Wake: wake, Config: c.cfg, Keys: keys,
		Jobs: jobsSvc, Metrics: prom,
		Go: func(fn func(ctx context.Context)) {
			bgDone.Add(1)
			go func() { defer bgDone.Done(); fn(bg) }()
		}}
	if c.wiring.Start != nil {
		if err := c.wiring.Start(ctx, app); err != nil {
			return err
		}
	}
	// The contexts have declared their job kinds: work them until the
	// requests are drained, stopping before the projectors and the pool.
	if err := jobsSvc.Start(ctx); err != nil {
		return err
	}
	defer c.stopJobs(jobsSvc)

	servers := map[string]*http.Server{}
	for _, name := range surfaces {
		deps := readapi.Deps{Logger: c.logger, Registry: prom, Health: health, Version: c.cfg.Version, MaxBodyBytes: c.cfg.MaxBodyBytes}
		if c.wiring.BodyLimits != nil {
			deps.BodyLimitFor = c.wiring.BodyLimits(name, app)
		}
		if c.wiring.Checks != nil {
			deps.Checks = c.wiring.Checks(name, app)
		}
		s, err := readapi.NewSurface(name, deps)
		if err != nil {
			return err
		}
		if c.wiring.Routes != nil {
			c.wiring.Routes(name, s.Router, app)
		}
		servers[name] = readapi.NewServer(c.cfg.Addrs[name], s.Handler)
	}
	servers["admin"] = readapi.NewServer(c.cfg.AdminAddr, readapi.AdminHandler(prom, health))
	return c.listen(ctx, servers)
}

// listen binds every server first (a taken port fails the start), serves
// until ctx ends, then shuts them down gracefully.
func (c *command) listen(ctx context.Context, servers map[string]*http.Server) error {
	lns := map[string]net.Listener{}
	for name, srv := range servers {
		ln, err := net.Listen("tcp", srv.Addr)
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return fmt.Errorf("listen %s on %s: %w", name, srv.Addr, err)
		}
		lns[name] = ln
	}
	failed := make(chan error, len(servers))
	for name, srv := range servers {
		c.logger.Info("listening", "surface", name, "addr", lns[name].Addr().String())
		go func() {
			if err := srv.Serve(lns[name]); err != nil && !errors.Is(err, http.ErrServerClosed) {
				failed <- fmt.Errorf("serve %s: %w", name, err)
			}
		}()
	}
	var err error
	select {
	case <-ctx.Done():
		c.logger.Info("shutting down: draining requests")
	case err = <-failed:
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for name, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Shutdown(shutdownCtx); err != nil {
				c.logger.Warn("shutdown", "surface", name, "err", err)
			}
		}()
	}
	wg.Wait()
	return err
}

func chooseSurfaces(list string) ([]string, error) {
	known := map[string]bool{}
	for _, s := range readapi.Surfaces() {
		known[s] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		if !known[s] {
			return nil, fmt.Errorf("%w: --surfaces: unknown surface %q (known: %s)", errUsage, s, strings.Join(readapi.Surfaces(), ","))
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --surfaces: name at least one surface", errUsage)
	}
	return out, nil
}
