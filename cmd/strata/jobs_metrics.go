package main

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/jobs"
)

// jobsCollector reports background jobs at scrape time: every process's
// jobs by kind and state, read from the database, and this process's
// attempts by outcome.
type jobsCollector struct {
	svc      *jobs.Service
	jobs     *prometheus.Desc
	runs     *prometheus.Desc
	scrapeOK *prometheus.Desc
}

func newJobsCollector(svc *jobs.Service) *jobsCollector {
	return &jobsCollector{svc: svc,
		jobs: prometheus.NewDesc("strata_jobs",
			"Background jobs of every process by kind and state (available, scheduled, running, retryable, discarded = dead, cancelled, pending; completed ones are left out).",
			[]string{"kind", "state"}, nil),
		runs: prometheus.NewDesc("strata_job_runs_total",
			"Job attempts this process ran, by outcome: completed, failed (to be retried), discarded (dead after its last attempt), cancelled, released (stopped by a shutdown).",
			[]string{"kind", "outcome"}, nil),
		scrapeOK: prometheus.NewDesc("strata_jobs_scrape_ok", "1 when the jobs could be counted for these metrics.", nil, nil),
	}
}

func (j *jobsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- j.jobs
	ch <- j.runs
	ch <- j.scrapeOK
}

func (j *jobsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	ok := 1.0
	if counts, err := j.svc.Counts(ctx); err == nil {
		for _, c := range counts {
			ch <- prometheus.MustNewConstMetric(j.jobs, prometheus.GaugeValue, float64(c.N), c.Kind, c.State)
		}
	} else {
		ok = 0
	}
	for _, r := range j.svc.Runs() {
		ch <- prometheus.MustNewConstMetric(j.runs, prometheus.CounterValue, float64(r.N), r.Kind, r.Outcome)
	}
	ch <- prometheus.MustNewConstMetric(j.scrapeOK, prometheus.GaugeValue, ok)
}
