-- +goose Up
-- Entities merge explicitly (memory.entities_merged): the merged entity's
-- row stays, with merged_into naming its survivor, so a read by its id or
-- name answers the survivor's data; lists leave it out. A survivor's
-- recognized_at becomes the earliest recognition of the entities merged
-- into it and last_recognized_at the latest (NULL: recognized_at), so
-- first_seen and last_seen, which forgetting a memory works out again from
-- them, come out as a rebuild gives them.
ALTER TABLE rm_memory_v1.entities
    ADD COLUMN merged_into        text,
    ADD COLUMN last_recognized_at timestamptz;
CREATE INDEX entities_merged_into ON rm_memory_v1.entities (merged_into) WHERE merged_into IS NOT NULL;

-- +goose Down
DROP INDEX rm_memory_v1.entities_merged_into;
ALTER TABLE rm_memory_v1.entities
    DROP COLUMN merged_into,
    DROP COLUMN last_recognized_at;
