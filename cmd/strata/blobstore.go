package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
)

// loadBlobConfig reads the S3-compatible blob store's settings
// (STRATA_BLOB_S3_*). Without STRATA_BLOB_S3_ENDPOINT it returns nil: files
// stay in the local directory <data dir>/blobs (one node). With it, the
// bucket and both keys are required.
func loadBlobConfig(env map[string]string, dataDir string) (*blobs.S3Config, error) {
	get := func(k string) string { return strings.TrimSpace(env[k]) }
	endpoint := get("STRATA_BLOB_S3_ENDPOINT")
	if endpoint == "" {
		for _, k := range []string{"STRATA_BLOB_S3_BUCKET", "STRATA_BLOB_S3_ACCESS_KEY", "STRATA_BLOB_S3_SECRET_KEY"} {
			if get(k) != "" {
				return nil, fmt.Errorf("%s is set but STRATA_BLOB_S3_ENDPOINT is not: set the endpoint to use the S3 blob store", k)
			}
		}
		return nil, nil
	}
	if strings.Contains(endpoint, "://") || strings.ContainsAny(endpoint, "/?#@") {
		return nil, fmt.Errorf("STRATA_BLOB_S3_ENDPOINT: must be host[:port] without a scheme or path (STRATA_BLOB_S3_SECURE chooses https), got %q", endpoint)
	}
	c := &blobs.S3Config{Endpoint: endpoint, Bucket: get("STRATA_BLOB_S3_BUCKET"), Region: get("STRATA_BLOB_S3_REGION"),
		AccessKey: get("STRATA_BLOB_S3_ACCESS_KEY"), SecretKey: get("STRATA_BLOB_S3_SECRET_KEY"),
		StagingDir: filepath.Join(dataDir, "blob-staging")}
	for k, v := range map[string]string{"STRATA_BLOB_S3_BUCKET": c.Bucket, "STRATA_BLOB_S3_ACCESS_KEY": c.AccessKey,
		"STRATA_BLOB_S3_SECRET_KEY": c.SecretKey} {
		if v == "" {
			return nil, fmt.Errorf("%s: required when STRATA_BLOB_S3_ENDPOINT is set", k)
		}
	}
	switch v := get("STRATA_BLOB_S3_SECURE"); v {
	case "", "true", "1":
		c.Secure = true
	case "false", "0":
	default:
		return nil, fmt.Errorf("STRATA_BLOB_S3_SECURE: want true or false, got %q", v)
	}
	return c, nil
}

// openBlobStore returns the configured blob store: the S3 bucket (checked
// to exist and to accept the keys, so a wrong setting stops the start with
// its reason) or the local directory.
func openBlobStore(ctx context.Context, cfg Config) (blobs.Store, error) {
	if cfg.BlobS3 == nil {
		return blobs.NewLocal(filepath.Join(cfg.DataDir, "blobs")), nil
	}
	s, err := blobs.NewS3(*cfg.BlobS3)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := s.Check(cctx); err != nil {
		return nil, err
	}
	return s, nil
}
