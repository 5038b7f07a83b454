package pgtest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func exists(t *testing.T, d *Database, name string) bool {
	t.Helper()
	var ok bool
	if err := d.SQL.QueryRow("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestDatabasesAreMigratedAndIsolated(t *testing.T) {
	t.Parallel()
	var names []string
	t.Run("use", func(t *testing.T) {
		a, b := DB(t), DB(t)
		if a.Name == b.Name || a.URL == b.URL {
			t.Fatalf("same database twice: %s, %s", a.Name, b.Name)
		}
		names = []string{a.Name, b.Name}
		for _, d := range []*Database{a, b} {
			var current string
			var migrated bool
			if err := d.SQL.QueryRow("SELECT current_database(), to_regclass('es.events') IS NOT NULL").Scan(&current, &migrated); err != nil {
				t.Fatal(err)
			}
			if current != d.Name || !migrated {
				t.Fatalf("%s: connected to %s, es.events exists: %v", d.Name, current, migrated)
			}
		}
		if _, err := a.SQL.Exec("INSERT INTO es.streams (stream_id, stream_type, version) VALUES ('s-1', 'account', 1)"); err != nil {
			t.Fatal(err)
		}
		for d, want := range map[*Database]int{a: 1, b: 0} {
			var n int
			if err := d.SQL.QueryRow("SELECT count(*) FROM es.streams").Scan(&n); err != nil || n != want {
				t.Fatalf("%s: %d streams, %v; want %d", d.Name, n, err, want)
			}
		}
	})
	// The subtest's cleanup has run: its databases must be gone.
	other := DB(t)
	for _, name := range names {
		if exists(t, other, name) {
			t.Errorf("database %s still exists after cleanup", name)
		}
	}
}

func TestDropEndsLeftoverSessions(t *testing.T) {
	t.Parallel()
	var name string
	var leaked *pgx.Conn
	t.Run("leak", func(t *testing.T) {
		d := DB(t)
		name = d.Name
		conn, err := pgx.Connect(context.Background(), d.URL)
		if err != nil {
			t.Fatal(err)
		}
		leaked = conn // never closed by the test
	})
	defer leaked.Close(context.Background())
	if exists(t, DB(t), name) {
		t.Fatalf("database %s with an open session survived cleanup", name)
	}
}

func TestParallelDB(t *testing.T) {
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			d := DB(t)
			if _, err := d.SQL.Exec("INSERT INTO es.streams (stream_id, stream_type, version) VALUES ($1, 'account', 1)", d.Name); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := d.SQL.QueryRow("SELECT count(*) FROM es.streams").Scan(&n); err != nil || n != 1 {
				t.Fatalf("%d streams, %v", n, err)
			}
		})
	}
}

func TestMigrationsHash(t *testing.T) {
	h1, err := MigrationsHash()
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := MigrationsHash()
	if h1 != h2 || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h1) {
		t.Fatalf("hash %q, then %q", h1, h2)
	}
}

// BenchmarkClone compares the CREATE DATABASE strategies on the template
// (PostgreSQL 15+), and measures what a DB call and its cleanup do.
func BenchmarkClone(b *testing.B) {
	s, err := shared.get()
	if err != nil {
		b.Fatal(err)
	}
	for _, strategy := range []string{"WAL_LOG", "FILE_COPY"} {
		b.Run(strategy, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				name := fmt.Sprintf("bench_%s_%d_%d", strings.ToLower(strategy), time.Now().UnixNano(), i)
				if _, err := s.admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+s.tpl+" STRATEGY "+strategy); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if _, err := s.admin.ExecContext(ctx, "DROP DATABASE "+name); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
	b.Run("DB+drop", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			d, err := s.create(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.drop(ctx, d); err != nil {
				b.Fatal(err)
			}
		}
	})
}
