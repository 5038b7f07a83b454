-- +goose Up
-- Per-subject encryption keys (crypto-shredding, eventstore/shred): each key
-- seals personal data inside event payloads; deleting the row makes that
-- data unreadable in every copy of the events. Keys are stored wrapped by a
-- key derived from the master key.
CREATE TABLE es.subject_keys (
    key_id     text        PRIMARY KEY,
    owner      text        NOT NULL,
    wrapped    bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subject_keys_owner ON es.subject_keys (owner);

-- Read model of projector memory.v1 (projections/memory): one user's
-- memories (plain text, removed when forgotten), entities, mentions and the
-- temporal graph's edges. Every change to a memory or to an edge it states
-- bumps the user's version and stamps the memory's row with it, so an
-- in-memory recall index catches up with one indexed query.
CREATE SCHEMA rm_memory_v1;

CREATE TABLE rm_memory_v1.users (
    user_id text   PRIMARY KEY,
    epoch   uuid   NOT NULL,
    version bigint NOT NULL
);

CREATE TABLE rm_memory_v1.memories (
    memory_id   text             PRIMARY KEY,
    user_id     text             NOT NULL,
    namespace   text             NOT NULL,
    memory_type text             NOT NULL,
    importance  double precision NOT NULL,
    entity_id   text,
    content     text             NOT NULL,
    variants    text[]           NOT NULL DEFAULT '{}',
    tags        text[]           NOT NULL DEFAULT '{}',
    metadata    jsonb            NOT NULL DEFAULT '{}',
    created_at  timestamptz      NOT NULL,
    updated_at  timestamptz      NOT NULL,
    version     bigint           NOT NULL
);
CREATE INDEX memories_user_version ON rm_memory_v1.memories (user_id, version);
CREATE INDEX memories_user_entity ON rm_memory_v1.memories (user_id, entity_id, created_at);

-- Memories removed since a version (so an index drops them).
CREATE TABLE rm_memory_v1.removed (
    user_id   text   NOT NULL,
    memory_id text   NOT NULL,
    version   bigint NOT NULL,
    PRIMARY KEY (user_id, memory_id)
);
CREATE INDEX removed_user_version ON rm_memory_v1.removed (user_id, version);

CREATE TABLE rm_memory_v1.entities (
    entity_id     text        PRIMARY KEY,
    user_id       text        NOT NULL,
    name          text        NOT NULL,
    entity_type   text        NOT NULL,
    aliases       text[]      NOT NULL DEFAULT '{}',
    memory_count  integer     NOT NULL DEFAULT 0,
    recognized_at timestamptz NOT NULL,
    first_seen    timestamptz NOT NULL,
    last_seen     timestamptz NOT NULL
);
CREATE INDEX entities_user_type ON rm_memory_v1.entities (user_id, entity_type, memory_count DESC, entity_id);
CREATE INDEX entities_user_name ON rm_memory_v1.entities (user_id, lower(name));

CREATE TABLE rm_memory_v1.mentions (
    memory_id text NOT NULL,
    entity_id text NOT NULL,
    user_id   text NOT NULL,
    PRIMARY KEY (memory_id, entity_id)
);
CREATE INDEX mentions_entity ON rm_memory_v1.mentions (entity_id);

CREATE TABLE rm_memory_v1.edges (
    edge_id     text             PRIMARY KEY,
    user_id     text             NOT NULL,
    subject_id  text             NOT NULL,
    predicate   text             NOT NULL,
    object_id   text             NOT NULL,
    confidence  double precision NOT NULL,
    exclusive   boolean          NOT NULL,
    valid_from  timestamptz      NOT NULL,
    valid_until timestamptz,
    status      text             NOT NULL,
    memory_id   text,
    created_at  timestamptz      NOT NULL
);
CREATE INDEX edges_subject ON rm_memory_v1.edges (subject_id, valid_from, edge_id);
CREATE INDEX edges_object ON rm_memory_v1.edges (object_id);
CREATE INDEX edges_memory ON rm_memory_v1.edges (memory_id) WHERE memory_id IS NOT NULL;

-- +goose Down
DROP SCHEMA rm_memory_v1 CASCADE;
DROP TABLE es.subject_keys;
