package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	gwcredits "github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/domain/kernel"
)

const creditsUsage = "credits grant EMAIL N [--reason operator|promotion|compensation] [--key KEY] [--note TEXT] | " +
	"credits balance EMAIL [--json] | credits refund REQUEST_ID [--amount N] --reason TEXT"

// creditsCmd runs `strata credits`: the gateway's credit ledger for
// operators. Every change is an event (credits.granted, credits.refunded);
// serving processes apply it at once (the command notifies them).
func (c *command) creditsCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, creditsUsage)
	}
	switch args[0] {
	case "grant":
		fs := flag.NewFlagSet("credits grant", flag.ContinueOnError)
		reason := fs.String("reason", gwcredits.ReasonOperator, "operator, promotion or compensation")
		key := fs.String("key", "", "idempotency key: a grant with the same key is recorded once per account")
		note := fs.String("note", "", "a note kept with the grant")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 2 {
			return fmt.Errorf("%w: %s", errUsage, creditsUsage)
		}
		amount, err := parseCredits("N", rest[1])
		if err != nil {
			return err
		}
		return c.withIdentity(ctx, func(id *identityContext) error {
			u, err := userOf(id, rest[0])
			if err != nil {
				return err
			}
			ledger := newLedger(id.Service.Store(), kernel.SystemClock{}, id.Service.Directory(), nil, 0)
			ev, err := ledger.Grant(ctx, gwcredits.Grant{AccountID: u.ID, Credits: amount, Reason: *reason, Key: *key,
				Actor: "operator", Note: *note})
			if errors.Is(err, cmdgateway.ErrAlreadyGranted) {
				fmt.Fprintf(c.stdout, "%s: a grant with key %q was recorded before; nothing granted\n", u.Email, *key)
				return nil
			}
			if err != nil {
				return err
			}
			x, err := ledger.Balance(ctx, u.ID, "")
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "%s: granted %s credits (%s); balance %s credits\n", u.Email, ev.AmountMicro.Decimal(), ev.Reason,
				x.Balance().Decimal())
			return nil
		})
	case "balance":
		fs := flag.NewFlagSet("credits balance", flag.ContinueOnError)
		asJSON := fs.Bool("json", false, "print the balance as JSON")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return fmt.Errorf("%w: %s", errUsage, creditsUsage)
		}
		return c.withIdentity(ctx, func(id *identityContext) error { return c.creditsBalance(ctx, id, rest[0], *asJSON) })
	case "refund":
		fs := flag.NewFlagSet("credits refund", flag.ContinueOnError)
		amount := fs.String("amount", "", "credits to give back (default: the whole debit)")
		reason := fs.String("reason", "", "why (kept with the refund)")
		rest, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 1 || *reason == "" {
			return fmt.Errorf("%w: %s", errUsage, creditsUsage)
		}
		var n gwcredits.Micro
		if *amount != "" {
			if n, err = parseCredits("--amount", *amount); err != nil {
				return err
			}
		}
		return c.withIdentity(ctx, func(id *identityContext) error {
			ledger := newLedger(id.Service.Store(), kernel.SystemClock{}, id.Service.Directory(), nil, 0)
			ev, err := ledger.Refund(ctx, rest[0], n, *reason, "operator")
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "refunded %s credits of request %s to account %s\n", ev.AmountMicro.Decimal(), ev.RequestID, ev.AccountID)
			return nil
		})
	}
	return fmt.Errorf("%w: %s", errUsage, creditsUsage)
}

// creditsBalance prints an account's exact balance, its period and its
// totals.
func (c *command) creditsBalance(ctx context.Context, id *identityContext, email string, asJSON bool) error {
	u, err := userOf(id, email)
	if err != nil {
		return err
	}
	ledger := newLedger(id.Service.Store(), kernel.SystemClock{}, id.Service.Directory(), nil, 0)
	ent := ledger.Entitlement(u.ID)
	period, current := gwcredits.PeriodOf(ent, kernel.SystemClock{}.Now())
	x, err := ledger.Balance(ctx, u.ID, period.Key)
	if err != nil {
		return err
	}
	a := x.Account
	use, _ := a.Use(period.Key)
	use.Used += x.PendingInPeriod
	if asJSON {
		out := map[string]any{"email": u.Email, "account_id": u.ID, "balance": x.Balance().Number(),
			"balance_micro": int64(x.Balance()), "plan": ent.Plan, "pending": x.PendingCount,
			"granted": a.Granted.Number(), "debited": (a.Debited + x.Pending).Number(), "refunded": a.Refunded.Number(),
			"adjusted": a.Adjusted.Number()}
		if current {
			out["period"] = map[string]any{"start": period.Start, "end": period.End, "granted": use.Granted.Number(),
				"used": use.Used.Number()}
		}
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(c.stdout, "%s: balance %s credits (gateway plan %s)\n", u.Email, x.Balance().Decimal(), ent.Plan)
	if current {
		fmt.Fprintf(c.stdout, "  period %s to %s: granted %s, used %s\n", period.Start.Format("2006-01-02 15:04Z"),
			period.End.Format("2006-01-02 15:04Z"), use.Granted.Decimal(), use.Used.Decimal())
	}
	fmt.Fprintf(c.stdout, "  all time: granted %s, debited %s (%d requests, %d pending), refunded %s, adjusted %s\n",
		a.Granted.Decimal(), (a.Debited + x.Pending).Decimal(), a.Requests+x.PendingCount, x.PendingCount,
		a.Refunded.Decimal(), a.Adjusted.Decimal())
	return nil
}

// userOf finds the account behind an email in the directory.
func userOf(id *identityContext, email string) (identity.User, error) {
	norm, err := identity.NormalizeEmail("email", email)
	if err != nil {
		return identity.User{}, err
	}
	u, ok := id.Service.Directory().UserByEmail(norm)
	if !ok {
		return identity.User{}, kernel.NotFound("no account with email " + norm)
	}
	return u, nil
}

// parseCredits reads a positive number of credits with at most six
// decimal places (a micro-credit), exactly.
func parseCredits(field, s string) (gwcredits.Micro, error) {
	bad := kernel.Invalid(field, "credits", field+" must be a positive number of credits with at most 6 decimal places, such as 500 or 12.5")
	whole, frac, _ := strings.Cut(strings.TrimSpace(s), ".")
	if whole == "" || len(frac) > 6 || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, bad
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e12 {
		return 0, bad
	}
	var f int64
	if frac != "" {
		if f, err = strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64); err != nil || strings.ContainsAny(frac, "+-") {
			return 0, bad
		}
	}
	m := gwcredits.FromCredits(w) + gwcredits.Micro(f)
	if m <= 0 {
		return 0, bad
	}
	return m, nil
}
