package jobs

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

// River's tables come from our goose migration (00016_jobs.sql), a copy of
// River's own migrations. This compares what it built with what River's
// migrator builds in another schema, and asks the migrator whether anything
// is left to apply: a River upgrade that adds a migration fails here until
// a new goose migration applies it.
func TestRiverSchemaMatchesRivermigrate(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	ctx := context.Background()
	if _, err := db.SQL.Exec(`CREATE SCHEMA river_ref`); err != nil {
		t.Fatal(err)
	}
	ref, err := rivermigrate.New(riverdatabasesql.New(db.SQL), &rivermigrate.Config{Schema: "river_ref"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	ours, err := rivermigrate.New(riverdatabasesql.New(db.SQL), &rivermigrate.Config{Schema: Schema})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ours.Validate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("River's migrator finds the jobs schema behind: %v", res.Messages)
	}
	want, got := catalog(t, db.SQL, "river_ref"), catalog(t, db.SQL, Schema)
	for k := range got {
		if strings.Contains(k, "periodic") { // jobs.periodic is ours, not River's
			delete(got, k)
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s:\n rivermigrate: %s\n ours:         %s", k, v, got[k])
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s is ours only: %s", k, v)
		}
	}
	if len(want) < 20 {
		t.Fatalf("the reference schema has %d objects: the comparison would prove little", len(want))
	}
}

// catalog describes a schema's tables, columns, indexes, constraints,
// types and functions, with the schema's name replaced by "S".
func catalog(t *testing.T, db *sql.DB, schema string) map[string]string {
	t.Helper()
	queries := []string{
		`SELECT 'table ' || c.relname, c.relkind::text || ' ' || c.relpersistence::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
		`SELECT 'column ' || table_name || '.' || column_name, concat_ws(' ', data_type, udt_name, is_nullable, column_default, character_maximum_length)
			FROM information_schema.columns WHERE table_schema = $1`,
		`SELECT 'index ' || indexname, indexdef FROM pg_indexes WHERE schemaname = $1`,
		`SELECT 'constraint ' || c.conrelid::regclass::text || ' ' || c.conname, pg_get_constraintdef(c.oid)
			FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1`,
		`SELECT 'type ' || t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
			FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_enum e ON e.enumtypid = t.oid
			WHERE n.nspname = $1 GROUP BY t.typname`,
		`SELECT 'function ' || p.proname, pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
			WHERE n.nspname = $1`,
		`SELECT 'trigger ' || tg.tgname, pg_get_triggerdef(tg.oid) FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
			JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT tg.tgisinternal`,
		`SELECT 'migration ' || line || ' ' || version, '' FROM ` + schema + `.river_migration WHERE $1 <> ''`,
	}
	out := map[string]string{}
	for _, q := range queries {
		rows, err := db.Query(q, schema)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var k, v sql.NullString
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			key := strings.ReplaceAll(k.String, schema+".", "S.")
			out[key] = strings.ReplaceAll(v.String, schema+".", "S.")
		}
		rows.Close()
	}
	return out
}
