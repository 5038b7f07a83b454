package payments

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/payments"
)

// Names of the payments settings (environment variables).
const (
	SettingSecretKey      = "STRATA_STRIPE_SECRET_KEY"
	SettingWebhookSecrets = "STRATA_STRIPE_WEBHOOK_SECRETS"
	SettingAPIBase        = "STRATA_STRIPE_API_BASE"
	SettingTolerance      = "STRATA_STRIPE_WEBHOOK_TOLERANCE"
	settingPricePrefix    = "STRATA_STRIPE_PRICE_"
)

// PriceSetting is the setting that prices plan of line at billing, e.g.
// STRATA_STRIPE_PRICE_AUDIT_PRO_YEARLY.
func PriceSetting(line, plan, billing string) string {
	return settingPricePrefix + strings.ToUpper(line+"_"+plan+"_"+billing)
}

var (
	priceID = regexp.MustCompile(`^(price|plan)_[A-Za-z0-9_]+$`)
	amount  = regexp.MustCompile(`^([0-9]{1,7})(\.[0-9]{1,2})?(?:\s+([A-Za-z]{3}))?$`)
)

// zeroDecimal are the currencies Stripe counts in whole units: an amount
// with cents makes no sense there, so they are refused rather than guessed.
var zeroDecimal = map[string]bool{"bif": true, "clp": true, "djf": true, "gnf": true, "jpy": true, "kmf": true,
	"krw": true, "mga": true, "pyg": true, "rwf": true, "ugx": true, "vnd": true, "vuv": true, "xaf": true,
	"xof": true, "xpf": true}

// ParsePrice reads a price setting's value: a Stripe price id
// (price_...), or an amount in the currency's main unit with at most two
// decimals and an optional currency code (default usd): "49", "490.00 eur".
func ParsePrice(value string) (payments.Price, error) {
	v := strings.TrimSpace(value)
	if priceID.MatchString(v) {
		return payments.Price{PriceID: v}, nil
	}
	m := amount.FindStringSubmatch(v)
	if m == nil {
		return payments.Price{}, fmt.Errorf("want a Stripe price id (price_...) or an amount such as 49.00 or \"490 eur\", got %q", value)
	}
	whole, _ := strconv.ParseInt(m[1], 10, 64)
	cents := int64(0)
	if m[2] != "" {
		frac := m[2][1:]
		if len(frac) == 1 {
			frac += "0"
		}
		cents, _ = strconv.ParseInt(frac, 10, 64)
	}
	cur := strings.ToLower(m[3])
	if cur == "" {
		cur = "usd"
	}
	if zeroDecimal[cur] {
		return payments.Price{}, fmt.Errorf("%s is counted in whole units by Stripe; configure a Stripe price id instead", cur)
	}
	p := payments.Price{Money: payments.Money{Amount: whole*100 + cents, Currency: cur}}
	if p.Amount <= 0 {
		return payments.Price{}, fmt.Errorf("the amount must be positive, got %q", value)
	}
	return p, nil
}

// ParsePrices reads every STRATA_STRIPE_PRICE_* setting of env into
// catalog prices. A setting that names no plan the catalog sells, or whose
// value is not a price, is an error naming it (a typo must not leave a plan
// silently unpriced).
func ParsePrices(env map[string]string) (map[string]payments.Price, error) {
	known := map[string]string{}
	for _, s := range payments.NewCatalog(nil).Sellable() {
		known[PriceSetting(s[0], s[1], s[2])] = payments.PriceKey(s[0], s[1], s[2])
	}
	names := make([]string, 0)
	for k := range env {
		if strings.HasPrefix(k, settingPricePrefix) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	out := map[string]payments.Price{}
	for _, name := range names {
		v := strings.TrimSpace(env[name])
		if v == "" {
			continue
		}
		key, ok := known[name]
		if !ok {
			return nil, fmt.Errorf("%s: no such plan; the plans that can be priced are %s", name, strings.Join(sortedKeys(known), ", "))
		}
		p, err := ParsePrice(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[key] = p
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
