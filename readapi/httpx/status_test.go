package httpx_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

func TestStatusCoversEveryKind(t *testing.T) {
	cases := []struct {
		kind kernel.Kind
		want int
	}{
		{kernel.KindInternal, http.StatusInternalServerError},
		{kernel.KindInvalid, http.StatusBadRequest},
		{kernel.KindUnauthenticated, http.StatusUnauthorized},
		{kernel.KindPaymentRequired, http.StatusPaymentRequired},
		{kernel.KindForbidden, http.StatusForbidden},
		{kernel.KindNotFound, http.StatusNotFound},
		{kernel.KindMethodNotAllowed, http.StatusMethodNotAllowed},
		{kernel.KindConflict, http.StatusConflict},
		{kernel.KindTooLarge, http.StatusRequestEntityTooLarge},
		{kernel.KindUnsupportedMediaType, http.StatusUnsupportedMediaType},
		{kernel.KindUnprocessable, http.StatusUnprocessableEntity},
		{kernel.KindRateLimited, http.StatusTooManyRequests},
		{kernel.KindUnavailableForLegalReasons, http.StatusUnavailableForLegalReasons},
		{kernel.KindUnavailable, http.StatusServiceUnavailable},
		{kernel.KindTimeout, http.StatusGatewayTimeout},
		{kernel.KindBadGateway, http.StatusBadGateway},
		{kernel.Kind(999), http.StatusInternalServerError},
	}
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			if got := httpx.Status(c.kind); got != c.want {
				t.Fatalf("Status(%v) = %d, want %d", c.kind, got, c.want)
			}
		})
	}
	// Every kind the kernel names must be in the table (a new kind added to
	// the kernel without a status would silently become a 500).
	for k := kernel.Kind(1); ; k++ {
		if k.String() == "kind("+strconv.Itoa(int(k))+")" {
			break
		}
		if httpx.Status(k) == http.StatusInternalServerError {
			t.Errorf("kind %v has no status", k)
		}
	}
}
