package main

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nyaruka/phonenumbers"

	cmdvoice "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/eventstore"
)

func (c *command) voiceCmd(ctx context.Context, args []string) error {
	const use = "voice numbers import FILE [--provider NAME]"
	if len(args) < 2 || args[0] != "numbers" || args[1] != "import" {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	fs := flag.NewFlagSet("voice numbers import", flag.ContinueOnError)
	provider := fs.String("provider", "", "the provider that holds the numbers (default: sip with STRATA_VOICE_SIP_TRUNK, twilio with its settings)")
	rest, err := parseFlags(fs, args[2:])
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	if *provider == "" {
		*provider = "sip"
		if c.cfg.Voice.TwilioAccountSID != "" {
			*provider = "twilio"
		}
	}
	raw, err := os.ReadFile(rest[0])
	if err != nil {
		return err
	}
	rows, err := parseNumbers(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", rest[0], err)
	}
	reg, db, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	svc := cmdvoice.New(store, clock, c.logger, cmdvoice.Config{})
	sum := sha256.Sum256(raw)
	source := filepath.Base(rest[0]) + " sha256:" + hex.EncodeToString(sum[:])
	added := 0
	for i, n := range rows {
		ok, err := svc.ImportNumber(ctx, n, *provider, source)
		if err != nil {
			return fmt.Errorf("%s line %d (%s): %w", rest[0], i+2, n.Phone, err)
		}
		if ok {
			added++
		}
	}
	fmt.Fprintf(c.stdout, "imported %d numbers (%d already in the inventory) from %s\n", added, len(rows)-added, source)
	_, err = db.SQL.ExecContext(ctx, `SELECT pg_notify('`+eventstore.NotifyChannel+`', '')`)
	return err
}

// parseNumbers reads an inventory file: CSV with a header naming
// phone_number (E.164, required) and optionally country (ISO 3166-1
// alpha-2), number_type (local, toll_free, mobile), region and
// capabilities (voice;sms). A missing country or type is taken from the
// number itself (libphonenumber); every row is checked before any is
// imported.
func parseNumbers(raw []byte) ([]cmdvoice.ImportedNumber, error) {
	r := csv.NewReader(strings.NewReader(string(raw)))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("no header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := col["phone_number"]; !ok {
		return nil, fmt.Errorf("the header has no phone_number column")
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var out []cmdvoice.ImportedNumber
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		n := cmdvoice.ImportedNumber{Phone: get(rec, "phone_number"), Country: strings.ToUpper(get(rec, "country")),
			NumberType: get(rec, "number_type"), Region: get(rec, "region")}
		if caps := get(rec, "capabilities"); caps != "" {
			n.Capabilities = strings.Split(caps, ";")
		}
		if err := voice.CheckE164("phone_number", n.Phone); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if p, err := phonenumbers.Parse(n.Phone, ""); err == nil {
			n.National = phonenumbers.GetNationalSignificantNumber(p)
			if n.Country == "" {
				n.Country = phonenumbers.GetRegionCodeForNumber(p)
			}
			if n.NumberType == "" {
				switch phonenumbers.GetNumberType(p) {
				case phonenumbers.MOBILE:
					n.NumberType = voice.TypeMobile
				case phonenumbers.TOLL_FREE:
					n.NumberType = voice.TypeTollFree
				default:
					n.NumberType = voice.TypeLocal
				}
			}
		}
		if err := voice.CheckCountry("country", n.Country); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if err := voice.CheckNumberType("number_type", n.NumberType); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, n)
	}
}
