package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs/s3test"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// Two strata processes (each with its own data directory, as on two
// machines) on one database and one S3 bucket, behind a round-robin
// balancer that is the public URL. Mixed traffic goes through both; then
// every read model built live by the two processes is compared with a
// replay of the events into fresh tables (strata projections rebuild).
func TestTwoProcessesOnOneDatabaseWithS3Blobs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, starts SeaweedFS and two servers")
	}
	t.Parallel()
	s3 := s3test.Start(t) // skips, naming the install command, without weed
	db := pgtest.DB(t)
	bin := buildStrata(t, t.TempDir())
	master := make([]byte, 32)
	_, _ = rand.Read(master)
	lb := startBalancer(t)
	env := []string{"DATABASE_URL=" + db.URL, "STRATA_MASTER_KEY=" + base64.StdEncoding.EncodeToString(master),
		"STRATA_PUBLIC_URL=" + lb.srv.URL, "STRATA_BUILDER_PUBLIC_URL=" + lb.srv.URL, "STRATA_LOG_LEVEL=warn",
		"STRATA_WORDNET_DIR=off", "STRATA_BLOB_S3_ENDPOINT=" + s3.Config.Endpoint, "STRATA_BLOB_S3_BUCKET=" + s3.Config.Bucket,
		"STRATA_BLOB_S3_ACCESS_KEY=" + s3.Config.AccessKey, "STRATA_BLOB_S3_SECRET_KEY=" + s3.Config.SecretKey,
		"STRATA_BLOB_S3_REGION=" + s3.Config.Region, "STRATA_BLOB_S3_SECURE=false"}
	// Both start at once: migrations and the first signing key race.
	a, b := startNode(t, bin, "a", env), startNode(t, bin, "b", env)
	a.waitHealthy(t)
	b.waitHealthy(t)
	lb.route(a, b)

	ann := scaleoutIdentity(t, a, b, lb)
	scaleoutCommunity(t, a, b, ann)
	scaleoutDocuments(t, a, b, ann, s3.Config)
	scaleoutMemory(t, a, b, ann)

	// Stopping flushes usage counts as events; a third process, started
	// later, catches every projector up on them and stops with nothing to
	// flush. The read models are then final...
	a.stop(t)
	b.stop(t)
	c := startNode(t, bin, "c", env)
	c.waitHealthy(t)
	waitCaughtUp(t, bin, env)
	c.stop(t)
	waitCaughtUp(t, bin, env)
	// ... and each table equals a replay of the events into fresh ones,
	// but for change stamps that count applied batches by design.
	volatile := map[string]string{"rm_memory_v1.users.epoch": "random per build of the read model: tells recall caches to reload"}
	for _, tbl := range []string{"users", "memories", "removed", "entities", "edges", "mentions"} {
		volatile["rm_memory_v1."+tbl+".version"] = "the user's change stamp, bumped once per applied batch (recall indexes catch up by it)"
	}
	live := readModels(t, db.SQL, volatile)
	for _, want := range []string{"rm_captable", "rm_community", "rm_memory"} {
		rows := 0
		for tbl, lines := range live {
			if strings.HasPrefix(tbl, want) {
				rows += len(lines)
			}
		}
		if rows == 0 {
			t.Fatalf("no rows in any %s* table: the comparison would prove nothing (%d tables)", want, len(live))
		}
	}
	cmd := exec.Command(bin, "projections", "rebuild", "--all")
	cmd.Env = append(cmd.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("projections rebuild: %v\n%s", err, out)
	}
	replayed := readModels(t, db.SQL, volatile)
	for tbl, lines := range live {
		if got := replayed[tbl]; strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s differs from a replay of the events:\nlive:   %s\nreplay: %s", tbl, strings.Join(lines, "\n        "), strings.Join(got, "\n        "))
		}
	}
	if len(replayed) != len(live) {
		t.Errorf("%d read-model tables live, %d after the replay", len(live), len(replayed))
	}
}

// waitCaughtUp waits until `strata projections status` reports no lag.
func waitCaughtUp(t *testing.T, bin string, env []string) {
	t.Helper()
	var last []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		cmd := exec.Command(bin, "projections", "status", "--json")
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("projections status: %v", err)
		}
		last = out
		var st []struct {
			Name      string `json:"name"`
			LagEvents int64  `json:"lag_events"`
		}
		if err := json.Unmarshal(out, &st); err != nil {
			t.Fatalf("projections status --json: %v\n%s", err, out)
		}
		behind := 0
		for _, s := range st {
			if s.LagEvents > 0 {
				behind++
			}
		}
		if behind == 0 && len(st) > 0 {
			return
		}
	}
	t.Fatalf("projectors did not catch up:\n%s", last)
}
