package main

import (
	"bufio"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/eventstore/storebench"
	"github.com/strata-platform/strata/readapi/identity/identitybench"
)

// dataBench are the data bench's sizes.
type dataBench struct {
	rows, pages, seeds int
	mode               string
}

// benchData runs `strata bench data [--quick]`: a generated directory
// file of 1,000,000 rows imported through the importer of `strata serve`
// (production wiring) against a plain COPY of the same file into a bare
// table, then filtered pages, search pages and /seed with limit 5000 over
// HTTP against the same queries sent straight to PostgreSQL.
func (c *command) benchData(ctx context.Context, scratch *storebench.Scratch, quick bool) error {
	o := dataBench{rows: 1_000_000, pages: 400, seeds: 60, mode: "full"}
	if quick {
		o = dataBench{rows: 20_000, pages: 40, seeds: 10, mode: "quick"}
	}
	c.logger.Info("bench running in a scratch database", "database", scratch.Name, "mode", o.mode)
	rep, err := c.runDataBench(ctx, scratch.URL, scratch.DB, o)
	if err != nil {
		return err
	}
	return rep.Print(c.stdout)
}

func (c *command) runDataBench(ctx context.Context, dbURL string, db *stdsql.DB, o dataBench) (storebench.Report, error) {
	started := time.Now()
	rep := storebench.Report{Bench: "data", Mode: o.mode, CPUs: runtime.NumCPU()}
	dir, err := os.MkdirTemp("", "strata-bench-data-")
	if err != nil {
		return rep, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "smb.csv")
	if err := writeBenchDirectory(file, o.rows); err != nil {
		return rep, err
	}
	fmt.Fprintf(c.stderr, "bench data: %d rows generated\n", o.rows)
	plain, err := plainCopy(ctx, db, file)
	if err != nil {
		return rep, err
	}
	app, addrs, _, done, closeServer, err := c.benchLoopbackEnv(ctx, "bench data", "strata-bench-data-srv-", "api", dbURL,
		map[string]string{"STRATA_DATA_RATE_LIMIT": "1000000000"}, "STRATA_API_ADDR", "STRATA_ADMIN_ADDR")
	if err != nil {
		return rep, err
	}
	defer closeServer()
	base := "http://" + addrs[0]
	if err := waitHealthy(ctx, base, done); err != nil {
		return rep, err
	}
	if app.Data == nil {
		return rep, errors.New("bench data: serve's wiring runs no data marketplace")
	}
	res, err := app.Data.Import(ctx, "smb-directory", cmddata.Source{Location: file, Sample: true, By: "bench",
		License: "generated rows for the benchmark, not real data"}, nil)
	if err != nil {
		return rep, err
	}
	if res.RowsLoaded != int64(o.rows) {
		return rep, fmt.Errorf("bench data: import loaded %d rows of %d (%s)", res.RowsLoaded, o.rows, res.Reason)
	}
	fmt.Fprintf(c.stderr, "bench data: imported in %s (rows %s, indexes %s), plain COPY %s\n", res.Elapsed.Round(time.Millisecond),
		res.Load.Round(time.Millisecond), res.Index.Round(time.Millisecond), plain.Round(time.Millisecond))
	rep.Server, _ = serverSettings(ctx, db)
	rep.Figures = append(rep.Figures, storebench.Figure{Name: fmt.Sprintf("import %d rows: rows/s (base: plain COPY of the file)", o.rows),
		Unit: "rows/s", Ours: float64(o.rows) / res.Elapsed.Seconds(), Baseline: float64(o.rows) / plain.Seconds(),
		Target: storebench.Target{Min: 100_000}, Samples: o.rows})
	rng := rand.New(rand.NewPCG(7, 27))
	cities := []string{"nyc", "sf", "la", "seattle", "austin"}
	table := fmt.Sprintf("data_rows.smb_directory_v%d", res.Version)
	filtered := func() (string, string, []any) {
		city, pg := cities[rng.IntN(len(cities))], 1+rng.IntN(40)
		return fmt.Sprintf("/api/v1/public/data/smb-directory?city=%s&tech_only=true&page=%d&per_page=50", city, pg),
			"SELECT * FROM " + table + " WHERE city_key = $1 AND is_tech ORDER BY row_no LIMIT 50 OFFSET $2", []any{city, (pg - 1) * 50}
	}
	searched := func() (string, string, []any) {
		word, city := benchWords[rng.IntN(len(benchWords))], cities[rng.IntN(len(cities))]
		return fmt.Sprintf("/api/v1/public/data/smb-directory?search=%s&city=%s&per_page=50", word, city),
			"SELECT * FROM " + table + " WHERE city_key = $1 AND _search @@ to_tsquery('simple'::regconfig, $2) ORDER BY row_no LIMIT 50",
			[]any{city, "'" + word + "'"}
	}
	industries := []string{"saas", "ecommerce", "finance", "healthcare", "realestate", "general"}
	seed := func() (string, string, []any) {
		ind := industries[rng.IntN(len(industries))]
		return "/api/v1/public/data/seed?limit=5000&industry=" + ind,
			"SELECT * FROM " + table + " WHERE ($1 = 'general' OR industry = $1) ORDER BY row_no LIMIT 5000", []any{ind}
	}
	for _, m := range []struct {
		name  string
		n     int
		max   float64
		build func() (string, string, []any)
	}{
		{fmt.Sprintf("filtered page (city, tech_only, page 1-40) of %d rows: p95 (base: the same SQL)", o.rows), o.pages, 20, filtered},
		{fmt.Sprintf("search page (a word and a city) of %d rows: p95 (base: the same SQL)", o.rows), o.pages, 20, searched},
		{"/seed limit 5000: p95 (base: the prospects' SQL)", o.seeds, 200, seed},
	} {
		ours, raw, err := measureData(ctx, base, db, m.n, m.build)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", m.name, err)
		}
		rep.Figures = append(rep.Figures, storebench.Figure{Name: m.name, Unit: storebench.UnitMs, Ours: identitybench.Quantile(ours, .95),
			Baseline: identitybench.Quantile(raw, .95), Target: storebench.Target{Max: m.max}, Samples: m.n})
	}
	rep.Elapsed = time.Since(started)
	return rep, nil
}

