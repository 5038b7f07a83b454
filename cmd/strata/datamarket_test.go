package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestDataConfigIsChecked(t *testing.T) {
	c, err := loadDataConfig(map[string]string{"STRATA_DATA_SOURCE_SMB_DIRECTORY": "https://data.example/smb.csv",
		"STRATA_DATA_LICENSE_SMB_DIRECTORY": "CC-BY-4.0", "STRATA_DATA_RESOLVER": "127.0.0.1:53"})
	if err != nil || c.Sources["smb-directory"] != "https://data.example/smb.csv" || c.Licenses["smb-directory"] != "CC-BY-4.0" ||
		!c.enrichConfigured() || c.PerMinute != 60 || c.Keep != 3 || c.MaxInvalidRatio != 0.01 {
		t.Fatalf("%+v %v", c, err)
	}
	for env, name := range map[string]string{
		"STRATA_DATA_MAX_INVALID": "2", "STRATA_DATA_KEEP": "0", "STRATA_DATA_RATE_LIMIT": "x",
		"STRATA_DATA_RESOLVER": "nohost", "STRATA_DATA_RDAP_BOOTSTRAP": "ftp://x", "STRATA_DATA_CONTACT_EMAIL": "not an address",
	} {
		if _, err := loadDataConfig(map[string]string{env: name}); err == nil || !strings.Contains(err.Error(), env) {
			t.Errorf("%s=%s: %v, want an error naming it", env, name, err)
		}
	}
}

// The scheduled refresh imports the configured source: a new version the
// first time, nothing new while the file stays the same.
func TestScheduledRefreshImportsTheConfiguredSource(t *testing.T) {
	db := pgtest.DB(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "web3.csv")
	for _, s := range datamarket.Samples() {
		if s.Dataset == "montana-web3" {
			if err := os.WriteFile(src, s.Data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg, err := loadConfig(map[string]string{"STRATA_DATA_SOURCE_MONTANA_WEB3": src, "STRATA_DATA_LICENSE_MONTANA_WEB3": "test licence"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := productionWiring.registry()
	if err != nil {
		t.Fatal(err)
	}
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	app := &App{Config: cfg, Store: store, Clock: clock, Logger: slog.New(slog.DiscardHandler)}
	app.Data = newDatamarket(app, nil)
	ctx := context.Background()
	for range 2 {
		if err := refresh(ctx, app, "montana-web3"); err != nil {
			t.Fatal(err)
		}
	}
	envs, err := store.Load(ctx, datamarket.DatasetStream("montana-web3"), eventstore.LoadOptions{})
	if err != nil || len(envs) != 3 {
		t.Fatalf("%d events (%v), want one version's three", len(envs), err)
	}
	staged := envs[0].Event.(*datamarket.VersionStaged)
	if staged.By != "schedule" || staged.Provenance.License != "test licence" || staged.Provenance.Source != "web3.csv" {
		t.Fatalf("staged %+v", staged)
	}
	if err := refresh(ctx, app, "smb-directory"); err != nil { // no source: nothing to do
		t.Fatal(err)
	}
}
