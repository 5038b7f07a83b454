package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

// defaultDevUpstreamAddr is where `strata dev-upstream` listens by default.
const defaultDevUpstreamAddr = "127.0.0.1:8099"

// devUpstream runs `strata dev-upstream [--addr] [--pass-through URL]`:
// the development upstream (commands/gateway/devupstream) until the
// context ends; with --pass-through, a proxy that only forwards to URL
// instead (the bench's measure of one HTTP hop, devupstream.PassThrough).
func (c *command) devUpstream(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("dev-upstream", flag.ContinueOnError)
	addr := fs.String("addr", defaultDevUpstreamAddr, "listen address")
	through := fs.String("pass-through", "", "forward every request to this base URL and do nothing else (a measuring stick for benches)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: dev-upstream takes no arguments", errUsage)
	}
	if c.cfg.Production {
		return fmt.Errorf("dev-upstream: the development upstream does not run with STRATA_ENV=production (it answers invented text)")
	}
	var proxy http.Handler
	if *through != "" {
		if proxy, err = devupstream.PassThrough(*through); err != nil {
			return fmt.Errorf("%w: dev-upstream --pass-through: %v", errUsage, err)
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("dev-upstream: %w", err)
	}
	if proxy != nil {
		fmt.Fprintf(c.stdout, "dev-upstream: a pass-through proxy to %s listens on %s; it forwards and does nothing else\n",
			*through, devupstream.BaseURL(ln.Addr().String()))
		return devupstream.Serve(ctx, ln, proxy)
	}
	fmt.Fprintf(c.stdout, "dev-upstream: the development upstream listens on %s (POST %s, POST %s); "+
		"it is for development and tests, never an upstream of a production configuration\n",
		devupstream.BaseURL(ln.Addr().String()), devupstream.MessagesPath, devupstream.OpenAIPath)
	return devupstream.Serve(ctx, ln, &devupstream.Handler{Forget: true}) // runs for long: no record of requests
}