// measureData times n requests over HTTP and the same SQL straight to
// PostgreSQL, alternating.
func measureData(ctx context.Context, base string, db *stdsql.DB, n int, build func() (string, string, []any)) (ours, raw []time.Duration, err error) {
	client := &http.Client{Timeout: 30 * time.Second}
	for i := 0; i < n; i++ {
		path, sql, args := build()
		t0 := time.Now()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		resp, err := client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		var body map[string]any
		derr := json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || derr != nil {
			return nil, nil, fmt.Errorf("GET %s: %d %v", path, resp.StatusCode, derr)
		}
		ours = append(ours, time.Since(t0))
		t0 = time.Now()
		rows, err := db.QueryContext(ctx, sql, args...)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
		}
		rows.Close()
		raw = append(raw, time.Since(t0))
	}
	return ours, raw, nil
}

// plainCopy is the baseline: the same file into a bare table of text
// columns with COPY ... FROM STDIN (FORMAT csv, HEADER true).
func plainCopy(ctx context.Context, db *stdsql.DB, file string) (time.Duration, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `DROP TABLE IF EXISTS bench_plain_copy; CREATE TABLE bench_plain_copy (business_name text, category text,
		city text, state text, is_tech text, naics text, phone text, website text)`); err != nil {
		return 0, err
	}
	defer func() { _, _ = db.ExecContext(context.Background(), `DROP TABLE IF EXISTS bench_plain_copy`) }()
	t0 := time.Now()
	err = conn.Raw(func(dc any) error {
		_, err := dc.(*stdlib.Conn).Conn().PgConn().CopyFrom(ctx, f, `COPY bench_plain_copy FROM STDIN (FORMAT csv, HEADER true)`)
		return err
	})
	return time.Since(t0), err
}

// benchWords make the generated names searchable.
var benchWords = []string{"amber", "birch", "cedar", "delta", "ember", "falcon", "garnet", "harbor", "indigo", "juniper",
	"kestrel", "lumen", "maple", "nimbus", "orchid", "pioneer", "quartz", "raven", "summit", "tundra"}

// writeBenchDirectory writes n generated directory rows (not real
// businesses): names from benchWords, the five metros, a fifth tech, NAICS
// codes spread over the /seed industries.
func writeBenchDirectory(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	cities := []string{"New York,NY", "San Francisco,CA", "Los Angeles,CA", "Seattle,WA", "Austin,TX"}
	naics := []string{"511210", "518210", "541511", "454110", "522110", "621111", "531210", "722515", "811111", "238220"}
	cats := []string{"Software", "Hosting", "Consulting", "Online retail", "Bank", "Clinic", "Realty", "Cafe", "Auto repair", "Plumbing"}
	rng := rand.New(rand.NewPCG(1, 2))
	fmt.Fprintln(w, "business_name,category,city,state,is_tech,naics,phone,website")
	for i := 1; i <= n; i++ {
		k := rng.IntN(len(naics))
		fmt.Fprintf(w, "%s %s %d,%s,%s,%t,%s,555-01%02d,https://b%d.example\n", benchWords[rng.IntN(len(benchWords))],
			benchWords[rng.IntN(len(benchWords))], i, cats[k], cities[rng.IntN(len(cities))], rng.IntN(5) == 0, naics[k], i%100, i)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
