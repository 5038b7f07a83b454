package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	cmdplans "github.com/strata-platform/strata/commands/plans"
	gwcredits "github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore"
	projgateway "github.com/strata-platform/strata/projections/gateway"
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
	const use = "users set-plan EMAIL PLAN [--line platform|gateway|voice|audit] [--credits N] | users promote EMAIL --role ADMIN|USER"
	if len(args) < 2 {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	switch args[0] {
	case "set-plan":
		fs := flag.NewFlagSet("users set-plan", flag.ContinueOnError)
		credits := fs.Int64("credits", -1, "make the account's gateway credit balance N (an adjustment in the credit ledger; default: keep it)")
		line := fs.String("line", plans.LinePlatform, "product line: platform, gateway, voice or audit")
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
			return c.setPlan(ctx, id, rest[0], *line, strings.ToLower(rest[1]), cr)
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

// setPlan puts the platform account behind email on plan in line through
// the plans service (the one source every context reads). --credits N
// makes the account's balance in the gateway's credit ledger N: after the
// period's grant is recorded, one credits.adjusted (reason set_balance)
// of the difference; identity's own credit balance is no longer written.
// The output names the plan and the ledger's balance.
func (c *command) setPlan(ctx context.Context, id *identityContext, email, line, plan string, credits *int64) error {
	if line == plans.LineCaptable {
		return kernel.Invalid("line", "not_captable", "cap-table accounts are their own: use strata captable set-plan")
	}
	norm, err := identity.NormalizeEmail("email", email)
	if err != nil {
		return err
	}
	u, ok := id.Service.Directory().UserByEmail(norm)
	if !ok {
		return kernel.NotFound("no account with email " + norm)
	}
	svc := cmdplans.New(id.Service.Store(), kernel.SystemClock{}, id.Service.Directory().Sync)
	if _, err := svc.Change(ctx, plans.Change{AccountID: u.ID, Line: line, Plan: plan, Source: plans.SourceOperator}); err != nil {
		return err
	}
	ledger := newLedger(id.Service.Store(), kernel.SystemClock{}, id.Service.Directory(), nil, 0)
	var x projgateway.Exact
	if credits != nil {
		x, err = ledger.SetBalance(ctx, u.ID, gwcredits.FromCredits(*credits), "operator")
	} else {
		x, err = ledger.Balance(ctx, u.ID, "")
	}
	if err != nil {
		return err
	}
	if line != plans.LinePlatform {
		fmt.Fprintf(c.stdout, "%s: %s plan %s, %s credits\n", u.Email, line, plan, x.Balance().Decimal())
		return nil
	}
	u, _ = id.Service.Directory().UserByEmail(norm)
	fmt.Fprintf(c.stdout, "%s: plan %s, %s credits\n", u.Email, u.Plan, x.Balance().Decimal())
	return nil
}
