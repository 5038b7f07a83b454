package hackathon_test

import (
	"context"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
)

// BenchmarkLeaderboard5000 reads and ranks a leaderboard of 5,000 scored
// submissions straight from the read model (the size of strata bench
// hackathon), without HTTP.
func BenchmarkLeaderboard5000(b *testing.B) {
	db := pgtest.DB(b)
	ctx := context.Background()
	const id = "01a21e06-484f-7c3d-af7b-91e11aad2126"
	for _, q := range []string{`INSERT INTO rm_hackathon_v1.results (hackathon_id, submission_id, track_id, n, raw_mean, z_mean, top_mean, submitted_at)
		SELECT '` + id + `', gen_random_uuid(), NULL, 3, 1 + 4 * random(), random() * 2 - 1, 1 + floor(random() * 5), now() - g * interval '1 second'
		FROM generate_series(1, 5000) g`,
		`INSERT INTO rm_hackathon_v1.submissions (hackathon_id, submission_id, team_id, project_name, submitted_at, updated_at)
		SELECT hackathon_id, submission_id, gen_random_uuid(), 'Project', submitted_at, submitted_at FROM rm_hackathon_v1.results`,
		`ANALYZE rm_hackathon_v1.results`} {
		if _, err := db.SQL.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		v, err := readhackathon.Leaderboard(ctx, db.SQL, id, "zscore", "", 100, 0)
		if err != nil {
			b.Fatal(err)
		}
		if v.Total != 5000 {
			b.Fatalf("total %d", v.Total)
		}
	}
}
