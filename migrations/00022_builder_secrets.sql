-- +goose Up
-- The builder's app runtime secrets (commands/builder, Secrets): the
-- secrets stream (builder.secrets) says which names exist, their versions,
-- who changed them and when, and never holds a value; the values live here,
-- one row per live secret, written in the transaction that appends the
-- stream's event (a deletion deletes the row). Each value is sealed with
-- AES-256-GCM under its company's data key (es.subject_keys, key id
-- "builder-secrets:<company>", wrapped by a key derived from the master key),
-- bound to the company id, the name and the version as additional data, so a
-- sealed value copied onto another row does not open. sealed is the nonce
-- and ciphertext in unpadded base64url.
CREATE TABLE platform.builder_secrets (
    company_id text    NOT NULL,
    name       text    NOT NULL,
    version    integer NOT NULL,
    key_id     text    NOT NULL,
    sealed     text    NOT NULL,
    PRIMARY KEY (company_id, name)
);

-- +goose Down
DROP TABLE platform.builder_secrets;
