package main

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/credits"
)

// gatewayCollector reports the gateway's billing at scrape time: this
// process's counts (requests by model, upstream and outcome; credits
// debited by model; refusals) and every process's pending debits, read
// from the database.
type gatewayCollector struct {
	billing         *cmdgateway.Billing
	requests        *prometheus.Desc
	debited         *prometheus.Desc
	rateLimited     *prometheus.Desc
	paymentRequired *prometheus.Desc
	duplicates      *prometheus.Desc
	flushes         *prometheus.Desc
	flushedDebits   *prometheus.Desc
	pending         *prometheus.Desc
}

func newGatewayCollector(b *cmdgateway.Billing) *gatewayCollector {
	return &gatewayCollector{billing: b,
		requests: prometheus.NewDesc("strata_gateway_requests_total",
			"Gateway requests this process recorded usage for, by model, upstream and outcome (completed, disconnected, interrupted, failed).",
			[]string{"model", "upstream", "status"}, nil),
		debited: prometheus.NewDesc("strata_gateway_credits_debited_total",
			"Credits this process's requests were debited, by model (1 credit = US$0.001).", []string{"model"}, nil),
		rateLimited: prometheus.NewDesc("strata_gateway_rate_limited_total",
			"Gateway requests refused with 429 for the plan's requests per hour, by gateway plan.", []string{"plan"}, nil),
		paymentRequired: prometheus.NewDesc("strata_gateway_payment_required_total",
			"Paid gateway requests refused with 402 for want of credits, by model.", []string{"model"}, nil),
		duplicates: prometheus.NewDesc("strata_gateway_duplicate_usage_total",
			"Usage records dropped as repeats of a request id already recorded.", nil, nil),
		flushes: prometheus.NewDesc("strata_gateway_debit_flushes_total",
			"Flushes of recorded debits into the ledger by outcome (ok; failed, retried).", []string{"outcome"}, nil),
		flushedDebits: prometheus.NewDesc("strata_gateway_flushed_debits_total",
			"Debits this process appended to the ledger.", nil, nil),
		pending: prometheus.NewDesc("strata_gateway_pending_debits",
			"Debits recorded by every process and not yet in the ledger (the write-ahead's rows).", nil, nil),
	}
}

func (g *gatewayCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{g.requests, g.debited, g.rateLimited, g.paymentRequired, g.duplicates, g.flushes,
		g.flushedDebits, g.pending} {
		ch <- d
	}
}

func (g *gatewayCollector) Collect(ch chan<- prometheus.Metric) {
	st := g.billing.Stats()
	for _, r := range st.Requests {
		ch <- prometheus.MustNewConstMetric(g.requests, prometheus.CounterValue, float64(r.N), r.Model, r.Upstream, r.Status)
	}
	for _, d := range st.Debited {
		ch <- prometheus.MustNewConstMetric(g.debited, prometheus.CounterValue, float64(d.Amount)/float64(credits.MicroPerCredit), d.Model)
	}
	for _, c := range st.RateLimited {
		ch <- prometheus.MustNewConstMetric(g.rateLimited, prometheus.CounterValue, float64(c.N), c.Label)
	}
	for _, c := range st.PaymentRequired {
		ch <- prometheus.MustNewConstMetric(g.paymentRequired, prometheus.CounterValue, float64(c.N), c.Label)
	}
	for _, c := range st.Flushes {
		ch <- prometheus.MustNewConstMetric(g.flushes, prometheus.CounterValue, float64(c.N), c.Label)
	}
	ch <- prometheus.MustNewConstMetric(g.duplicates, prometheus.CounterValue, float64(st.Duplicates))
	ch <- prometheus.MustNewConstMetric(g.flushedDebits, prometheus.CounterValue, float64(st.FlushedDebits))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if n, err := g.billing.Pending(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(g.pending, prometheus.GaugeValue, float64(n))
	}
}
