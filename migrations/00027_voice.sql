-- +goose Up
-- Read model of projector voice.v1 (projections/voice): calls, their notes,
-- recordings and status-callback attempts, messages, contacts, the number
-- inventory and the do-not-call lists. Personal data stays sealed here as in
-- the events (a jsonb {key, data}, opened by the read API with the party's
-- key): destroying a party's key makes these copies unreadable too. Parties
-- are blind indexes (an HMAC of tenant and number).
CREATE SCHEMA rm_voice_v1;

CREATE TABLE rm_voice_v1.calls (
    call_id          uuid        PRIMARY KEY,
    tenant           text        NOT NULL,
    direction        text        NOT NULL,
    line             text        NOT NULL,
    number_id        text        NOT NULL DEFAULT '',
    party            text        NOT NULL,
    remote           jsonb       NOT NULL,
    status           text        NOT NULL,
    seq              integer     NOT NULL,
    sip_code         integer     NOT NULL DEFAULT 0,
    reason           text        NOT NULL DEFAULT '',
    record           boolean     NOT NULL,
    queue_id         text        NOT NULL DEFAULT '',
    agent_id         text        NOT NULL DEFAULT '',
    provider         text        NOT NULL DEFAULT '',
    provider_call_id text        NOT NULL DEFAULT '',
    callback_url     text        NOT NULL DEFAULT '',
    on_hold          boolean     NOT NULL DEFAULT false,
    transferred      boolean     NOT NULL DEFAULT false,
    disposition      text        NOT NULL DEFAULT '',
    duration         integer     NOT NULL DEFAULT 0,
    requested_by     text        NOT NULL DEFAULT '',
    requested_at     timestamptz NOT NULL,
    answered_at      timestamptz,
    ended_at         timestamptz,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX calls_tenant ON rm_voice_v1.calls (tenant, requested_at DESC, call_id);
CREATE INDEX calls_party ON rm_voice_v1.calls (tenant, party, requested_at DESC);
CREATE INDEX calls_live ON rm_voice_v1.calls (tenant, requested_at DESC) WHERE ended_at IS NULL;

CREATE TABLE rm_voice_v1.call_notes (
    note_id uuid        PRIMARY KEY,
    call_id uuid        NOT NULL,
    author  text        NOT NULL,
    secret  jsonb       NOT NULL,
    at      timestamptz NOT NULL
);
CREATE INDEX call_notes_call ON rm_voice_v1.call_notes (call_id, at);

CREATE TABLE rm_voice_v1.recordings (
    recording_id uuid        PRIMARY KEY,
    call_id      uuid        NOT NULL,
    tenant       text        NOT NULL,
    blob         text        NOT NULL,
    bytes        integer     NOT NULL,
    samples      integer     NOT NULL,
    sample_rate  integer     NOT NULL,
    codec        text        NOT NULL,
    at           timestamptz NOT NULL
);
CREATE INDEX recordings_call ON rm_voice_v1.recordings (call_id, at);

CREATE TABLE rm_voice_v1.callbacks (
    subject     uuid        NOT NULL,
    seq         integer     NOT NULL,
    attempt     integer     NOT NULL,
    url         text        NOT NULL,
    status_code integer     NOT NULL DEFAULT 0,
    error       text        NOT NULL DEFAULT '',
    delivered   boolean     NOT NULL,
    final       boolean     NOT NULL,
    millis      integer     NOT NULL,
    at          timestamptz NOT NULL,
    PRIMARY KEY (subject, seq, attempt)
);

CREATE TABLE rm_voice_v1.messages (
    message_id   uuid        PRIMARY KEY,
    tenant       text        NOT NULL,
    direction    text        NOT NULL,
    line         text        NOT NULL,
    party        text        NOT NULL,
    secret       jsonb       NOT NULL,
    status       text        NOT NULL,
    seq          integer     NOT NULL,
    segments     integer     NOT NULL,
    encoding     text        NOT NULL,
    characters   integer     NOT NULL,
    media_count  integer     NOT NULL,
    provider_id  text        NOT NULL DEFAULT '',
    error_code   text        NOT NULL DEFAULT '',
    requested_by text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX messages_tenant ON rm_voice_v1.messages (tenant, created_at DESC, message_id);

CREATE TABLE rm_voice_v1.contacts (
    contact_id uuid        PRIMARY KEY,
    tenant     text        NOT NULL,
    party      text        NOT NULL,
    tags       text[]      NOT NULL,
    secret     jsonb       NOT NULL,
    created_by text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX contacts_tenant ON rm_voice_v1.contacts (tenant, created_at DESC, contact_id);
CREATE INDEX contacts_party ON rm_voice_v1.contacts (tenant, party);

CREATE TABLE rm_voice_v1.numbers (
    number_id      uuid        PRIMARY KEY,
    phone          text        NOT NULL UNIQUE,
    national       text        NOT NULL DEFAULT '',
    country        text        NOT NULL,
    number_type    text        NOT NULL,
    region         text        NOT NULL DEFAULT '',
    capabilities   text[]      NOT NULL,
    provider       text        NOT NULL,
    tenant         text        NOT NULL DEFAULT '',
    friendly_name  text        NOT NULL DEFAULT '',
    routing_type   text        NOT NULL DEFAULT '',
    routing_target text        NOT NULL DEFAULT '',
    routing_menu   jsonb,
    imported_at    timestamptz NOT NULL,
    purchased_at   timestamptz
);
CREATE INDEX numbers_available ON rm_voice_v1.numbers (country, number_type, national) WHERE tenant = '';
CREATE INDEX numbers_tenant ON rm_voice_v1.numbers (tenant, purchased_at, number_id) WHERE tenant <> '';

CREATE TABLE rm_voice_v1.dnc (
    tenant text        NOT NULL,
    party  text        NOT NULL,
    source text        NOT NULL,
    reason text        NOT NULL DEFAULT '',
    secret jsonb       NOT NULL,
    since  timestamptz NOT NULL,
    PRIMARY KEY (tenant, party)
);
CREATE INDEX dnc_since ON rm_voice_v1.dnc (tenant, since DESC, party);

CREATE TABLE rm_voice_v1.voicemails (
    voicemail_id uuid        PRIMARY KEY,
    call_id      uuid        NOT NULL,
    tenant       text        NOT NULL,
    number_id    text        NOT NULL DEFAULT '',
    line         text        NOT NULL,
    party        text        NOT NULL,
    remote       jsonb       NOT NULL,
    status       text        NOT NULL,
    duration_ms  integer     NOT NULL,
    recording_id uuid        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX voicemails_tenant ON rm_voice_v1.voicemails (tenant, status, created_at DESC, voicemail_id);

-- Transcripts: the text stays sealed; search is the English tsvector the
-- projector computes from the opened text (set to NULL when the party is
-- erased, and never computed again once its key is gone).
CREATE TABLE rm_voice_v1.transcripts (
    transcript_id     uuid        PRIMARY KEY,
    call_id           uuid        NOT NULL,
    recording_id      uuid        NOT NULL,
    tenant            text        NOT NULL,
    party             text        NOT NULL,
    engine            text        NOT NULL,
    language          text        NOT NULL,
    confidence        float8,
    segments          integer     NOT NULL,
    duration_ms       integer     NOT NULL,
    sentiment_score   float8,
    sentiment_label   text,
    sentiment_method  text,
    sentiment_version text,
    sentiment_sum     float8,
    sentiment_words   integer,
    sentiment_matched integer,
    secret            jsonb       NOT NULL,
    search            tsvector,
    created_at        timestamptz NOT NULL
);
CREATE INDEX transcripts_tenant ON rm_voice_v1.transcripts (tenant, created_at DESC, transcript_id);
CREATE INDEX transcripts_call ON rm_voice_v1.transcripts (call_id);
CREATE INDEX transcripts_search ON rm_voice_v1.transcripts USING gin (search);

CREATE TABLE rm_voice_v1.transcript_failures (
    call_id      uuid        NOT NULL,
    recording_id uuid        NOT NULL,
    engine       text        NOT NULL DEFAULT '',
    reason       text        NOT NULL,
    at           timestamptz NOT NULL,
    PRIMARY KEY (call_id, recording_id)
);

-- The keys an inbound call's caller pressed and where it was routed.
ALTER TABLE rm_voice_v1.calls ADD COLUMN digits text NOT NULL DEFAULT '';
ALTER TABLE rm_voice_v1.calls ADD COLUMN route text NOT NULL DEFAULT '';

-- +goose Down
DROP SCHEMA rm_voice_v1 CASCADE;
