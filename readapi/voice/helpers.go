package voice

import (
	stdsql "database/sql"
	"errors"
	"net/http"
	"strconv"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/readapi/httpx"
)

// decode reads a JSON body strictly (httpx.DecodeJSON).
func decode(r *http.Request, dst any) error { return httpx.DecodeJSON(r, dst) }

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

func isNoRows(err error) bool { return errors.Is(err, stdsql.ErrNoRows) }

func itoa(n int) string { return strconv.Itoa(n) }
