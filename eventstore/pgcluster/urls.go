package pgcluster

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
)

// WithDatabase returns connString (a postgres:// URL or a keyword/value
// string, as pgx accepts) pointed at database dbname.
func WithDatabase(connString, dbname string) (string, error) {
	if strings.HasPrefix(connString, "postgres://") || strings.HasPrefix(connString, "postgresql://") {
		u, err := url.Parse(connString)
		if err != nil {
			return "", fmt.Errorf("parse database URL: %w", err)
		}
		u.Path, u.RawPath = "/"+dbname, ""
		q := u.Query()
		if q.Has("dbname") {
			q.Set("dbname", dbname)
			u.RawQuery = q.Encode()
		}
		return u.String(), nil
	}
	if _, err := pgx.ParseConfig(connString); err != nil {
		return "", fmt.Errorf("parse database connection string: %w", err)
	}
	// In a keyword/value string the last setting of a keyword wins.
	return connString + " dbname=" + dbname, nil
}
