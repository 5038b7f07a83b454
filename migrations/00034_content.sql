-- +goose Up
-- Connected accounts (commands/connections): each connection's stream
-- (connections.connection, "connection:<owner>:<provider>") says who is
-- connected, since when and whether the account must be reconnected; its
-- tokens live here, one row per live connection, written in the
-- transaction that appends the stream's event and deleted at disconnect.
-- sealed is AES-256-GCM (nonce and ciphertext, unpadded base64url) under a
-- key derived from the master key, bound to (owner, provider, version) as
-- additional data, so a row copied onto another does not open. expiry and
-- refreshable are not secret: the periodic refresh finds rows by them.
CREATE TABLE platform.connection_tokens (
    owner       text        NOT NULL,
    provider    text        NOT NULL,
    account_id  text        NOT NULL,
    version     bigint      NOT NULL,
    sealed      text        NOT NULL,
    expiry      timestamptz,
    refreshable boolean     NOT NULL,
    PRIMARY KEY (owner, provider)
);
CREATE INDEX connection_tokens_expiry ON platform.connection_tokens (expiry) WHERE refreshable;

-- The nonces of OAuth state values already used: a state is good once.
CREATE TABLE platform.connection_states (
    nonce      text        PRIMARY KEY,
    expires_at timestamptz NOT NULL
);

-- The content workflow's read model (projector content.v1).
CREATE SCHEMA rm_content_v1;

CREATE TABLE rm_content_v1.twins (
    id                uuid        PRIMARY KEY,
    owner             text        NOT NULL,
    name              text        NOT NULL,
    voice_id          text        NOT NULL,
    style_tags        jsonb       NOT NULL,
    persona_prompt    text        NOT NULL,
    platform_defaults jsonb       NOT NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    deleted_at        timestamptz
);
CREATE INDEX twins_owner ON rm_content_v1.twins (owner, created_at) WHERE deleted_at IS NULL;

-- Posts: calendar items (origin calendar, one platform) and direct
-- publishes (origin publish, one or more platforms).
CREATE TABLE rm_content_v1.posts (
    id           uuid        PRIMARY KEY,
    owner        text        NOT NULL,
    origin       text        NOT NULL,
    twin_id      uuid,
    title        text        NOT NULL,
    platforms    text[]      NOT NULL,
    script       text        NOT NULL,
    media        jsonb       NOT NULL,
    scheduled_at timestamptz NOT NULL,
    status       text        NOT NULL, -- scheduled, published, failed
    reason       text,
    warnings     jsonb       NOT NULL DEFAULT '[]',
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    deleted_at   timestamptz
);
CREATE INDEX posts_owner ON rm_content_v1.posts (owner, origin, scheduled_at) WHERE deleted_at IS NULL;
CREATE INDEX posts_due ON rm_content_v1.posts (scheduled_at) WHERE status = 'scheduled' AND deleted_at IS NULL;

-- Publish targets: one per (post, platform account) and attempt series.
CREATE TABLE rm_content_v1.targets (
    id               text        PRIMARY KEY,
    post_id          uuid        NOT NULL,
    owner            text        NOT NULL,
    platform         text        NOT NULL,
    account_id       text        NOT NULL,
    handle           text        NOT NULL,
    state            text        NOT NULL, -- pending, sending, retrying, published, failed
    attempt          integer     NOT NULL DEFAULT 0,
    class            text,
    reason           text,
    platform_post_id text,
    url              text,
    planned_at       timestamptz NOT NULL,
    due_at           timestamptz NOT NULL,
    started_at       timestamptz,
    finished_at      timestamptz,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX targets_post ON rm_content_v1.targets (post_id, planned_at);
CREATE INDEX targets_account ON rm_content_v1.targets (owner, platform, account_id) WHERE state IN ('pending', 'retrying');

-- Tasks: long operations polled by id (publish targets and exports).
CREATE TABLE rm_content_v1.tasks (
    id         text        PRIMARY KEY,
    owner      text        NOT NULL,
    kind       text        NOT NULL,
    status     text        NOT NULL, -- queued, processing, done, error
    progress   integer     NOT NULL,
    stage      text,
    result     jsonb,
    error      jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

-- Daily social analytics as the platforms reported them (null: a number
-- the platform did not give).
CREATE TABLE rm_content_v1.analytics (
    owner            text        NOT NULL,
    platform         text        NOT NULL,
    account_id       text        NOT NULL,
    day              date        NOT NULL,
    views            bigint,
    likes            bigint,
    comments         bigint,
    shares           bigint,
    followers_gained bigint,
    synced_at        timestamptz NOT NULL,
    PRIMARY KEY (owner, platform, day)
);

-- +goose Down
DROP SCHEMA rm_content_v1 CASCADE;
DROP TABLE platform.connection_states;
DROP TABLE platform.connection_tokens;
