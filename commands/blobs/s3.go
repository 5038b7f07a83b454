package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config is where an S3-compatible blob store lives and how to reach it.
type S3Config struct {
	// Endpoint is host[:port] of the S3 API, without a scheme.
	Endpoint string
	// Bucket holds the blobs; it must exist (Check says when it does not).
	Bucket string
	// Region is the bucket's region; empty lets the client discover it.
	Region string
	// AccessKey and SecretKey sign requests (AWS Signature V4).
	AccessKey, SecretKey string
	// Secure speaks HTTPS to the endpoint.
	Secure bool
	// StagingDir holds uploads while they are hashed, before they are
	// sent; empty means the system's temporary directory.
	StagingDir string
}

// S3 is a blob store in an S3-compatible bucket, shared by every process
// that points at it: object <owner>/<first two hex digits>/<sha256 hex>.
// Uploads are staged in a local temporary file and hashed, and Commit sends
// the file with its known size (PutObject), so an object is either whole
// or absent; downloads read ranges of the object as the reader seeks.
type S3 struct {
	client *minio.Client
	cfg    S3Config
}

// NewS3 returns a store over cfg's bucket. It does not contact the server;
// Check does.
func NewS3(cfg S3Config) (*S3, error) {
	if cfg.Endpoint == "" || cfg.Bucket == "" {
		return nil, errors.New("blobs: the S3 store needs an endpoint and a bucket")
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, errors.New("blobs: the S3 store needs an access key and a secret key")
	}
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: cfg.Secure,
		Region: cfg.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("blobs: S3 client for %s: %w", cfg.Endpoint, err)
	}
	if cfg.StagingDir == "" {
		cfg.StagingDir = os.TempDir()
	}
	return &S3{client: client, cfg: cfg}, nil
}

// Check verifies that the bucket exists and the credentials reach it.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.cfg.Bucket)
	if err != nil {
		return fmt.Errorf("blobs: S3 bucket %q at %s: %w", s.cfg.Bucket, s.cfg.Endpoint, err)
	}
	if !ok {
		return fmt.Errorf("blobs: S3 bucket %q does not exist at %s", s.cfg.Bucket, s.cfg.Endpoint)
	}
	return nil
}

// Stage copies r into a temporary file of the staging directory.
func (s *S3) Stage(_ context.Context, owner string, r io.Reader, max int64) (*Staged, error) {
	if !ownerRE.MatchString(owner) {
		return nil, fmt.Errorf("blobs: invalid owner %q", owner)
	}
	if err := os.MkdirAll(s.cfg.StagingDir, 0o700); err != nil {
		return nil, fmt.Errorf("blobs: staging directory: %w", err)
	}
	return stage(s.cfg.StagingDir, owner, r, max, s.put)
}

// put sends the staged file as the object with its known size; an object
// already there (equal bytes, since the key is their digest) is kept.
func (s *S3) put(ctx context.Context, st *Staged) error {
	if err := checkName(st.owner, st.SHA256); err != nil {
		return err
	}
	if ok, err := s.Exists(ctx, st.owner, st.SHA256); err != nil || ok {
		return err
	}
	f, err := os.Open(st.tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := s.client.PutObject(ctx, s.cfg.Bucket, key(st.owner, st.SHA256), f, st.Size,
		minio.PutObjectOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return fmt.Errorf("put object: %w", err)
	}
	if info.Size != st.Size {
		return fmt.Errorf("put object: stored %d bytes of %d", info.Size, st.Size)
	}
	return nil
}

// Open opens owner's blob with the given digest; reads fetch ranges of the
// object as the reader seeks.
func (s *S3) Open(ctx context.Context, owner, digest string) (Blob, error) {
	if err := checkName(owner, digest); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.cfg.Bucket, key(owner, digest), minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("blobs: open: %w", notExist(err))
	}
	info, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, fmt.Errorf("blobs: open: %w", notExist(err))
	}
	return &s3Blob{Object: obj, size: info.Size, mod: info.LastModified}, nil
}

type s3Blob struct {
	*minio.Object
	size int64
	mod  time.Time
}

func (b *s3Blob) Size() int64        { return b.size }
func (b *s3Blob) ModTime() time.Time { return b.mod }

// Exists tells whether owner's blob with the given digest is stored.
func (s *S3) Exists(ctx context.Context, owner, digest string) (bool, error) {
	if err := checkName(owner, digest); err != nil {
		return false, err
	}
	_, err := s.client.StatObject(ctx, s.cfg.Bucket, key(owner, digest), minio.StatObjectOptions{})
	if err == nil {
		return true, nil
	}
	if err = notExist(err); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return false, fmt.Errorf("blobs: exists: %w", err)
}

// Remove deletes owner's blob with the given digest (absent is fine).
func (s *S3) Remove(ctx context.Context, owner, digest string) error {
	if err := checkName(owner, digest); err != nil {
		return err
	}
	err := s.client.RemoveObject(ctx, s.cfg.Bucket, key(owner, digest), minio.RemoveObjectOptions{})
	if err != nil && !errors.Is(notExist(err), os.ErrNotExist) {
		return fmt.Errorf("blobs: remove: %w", err)
	}
	return nil
}

// notExist turns the server's "no such key" into an error satisfying
// errors.Is(err, os.ErrNotExist), keeping its text.
func notExist(err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == minio.NoSuchKey || resp.StatusCode == http.StatusNotFound && resp.Code != minio.NoSuchBucket {
		return fmt.Errorf("%w: %w", os.ErrNotExist, err)
	}
	return err
}
