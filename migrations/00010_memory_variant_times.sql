-- +goose Up
-- Recall with as_of reads a memory as it read then: the phrasings merged
-- into it by then and the importance it had then. variant_times and
-- variant_importances run parallel to variants (when each was stated, and
-- the memory's importance from then on); first_importance is its importance
-- when first remembered. Rows projected before this migration have none
-- (their variants count as stated when the memory was); rebuilding
-- memory.v1 fills them from the events.
ALTER TABLE rm_memory_v1.memories
    ADD COLUMN variant_times       timestamptz[]      NOT NULL DEFAULT '{}',
    ADD COLUMN variant_importances double precision[] NOT NULL DEFAULT '{}',
    ADD COLUMN first_importance    double precision;

-- +goose Down
ALTER TABLE rm_memory_v1.memories
    DROP COLUMN variant_times,
    DROP COLUMN variant_importances,
    DROP COLUMN first_importance;
