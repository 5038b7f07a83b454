package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// withIdentity opens the database and runs fn with a started identity
// context (the directory caught up), then wakes the serving processes so
// they apply the change at once.
func (c *command) withIdentity(ctx context.Context, fn func(id *identityContext) error) error {
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	app := &App{Store: store, Clock: clock, Logger: c.logger, Config: c.cfg}
	id, err := newIdentity(app)
	if err != nil {
		return err
	}
	if err := id.Service.Start(ctx); err != nil {
		return err
	}
	if err := fn(id); err != nil {
		return err
	}
	_, err = db.SQL.ExecContext(ctx, `SELECT pg_notify('`+eventstore.NotifyChannel+`', '')`)
	return err
}

func (c *command) users(ctx context.Context, args []string) error {
	const use = "users set-plan EMAIL PLAN [--credits N] | users promote EMAIL --role ADMIN|USER"
	if len(args) < 2 {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	switch args[0] {
	case "set-plan":
		fs := flag.NewFlagSet("users set-plan", flag.ContinueOnError)
		credits := fs.Int64("credits", -1, "credit balance (default: keep the current one)")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 2 {
			return fmt.Errorf("%w: %s", errUsage, use)
		}
		var cr *int64
		if *credits >= 0 {
			cr = credits
		}
		return c.withIdentity(ctx, func(id *identityContext) error {
			u, err := id.Service.SetPlan(ctx, rest[0], strings.ToLower(rest[1]), cr)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "%s: plan %s, %d credits\n", u.Email, u.Plan, u.Credits)
			return nil
		})
	case "promote":
		fs := flag.NewFlagSet("users promote", flag.ContinueOnError)
		role := fs.String("role", "ADMIN", "ADMIN or USER")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return fmt.Errorf("%w: %s", errUsage, use)
		}
		return c.withIdentity(ctx, func(id *identityContext) error {
			u, err := id.Service.SetRole(ctx, rest[0], strings.ToUpper(*role))
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "%s: role %s\n", u.Email, u.Role)
			return nil
		})
	}
	return fmt.Errorf("%w: %s", errUsage, use)
}

func (c *command) keys(ctx context.Context, args []string) error {
	if len(args) != 1 || args[0] != "rotate" {
		return fmt.Errorf("%w: keys rotate", errUsage)
	}
	return c.withIdentity(ctx, func(id *identityContext) error {
		kid, err := id.Service.RotateSigningKey(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "new signing key %s signs from now on; older keys verify until their tokens expire (8 hours)\n", kid)
		return nil
	})
}
