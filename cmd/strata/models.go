package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

const modelsUsage = "models import FILE | models list [--json] | models retire ID --replaced-by ID"

// models runs `strata models`: the gateway's model catalog.
func (c *command) models(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, modelsUsage)
	}
	switch args[0] {
	case "import":
		rest, err := parseFlags(flag.NewFlagSet("models import", flag.ContinueOnError), args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return fmt.Errorf("%w: %s", errUsage, modelsUsage)
		}
		return c.modelsImport(ctx, rest[0])
	case "list":
		fs := flag.NewFlagSet("models list", flag.ContinueOnError)
		asJSON := fs.Bool("json", false, "print the catalog as a catalog file (importable)")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 0 {
			return fmt.Errorf("%w: %s", errUsage, modelsUsage)
		}
		return c.withCatalog(ctx, func(cmds *cmdgateway.Catalog) error { return c.modelsList(ctx, cmds, *asJSON) })
	case "retire":
		fs := flag.NewFlagSet("models retire", flag.ContinueOnError)
		by := fs.String("replaced-by", "", "the live model that replaces it")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 || *by == "" {
			return fmt.Errorf("%w: %s", errUsage, modelsUsage)
		}
		return c.withCatalog(ctx, func(cmds *cmdgateway.Catalog) error {
			v, changed, err := cmds.Retire(ctx, rest[0], *by)
			if err != nil {
				return err
			}
			if !changed {
				fmt.Fprintf(c.stdout, "%s is already retired in favour of %s (catalog version %d)\n", rest[0], *by, v)
				return nil
			}
			fmt.Fprintf(c.stdout, "retired %s in favour of %s: catalog version %d\n", rest[0], *by, v)
			return nil
		})
	}
	return fmt.Errorf("%w: %s", errUsage, modelsUsage)
}

// withCatalog opens the database and runs fn with the catalog's commands,
// then wakes the serving processes so their catalogs catch up at once.
func (c *command) withCatalog(ctx context.Context, fn func(cmds *cmdgateway.Catalog) error) error {
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	if err := fn(cmdgateway.NewCatalog(store, clock, nil)); err != nil {
		return err
	}
	_, err = db.SQL.ExecContext(ctx, `SELECT pg_notify('`+eventstore.NotifyChannel+`', '')`)
	return err
}

// modelsImport validates a catalog file before touching the database (a
// refusal names the entry and the field), then makes the catalog equal to
// it; the same file again records nothing.
func (c *command) modelsImport(ctx context.Context, path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := catalog.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return c.withCatalog(ctx, func(cmds *cmdgateway.Catalog) error {
		res, err := cmds.Import(ctx, f, filepath.Base(path))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if res.Unchanged {
			fmt.Fprintf(c.stdout, "%s is the catalog already: nothing recorded (catalog version %d, hash %s)\n", path, res.Version, res.Hash[:16])
			return nil
		}
		fmt.Fprintf(c.stdout, "imported %s: catalog version %d, hash %s\n", path, res.Version, res.Hash[:16])
		for _, l := range []struct {
			what string
			ids  []string
		}{{"added", res.Added}, {"changed", res.Changed}, {"retired", res.Retired}} {
			if len(l.ids) > 0 {
				fmt.Fprintf(c.stdout, "  %s: %s\n", l.what, strings.Join(l.ids, ", "))
			}
		}
		return nil
	})
}

// modelsList prints the catalog: a table of its models, its routers and
// defaults, or (--json) the catalog file that `models import` reads back.
func (c *command) modelsList(ctx context.Context, cmds *cmdgateway.Catalog, asJSON bool) error {
	s, err := cmds.Load(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		_, err := c.stdout.Write(s.File().JSON())
		return err
	}
	if s.Imports == 0 {
		fmt.Fprintln(c.stdout, "no catalog yet: `strata serve` imports the built-in one, or import a file with `strata models import FILE`")
		return nil
	}
	snap := s.Snapshot()
	fmt.Fprintf(c.stdout, "catalog version %d, hash %s, changed %s\n\n", snap.Version, snap.Hash[:16], snap.Modified.Format("2006-01-02 15:04:05Z07:00"))
	tw := tabwriter.NewWriter(c.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIER\tKIND\tSTATUS\tMAX_TOKENS\tTOOLS\tIMAGES\tUPSTREAM\tREPLACED_BY")
	for _, m := range snap.Models() {
		upstream := ""
		if m.Upstream.ID != "" {
			upstream = m.Upstream.ID + "/" + m.Upstream.Model
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%v\t%v\t%s\t%s\n", m.ID, m.Tier, m.Kind, m.Status, m.MaxTokens, m.SupportsTools,
			m.SupportsImages, upstream, m.ReplacedBy)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout)
	for _, r := range snap.Routers("") {
		var routes []string
		for _, task := range catalog.Tasks() {
			routes = append(routes, task+"="+r.Routes[task])
		}
		fmt.Fprintf(c.stdout, "router %s (%s+): %s\n", r.ID, r.Tier, strings.Join(routes, " "))
	}
	var defaults []string
	for _, t := range catalog.Tiers() {
		if m, ok := snap.Default(t); ok {
			defaults = append(defaults, string(t)+"="+m.ID)
		}
	}
	fmt.Fprintf(c.stdout, "defaults: %s\n", strings.Join(defaults, " "))
	return nil
}
