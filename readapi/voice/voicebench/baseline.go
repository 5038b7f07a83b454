package voicebench

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/readapi"
)

// baseline is what the figures are compared with: raw INSERTs into
// scratch tables of the service's database, and a minimal HTTP handler
// doing one such INSERT per request.
type baseline struct {
	db  *stdsql.DB
	url string // the minimal handler's URL
	srv *http.Server
}

const baselineSchema = `
CREATE TABLE IF NOT EXISTS voicebench_events (
    id          bigserial   PRIMARY KEY,
    at          timestamptz NOT NULL,
    payload     jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE IF NOT EXISTS voicebench_requests (
    id         bigserial   PRIMARY KEY,
    body       jsonb       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`

// newBaseline creates the scratch tables and starts the minimal handler
// on a free loopback port.
func newBaseline(ctx context.Context, db *stdsql.DB, logf func(string, ...any)) (*baseline, error) {
	if _, err := db.ExecContext(ctx, baselineSchema); err != nil {
		return nil, fmt.Errorf("voicebench: baseline tables: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &baseline{db: db, url: "http://" + ln.Addr().String() + "/insert"}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /insert", b.insert)
	b.srv = readapi.NewServer(ln.Addr().String(), mux)
	go func() {
		if err := b.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("baseline handler: %v", err)
		}
	}()
	return b, nil
}

func (b *baseline) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.srv.Shutdown(ctx)
}

// insert is the minimal handler: it decodes the JSON body, inserts it
// and answers 201 with the row's id and time.
func (b *baseline) insert(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	raw, _ := json.Marshal(body) // a decoded JSON object always marshals
	var id int64
	var at time.Time
	if err := b.db.QueryRowContext(r.Context(), `INSERT INTO voicebench_requests (body) VALUES ($1) RETURNING id, created_at`, raw).
		Scan(&id, &at); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "status": "sent", "created_at": at.UTC().Format(time.RFC3339Nano)})
}

// events inserts a call_ended-like payload into voicebench_events at rate
// for d, its at a Go timestamp (to the microsecond, as the service's)
// taken just before the INSERT, and returns each row's recorded_at minus
// its at: the event latency's floor on this machine.
func (b *baseline) events(ctx context.Context, rate int, d time.Duration) ([]time.Duration, int, time.Duration, error) {
	lat := make([]time.Duration, int(d.Seconds()*float64(rate)))
	errs := make([]error, len(lat))
	n, span := paced(ctx, rate, d, func(i int) {
		at := time.Now().UTC().Truncate(time.Microsecond)
		payload, _ := json.Marshal(map[string]any{"call_id": uuid.NewString(), "seq": 5, "reason": "remote_hangup",
			"at": at, "status": "completed", "duration": 0}) // strings, numbers and a time always marshal
		var rec time.Time
		if errs[i] = b.db.QueryRowContext(ctx, `INSERT INTO voicebench_events (at, payload) VALUES ($1, $2) RETURNING recorded_at`,
			at, payload).Scan(&rec); errs[i] == nil {
			lat[i] = rec.Sub(at)
		}
	})
	if err := errors.Join(errs[:n]...); err != nil {
		return nil, n, span, fmt.Errorf("voicebench: baseline insert: %w", err)
	}
	return lat[:n], n, span, nil
}
