-- +goose Up
-- Read model of projector hackathon.v1 (projections/hackathon): hackathons,
-- participants, teams and members, submissions, scores (the latest revision
-- of each judge's score), per-judge statistics and per-submission results
-- (raw mean and z-score mean, kept by the projector so the leaderboard reads
-- one row per submission), with full-text search vectors.
CREATE SCHEMA rm_hackathon_v1;

CREATE TABLE rm_hackathon_v1.hackathons (
    hackathon_id     uuid        PRIMARY KEY,
    name             text        NOT NULL,
    description      text        NOT NULL DEFAULT '',
    status           text        NOT NULL,
    start_date       timestamptz NOT NULL,
    end_date         timestamptz NOT NULL,
    location         text        NOT NULL DEFAULT '',
    is_online        boolean     NOT NULL,
    max_participants integer,
    created_by       text        NOT NULL,
    organizers       text[]      NOT NULL,
    builders         integer     NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    search           tsvector    GENERATED ALWAYS AS (
        setweight(to_tsvector('english', name), 'A') ||
        setweight(to_tsvector('english', location), 'B') ||
        setweight(to_tsvector('english', description), 'C')) STORED
);
CREATE INDEX hackathons_status ON rm_hackathon_v1.hackathons (status, created_at DESC, hackathon_id);
CREATE INDEX hackathons_created ON rm_hackathon_v1.hackathons (created_at DESC, hackathon_id);
CREATE INDEX hackathons_organizers ON rm_hackathon_v1.hackathons USING gin (organizers);
CREATE INDEX hackathons_search ON rm_hackathon_v1.hackathons USING gin (search);

CREATE TABLE rm_hackathon_v1.tracks (
    hackathon_id uuid NOT NULL,
    track_id     uuid PRIMARY KEY,
    name         text NOT NULL
);
CREATE INDEX tracks_hackathon ON rm_hackathon_v1.tracks (hackathon_id);

CREATE TABLE rm_hackathon_v1.participants (
    hackathon_id uuid        NOT NULL,
    user_id      text        NOT NULL,
    roles        text[]      NOT NULL,
    joined_at    timestamptz NOT NULL,
    PRIMARY KEY (hackathon_id, user_id)
);
CREATE INDEX participants_user ON rm_hackathon_v1.participants (user_id);

CREATE TABLE rm_hackathon_v1.teams (
    hackathon_id uuid        NOT NULL,
    team_id      uuid        PRIMARY KEY,
    name         text        NOT NULL,
    description  text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    search       tsvector    GENERATED ALWAYS AS (
        setweight(to_tsvector('english', name), 'A') ||
        setweight(to_tsvector('english', description), 'C')) STORED
);
CREATE INDEX teams_hackathon ON rm_hackathon_v1.teams (hackathon_id, team_id);
CREATE INDEX teams_search ON rm_hackathon_v1.teams USING gin (search);

CREATE TABLE rm_hackathon_v1.team_members (
    hackathon_id uuid        NOT NULL,
    team_id      uuid        NOT NULL,
    user_id      text        NOT NULL,
    role         text        NOT NULL,
    added_at     timestamptz NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON rm_hackathon_v1.team_members (user_id, hackathon_id);

CREATE TABLE rm_hackathon_v1.submissions (
    hackathon_id uuid        NOT NULL,
    submission_id uuid       PRIMARY KEY,
    team_id      uuid        NOT NULL,
    project_name text        NOT NULL,
    description  text        NOT NULL DEFAULT '',
    track_id     uuid,
    files        integer     NOT NULL DEFAULT 0,
    submitted_at timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    search       tsvector    GENERATED ALWAYS AS (
        setweight(to_tsvector('english', project_name), 'A') ||
        setweight(to_tsvector('english', description), 'C')) STORED
);
CREATE INDEX submissions_hackathon ON rm_hackathon_v1.submissions (hackathon_id, submission_id);
CREATE INDEX submissions_team ON rm_hackathon_v1.submissions (team_id);
CREATE INDEX submissions_search ON rm_hackathon_v1.submissions USING gin (search);

-- The active rubric's top criterion (the highest weight), for the
-- leaderboard's third rung, and its published ladder.
CREATE TABLE rm_hackathon_v1.active_rubrics (
    hackathon_id  uuid   PRIMARY KEY,
    rubric_id     uuid   NOT NULL,
    top_criterion text   NOT NULL,
    ladder        text[] NOT NULL
);
CREATE TABLE rm_hackathon_v1.rubrics (
    hackathon_id  uuid   NOT NULL,
    rubric_id     uuid   PRIMARY KEY,
    top_criterion text   NOT NULL,
    ladder        text[] NOT NULL
);

CREATE TABLE rm_hackathon_v1.scores (
    hackathon_id  uuid        NOT NULL,
    submission_id uuid        NOT NULL,
    judge_id      text        NOT NULL,
    rubric_id     uuid        NOT NULL,
    total         numeric     NOT NULL,
    total_f       float8      NOT NULL,
    top_score     float8,
    scores        jsonb       NOT NULL,
    feedback      text        NOT NULL DEFAULT '',
    revision      integer     NOT NULL,
    scored_by     text        NOT NULL,
    scored_at     timestamptz NOT NULL,
    PRIMARY KEY (submission_id, judge_id)
);
CREATE INDEX scores_judge ON rm_hackathon_v1.scores (hackathon_id, judge_id, submission_id);

CREATE TABLE rm_hackathon_v1.judge_stats (
    hackathon_id uuid   NOT NULL,
    judge_id     text   NOT NULL,
    n            integer NOT NULL,
    mean         float8 NOT NULL,
    sd           float8 NOT NULL,
    PRIMARY KEY (hackathon_id, judge_id)
);

-- One row per live submission: its scores' count, raw mean, z-score mean
-- and mean of the top criterion (NULL without scores).
CREATE TABLE rm_hackathon_v1.results (
    hackathon_id  uuid        NOT NULL,
    submission_id uuid        PRIMARY KEY,
    track_id      uuid,
    n             integer     NOT NULL DEFAULT 0,
    raw_mean      float8      NOT NULL DEFAULT 0,
    z_mean        float8      NOT NULL DEFAULT 0,
    top_mean      float8,
    submitted_at  timestamptz NOT NULL
);
CREATE INDEX results_rank ON rm_hackathon_v1.results (hackathon_id, z_mean DESC, raw_mean DESC);
CREATE INDEX results_track ON rm_hackathon_v1.results (hackathon_id, track_id);

-- +goose Down
DROP SCHEMA rm_hackathon_v1 CASCADE;
