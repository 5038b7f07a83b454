package datamarket_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	projdata "github.com/strata-platform/strata/projections/datamarket"
	"github.com/strata-platform/strata/readapi"
	readdata "github.com/strata-platform/strata/readapi/datamarket"
	"github.com/strata-platform/strata/readapi/httpx"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const base = "/api/v1/public/data"

type readiness struct{}

func (readiness) Readiness(context.Context) readapi.Readiness { return readapi.Readiness{} }

// world is the platform API with the data marketplace routes, the
// projector running and the import service.
type world struct {
	t     *testing.T
	url   string
	svc   *cmddata.Service
	clock *kernel.FixedClock
	dir   string
	n     int
}

// newWorld starts a world; limited gives the routes a limiter of 60
// requests a minute on the world's clock (else there is none).
func newWorld(t *testing.T, limited bool) *world {
	t.Helper()
	reg := eventstore.NewRegistry()
	for _, c := range append(datamarket.Events(), projections.Events()...) {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	clock := kernel.NewFixedClock(time.Date(2026, 11, 27, 10, 0, 5, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner, err := projections.NewRunner(db.SQL, reg, projections.NewSignal(), logger, projections.Config{PollInterval: 5 * time.Millisecond},
		projdata.Projector{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	svc := cmddata.New(store, clock, logger, cmddata.Config{MaxInvalidRatio: 0.01, Keep: 3,
		Wait: func(ctx context.Context, k eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			return runner.WaitFor(wctx, k, projdata.Name)
		}})
	surface, err := readapi.NewSurface("api", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(), Health: readiness{}})
	if err != nil {
		t.Fatal(err)
	}
	var limiter *httpx.WindowLimiter
	if limited {
		limiter = httpx.NewWindowLimiter(readdata.PerMinute, clock.Now)
	}
	readdata.Routes(surface.Router, readdata.Config{DB: db.SQL, Limiter: limiter})
	srv := httptest.NewServer(surface.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &world{t: t, url: srv.URL, svc: svc, clock: clock, dir: t.TempDir()}
}

// importFile writes body to a file of the given name and imports it.
func (w *world) importFile(dataset, name, body string) *cmddata.Result {
	w.t.Helper()
	w.n++
	p := filepath.Join(w.dir, fmt.Sprintf("%d-%s", w.n, name))
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		w.t.Fatal(err)
	}
	res, err := w.svc.Import(context.Background(), dataset, cmddata.Source{Location: p, By: "test"}, nil)
	if err != nil {
		w.t.Fatalf("import %s: %v", name, err)
	}
	return res
}

// published imports a file that must be published as version want.
func (w *world) published(dataset, body string, want int) {
	w.t.Helper()
	res := w.importFile(dataset, dataset+".csv", body)
	if res.Status != datamarket.StatusPublished || res.Version != want {
		w.t.Fatalf("import %s: status %s version %d (%s), want published version %d", dataset, res.Status, res.Version, res.Reason, want)
	}
}

// importSamples imports the repository's sample file of every public
// dataset, as `strata data samples` does.
func (w *world) importSamples() {
	w.t.Helper()
	for _, s := range datamarket.Samples() {
		p := filepath.Join(w.dir, s.File)
		if err := os.WriteFile(p, s.Data, 0o600); err != nil {
			w.t.Fatal(err)
		}
		res, err := w.svc.Import(context.Background(), s.Dataset, cmddata.Source{Location: p, License: s.License, Sample: true, By: "test"}, nil)
		if err != nil {
			w.t.Fatalf("import sample %s: %v", s.Dataset, err)
		}
		if res.Status != datamarket.StatusPublished {
			w.t.Fatalf("sample %s: %s (%s)", s.Dataset, res.Status, res.Reason)
		}
	}
}

type reply struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

// get requests path (under the base unless it starts with /api) with
// header name/value pairs.
func (w *world) get(path string, header ...string) reply {
	w.t.Helper()
	return w.do(http.DefaultClient, http.MethodGet, path, nil, header...)
}

func (w *world) post(path string, body any) reply {
	w.t.Helper()
	return w.do(http.DefaultClient, http.MethodPost, path, body)
}

func (w *world) do(client *http.Client, method, path string, body any, header ...string) reply {
	w.t.Helper()
	if !strings.HasPrefix(path, "/api/") {
		path = base + path
	}
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, w.url+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	r := reply{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	_ = json.Unmarshal(raw, &r.Body)
	return r
}

// clientFrom is an HTTP client whose connections come from a given
// loopback address.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// page is a dataset page; Rows holds the data or records member.
type page struct {
	Rows    []json.RawMessage
	Total   int64 `json:"total"`
	Page    int   `json:"page"`
	PerPage int   `json:"per_page"`
	HasMore bool  `json:"has_more"`
	Status  string
	Version *int `json:"version"`
}

// pageOf reads a 200 page of a dataset whose list member is envelope.
func pageOf(t *testing.T, r reply, envelope string) page {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
	}
	var p page
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Raw, &m); err != nil {
		t.Fatalf("decode %s: %v", r.Raw, err)
	}
	if err := json.Unmarshal(r.Raw, &p); err != nil {
		t.Fatal(err)
	}
	list, ok := m[envelope]
	if !ok {
		t.Fatalf("the page has no member %q: %s", envelope, r.Raw)
	}
	if err := json.Unmarshal(list, &p.Rows); err != nil || p.Rows == nil {
		t.Fatalf("member %q is not a list: %s", envelope, list)
	}
	_ = json.Unmarshal(m["status"], &p.Status)
	return p
}

// field reads one member of a record.
func field(t *testing.T, rec json.RawMessage, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec, &m); err != nil {
		t.Fatal(err)
	}
	v, ok := m[name]
	if !ok {
		t.Fatalf("record has no %q: %s", name, rec)
	}
	return v
}

// names are the records' values of a text column.
func names(t *testing.T, recs []json.RawMessage, col string) []string {
	t.Helper()
	out := make([]string, len(recs))
	for i, r := range recs {
		s, _ := field(t, r, col).(string)
		out[i] = s
	}
	return out
}

// rowNos are the records' _row values.
func rowNos(t *testing.T, recs []json.RawMessage) []int {
	t.Helper()
	out := make([]int, len(recs))
	for i, r := range recs {
		out[i] = int(field(t, r, "_row").(float64))
	}
	return out
}

// keysOf lists an object's member names in order.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// wantError checks an error reply's status and the field it names.
func wantError(t *testing.T, r reply, status int, fieldName string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	if fieldName != "" && r.Body["field"] != fieldName {
		t.Fatalf("error names field %v, want %q: %s", r.Body["field"], fieldName, r.Raw)
	}
}

// biz is an SMB directory row.
type biz struct {
	name, category, city, state string
	tech                        bool
	naics, phone, cityKey       string
}

// metro is a directory metro's city and state as the file gives them.
var metro = map[string][2]string{
	"nyc": {"New York", "NY"}, "sf": {"San Francisco", "CA"}, "la": {"Los Angeles", "CA"},
	"seattle": {"Seattle", "WA"}, "austin": {"Austin", "TX"},
}

func smbCSV(rows []biz) string {
	var b strings.Builder
	b.WriteString("business_name,category,city,state,is_tech,naics,phone,website,city_key\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%t,%s,%s,,%s\n", r.name, r.category, r.city, r.state, r.tech, r.naics, r.phone, r.cityKey)
	}
	return b.String()
}

// numbered is n directory rows named prefix 001, prefix 002, … spread
// over the five metros.
func numbered(prefix string, n int) []biz {
	keys := datamarket.Metros
	out := make([]biz, n)
	for i := range out {
		k := keys[i%len(keys)]
		out[i] = biz{name: fmt.Sprintf("%s %03d", prefix, i+1), category: "Shop", city: metro[k][0], state: metro[k][1],
			tech: i%3 == 0, naics: "311811"}
	}
	return out
}
