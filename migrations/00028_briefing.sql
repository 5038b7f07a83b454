-- +goose Up
-- Agent briefing (domain/briefing). platform.briefing_observation_ids is
-- the command side's record of every observation identity ever recorded
-- (written in the transaction that appends its batch), so a resubmitted
-- observation is left out of the next batch's event. The rest is the read
-- model of projector briefing.v1 (projections/briefing).
CREATE TABLE platform.briefing_observation_ids (
    kind      text NOT NULL,
    source    text NOT NULL,
    source_id text NOT NULL,
    batch_id  text NOT NULL,
    PRIMARY KEY (kind, source, source_id)
);

CREATE SCHEMA rm_briefing_v1;

-- Every observation recorded, as the algorithms read them.
CREATE TABLE rm_briefing_v1.observations (
    kind      text        NOT NULL,
    source    text        NOT NULL,
    source_id text        NOT NULL,
    at        timestamptz NOT NULL,
    series    text,
    value     double precision,
    company   text,
    companies text[],
    title     text,
    body      text,
    url       text,
    form      text,
    developer text,
    repo      text,
    org       text,
    metric    text,
    count     double precision,
    batch_id  text        NOT NULL,
    PRIMARY KEY (kind, source, source_id)
);
CREATE INDEX observations_window ON rm_briefing_v1.observations (kind, at);

CREATE TABLE rm_briefing_v1.signals (
    signal_id  uuid             PRIMARY KEY,
    type       text             NOT NULL,
    algo       text             NOT NULL,
    subject    text             NOT NULL,
    day        date             NOT NULL,
    score      double precision NOT NULL,
    rule       text             NOT NULL,
    payload    jsonb            NOT NULL,
    evidence   jsonb            NOT NULL,
    run_id     text             NOT NULL,
    created_at timestamptz      NOT NULL
);
CREATE INDEX signals_recent ON rm_briefing_v1.signals (type, created_at DESC, signal_id);

CREATE TABLE rm_briefing_v1.consumptions (
    agent       text        NOT NULL,
    signal_id   uuid        NOT NULL,
    consumed_at timestamptz NOT NULL,
    PRIMARY KEY (agent, signal_id)
);

-- The latest correlation set of each algorithm's day (rank: its order).
CREATE TABLE rm_briefing_v1.correlations (
    algo       text             NOT NULL,
    day        date             NOT NULL,
    rank       integer          NOT NULL,
    entity_a   text             NOT NULL,
    entity_b   text             NOT NULL,
    type       text             NOT NULL,
    score      double precision NOT NULL,
    metadata   jsonb            NOT NULL,
    scored_at  timestamptz      NOT NULL,
    PRIMARY KEY (algo, day, rank)
);

CREATE TABLE rm_briefing_v1.regimes (
    day         date        PRIMARY KEY,
    regime      jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL
);

CREATE TABLE rm_briefing_v1.trending (
    day       date        PRIMARY KEY,
    items     jsonb       NOT NULL,
    scored_at timestamptz NOT NULL
);

CREATE TABLE rm_briefing_v1.runs (
    run_id       text        NOT NULL,
    algo         text        NOT NULL,
    day          date        NOT NULL,
    trigger      text        NOT NULL,
    inputs       integer     NOT NULL,
    no_input     boolean     NOT NULL,
    rule_version text        NOT NULL,
    signals      integer     NOT NULL,
    correlations integer     NOT NULL,
    at           timestamptz NOT NULL,
    PRIMARY KEY (run_id, algo)
);
CREATE INDEX runs_recent ON rm_briefing_v1.runs (at DESC);

-- +goose Down
DROP SCHEMA rm_briefing_v1 CASCADE;
DROP TABLE platform.briefing_observation_ids;
