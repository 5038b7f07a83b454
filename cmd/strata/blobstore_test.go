package main

import (
	"strings"
	"testing"
)

func TestBlobConfigFromEnvironment(t *testing.T) {
	full := map[string]string{"STRATA_BLOB_S3_ENDPOINT": "s3.example.test:9000", "STRATA_BLOB_S3_BUCKET": "docs",
		"STRATA_BLOB_S3_ACCESS_KEY": "ak", "STRATA_BLOB_S3_SECRET_KEY": "sk", "STRATA_BLOB_S3_REGION": "eu-west-1"}
	with := func(k, v string) map[string]string {
		env := map[string]string{}
		for a, b := range full {
			env[a] = b
		}
		env[k] = v
		return env
	}
	for _, c := range []struct {
		name    string
		env     map[string]string
		wantErr string // "" means accepted
	}{
		{"nothing set keeps the local directory", map[string]string{}, ""},
		{"complete", full, ""},
		{"plain http", with("STRATA_BLOB_S3_SECURE", "false"), ""},
		{"no bucket", with("STRATA_BLOB_S3_BUCKET", ""), "STRATA_BLOB_S3_BUCKET: required"},
		{"no secret", with("STRATA_BLOB_S3_SECRET_KEY", ""), "STRATA_BLOB_S3_SECRET_KEY: required"},
		{"scheme in endpoint", with("STRATA_BLOB_S3_ENDPOINT", "https://s3.example.test"), "STRATA_BLOB_S3_ENDPOINT: must be host[:port]"},
		{"secure not a boolean", with("STRATA_BLOB_S3_SECURE", "maybe"), "STRATA_BLOB_S3_SECURE: want true or false"},
		{"bucket without endpoint", map[string]string{"STRATA_BLOB_S3_BUCKET": "docs"}, "STRATA_BLOB_S3_ENDPOINT is not"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := loadConfig(c.env)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.env) == 0 {
				if cfg.BlobS3 != nil {
					t.Fatalf("S3 configured from nothing: %+v", cfg.BlobS3)
				}
				return
			}
			s := cfg.BlobS3
			if s == nil || s.Endpoint != "s3.example.test:9000" || s.Bucket != "docs" || s.AccessKey != "ak" ||
				s.SecretKey != "sk" || s.Region != "eu-west-1" || s.Secure != (c.env["STRATA_BLOB_S3_SECURE"] == "") ||
				!strings.HasPrefix(s.StagingDir, cfg.DataDir) {
				t.Fatalf("S3 config %+v", s)
			}
		})
	}
}
