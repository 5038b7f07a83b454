package main

import (
	"context"
	stdsql "database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/projections"
)

// storeCollector reports the store's head and each projector's lag at scrape
// time, read from the database (so it is right whichever process appends).
type storeCollector struct {
	db       *stdsql.DB
	runner   *projections.Runner
	head     *prometheus.Desc
	lag      *prometheus.Desc
	lagSecs  *prometheus.Desc
	failing  *prometheus.Desc
	parked   *prometheus.Desc
	scrapeOK *prometheus.Desc
}

func newStoreCollector(db *stdsql.DB, runner *projections.Runner) *storeCollector {
	return &storeCollector{db: db, runner: runner,
		head:    prometheus.NewDesc("strata_eventstore_appended_events_total", "Events appended to the store (the position sequence).", nil, nil),
		lag:     prometheus.NewDesc("strata_projector_lag_events", "Events after the projector's checkpoint.", []string{"projector"}, nil),
		lagSecs: prometheus.NewDesc("strata_projector_lag_seconds", "Age of the oldest event the projector has not applied.", []string{"projector"}, nil),
		failing: prometheus.NewDesc("strata_projector_failing", "1 when the projector is stopped at a failing event.", []string{"projector"}, nil),
		parked: prometheus.NewDesc("strata_projector_parked_streams",
			"Streams the projector has parked after an event it could not apply (their events wait; others go on).", []string{"projector"}, nil),
		scrapeOK: prometheus.NewDesc("strata_eventstore_scrape_ok", "1 when the store could be read for these metrics.", nil, nil),
	}
}

func (s *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{s.head, s.lag, s.lagSecs, s.failing, s.parked, s.scrapeOK} {
		ch <- d
	}
}

func (s *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var head int64
	var called bool
	err := s.db.QueryRowContext(ctx, `SELECT last_value, is_called FROM es.events_position_seq`).Scan(&head, &called)
	if err == nil && !called {
		head = 0
	}
	ok := 0.0
	if err == nil {
		ok = 1
		ch <- prometheus.MustNewConstMetric(s.head, prometheus.CounterValue, float64(head))
	}
	var names []string
	for _, p := range s.runner.Projectors() {
		names = append(names, p.Name())
	}
	if st, err := projections.ReadStatus(ctx, s.db, names); err == nil {
		for _, p := range st {
			ch <- prometheus.MustNewConstMetric(s.lag, prometheus.GaugeValue, float64(p.LagEvents), p.Name)
			ch <- prometheus.MustNewConstMetric(s.lagSecs, prometheus.GaugeValue, p.LagSeconds, p.Name)
			failing := 0.0
			if p.State == projections.StateFailing {
				failing = 1
			}
			ch <- prometheus.MustNewConstMetric(s.failing, prometheus.GaugeValue, failing, p.Name)
			ch <- prometheus.MustNewConstMetric(s.parked, prometheus.GaugeValue, float64(p.ParkedStreams), p.Name)
		}
	} else {
		ok = 0
	}
	ch <- prometheus.MustNewConstMetric(s.scrapeOK, prometheus.GaugeValue, ok)
}
