-- +goose Up
-- No query reads results in (z_mean, raw_mean) order (the leaderboard ranks
-- in Go by the published ladder), and an index on the columns every score
-- rewrites keeps PostgreSQL from updating those rows in place (HOT): with
-- it, 150 results rewritten per score left the table 11 MB for 5,000 rows
-- after 15,000 scores; without it 99% of the updates stay in place.
DROP INDEX rm_hackathon_v1.results_rank;
ALTER TABLE rm_hackathon_v1.results SET (fillfactor = 70);
-- Moves with every change of a hackathon's results (scores, submissions,
-- the active rubric): a process keeps a computed leaderboard until it moves.
ALTER TABLE rm_hackathon_v1.hackathons ADD COLUMN results_version bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE rm_hackathon_v1.hackathons DROP COLUMN results_version;
ALTER TABLE rm_hackathon_v1.results RESET (fillfactor);
CREATE INDEX results_rank ON rm_hackathon_v1.results (hackathon_id, z_mean DESC, raw_mean DESC);
