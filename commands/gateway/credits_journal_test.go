package gateway_test

import (
	"bufio"
	"context"
	stdsql "database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/credits"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// The child process of TestAJournaledDebitSurvivesAKill (run only by it).
const (
	crashDBEnv      = "STRATA_TEST_JOURNAL_CRASH_DB"
	crashDirEnv     = "STRATA_TEST_JOURNAL_CRASH_DIR"
	crashDebitsEnv  = "STRATA_TEST_JOURNAL_CRASH_DEBITS"
	crashRecordedOK = "recorded"
)

// TestJournalCrashChild records debits into a journal, says so, and is
// killed (SIGKILL) by its parent before anything reaches PostgreSQL: no
// spooler runs.
func TestJournalCrashChild(t *testing.T) {
	url := os.Getenv(crashDBEnv)
	if url == "" {
		t.Skip("the child of TestAJournaledDebitSurvivesAKill; run by it")
	}
	n, _ := strconv.Atoi(os.Getenv(crashDebitsEnv))
	db, err := stdsql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2026, 10, 17, 8, 0, 0, 0, time.UTC))
	reg := eventstore.NewRegistry()
	for _, c := range credits.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	store := eventstore.New(db, reg, clock, eventstore.NewULIDs(clock))
	rec := cmdgateway.NewRecorder(store, clock, nil, cmdgateway.RecorderConfig{Owner: "crashed", JournalDir: os.Getenv(crashDirEnv)})
	m := paidModel("frontier", "3", "15", "0.3")
	for i := range n {
		if _, err := rec.Record(context.Background(), usage("acc", fmt.Sprintf("req-%d", i), m, 1000, int64(i), clock.Now())); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println(crashRecordedOK)
	select {} // killed here
}

// A debit Record returned is in the ledger exactly once even when its
// process is killed at once (SIGKILL, before any spool): the next recorder
// on the same journal directory recovers it, and removes the journal.
func TestAJournaledDebitSurvivesAKill(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	dir := t.TempDir()
	const n = 25
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalCrashChild$", "-test.v")
	cmd.Env = append(os.Environ(), crashDBEnv+"="+w.db.URL, crashDirEnv+"="+dir, crashDebitsEnv+"="+strconv.Itoa(n))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	said := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == crashRecordedOK {
				said <- true
				return
			}
		}
		said <- false
	}()
	select {
	case ok := <-said:
		if !ok {
			_ = cmd.Wait()
			t.Fatal("the child ended without recording")
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the child did not record in a minute")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := w.count(`SELECT count(*) FROM platform.gateway_pending_debits`); got != 0 {
		t.Fatalf("%d rows reached PostgreSQL before the kill; the test needs none", got)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "crashed", "seg-*.log"))
	if len(segs) == 0 {
		t.Fatal("the killed process left no journal")
	}

	p := w.process(cmdgateway.RecorderConfig{JournalDir: dir, FlushInterval: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.recorder.Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`) < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if got := w.count(`SELECT count(DISTINCT payload->>'request_id') FROM es.events WHERE event_type = 'credits.debited'`); got != n {
		t.Errorf("%d distinct requests debited, want %d", got, n)
	}
	if got := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited'`); got != n {
		t.Errorf("%d debits, want %d", got, n)
	}
	var want int64
	for i := range n {
		want += 1000*3000 + int64(i)*15000
	}
	if got := w.count(`SELECT sum((payload->>'amount_micro')::bigint) FROM es.events WHERE event_type = 'credits.debited'`); got != want {
		t.Errorf("debited %d micro-credits, want %d", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "crashed")); !os.IsNotExist(err) {
		t.Errorf("the recovered journal is still there: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("journal directories left after a clean stop: %d", len(entries))
	}
}

// With a journal, Record does not wait for PostgreSQL: a debit is
// counted as unflushed at once, reaches the ledger once through the
// spooler, a second Record of it before its flush is a duplicate, and a
// recorder's journal is locked against a second recorder of the same
// owner (which then commits on the request path).
func TestJournaledDebitsAreSpooledOnce(t *testing.T) {
	t.Parallel()
	w := newLedgerWorld(t)
	ctx := context.Background()
	dir := t.TempDir()
	p := w.process(cmdgateway.RecorderConfig{JournalDir: dir, Owner: "one"})
	if err := p.ledger.EnsurePeriod(ctx, "acc"); err != nil {
		t.Fatal(err)
	}
	m := paidModel("frontier", "3", "15", "0.3")
	u := usage("acc", "req-1", m, 1000, 100, w.clock.Now())
	first, err := p.recorder.Record(ctx, u)
	if err != nil || first.Duplicate {
		t.Fatalf("record: %+v %v", first, err)
	}
	if n := w.count(`SELECT count(*) FROM platform.gateway_pending_debits`); n != 0 {
		t.Errorf("%d rows inserted on the request path", n)
	}
	if n, err := p.recorder.Pending(ctx); err != nil || n != 1 {
		t.Errorf("pending %d %v, want the journaled debit", n, err)
	}
	if got := p.billing.Available("acc"); got != credits.FromCredits(1000)-first.Debit.AmountMicro {
		t.Errorf("available before the spool: %s", got.Decimal())
	}
	if again, err := p.recorder.Record(ctx, u); err != nil || !again.Duplicate {
		t.Fatalf("second record before the flush: %+v %v", again, err)
	}
	other := cmdgateway.NewRecorder(w.store, w.clock, nil, cmdgateway.RecorderConfig{JournalDir: dir, Owner: "one"})
	if _, err := other.Record(ctx, usage("acc", "req-2", m, 10, 10, w.clock.Now())); err != nil {
		t.Fatal(err)
	}
	if n := w.count(`SELECT count(*) FROM platform.gateway_pending_debits WHERE request_id = 'req-2'`); n != 1 {
		t.Errorf("a recorder without its journal did not commit on the request path: %d rows", n)
	}
	if f, err := p.recorder.Flush(ctx); err != nil || f.Appended != 2 {
		t.Fatalf("flush: %+v %v", f, err)
	}
	if segs, _ := filepath.Glob(filepath.Join(dir, "one", "seg-*.log")); len(segs) != 1 {
		t.Errorf("segments after the spool: %v, want only the current one", segs)
	} else if fi, err := os.Stat(segs[0]); err != nil || fi.Size() != 0 {
		t.Errorf("the current segment holds %v bytes after the spool", fi)
	}
	x, err := p.ledger.Balance(ctx, "acc", "")
	want := credits.FromCredits(1000) - first.Debit.AmountMicro - (10*3000 + 10*15000)
	if err != nil || x.Balance() != want {
		t.Errorf("balance %s, want %s (%v)", x.Balance().Decimal(), want.Decimal(), err)
	}
	if n := w.count(`SELECT count(*) FROM es.events WHERE event_type = 'credits.debited' AND payload->>'request_id' = 'req-1'`); n != 1 {
		t.Errorf("req-1 debited %d times", n)
	}
}
