package apidocs_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/strata-platform/strata/readapi/apidocs"
	readhackathon "github.com/strata-platform/strata/readapi/hackathon"
	readvoice "github.com/strata-platform/strata/readapi/voice"
)

// chromium is the headless browser's path: $CHROMIUM, else
// /usr/bin/chromium; the test is skipped without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	t.Skip("no Chromium at /usr/bin/chromium (or $CHROMIUM): the page is not rendered in a browser; install Debian's chromium to run this test")
	return ""
}

// dumpDOM loads url in headless Chromium, lets the page run (virtual time:
// timers advance, pending fetches finish) and returns the DOM it ends with.
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	bin := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=20000", "--dump-dom", url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return string(out)
}

// textEscape is how a browser serializes text in the DOM.
var textEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace

// request is what the fake API saw.
type request struct {
	Method, Path, Query, Authorization, APIKey, ContentType, Body string
}

// docsServer serves the page at /docs, the hackathon surface's description
// at /openapi.json and a fake of two of its routes that records what it
// was sent.
func docsServer(t *testing.T, extra map[string]string) (*httptest.Server, func() []request) {
	t.Helper()
	var mu sync.Mutex
	var seen []request
	mux := http.NewServeMux()
	mux.Handle("/docs", apidocs.Handler("Strata hackathon API", "/openapi.json"))
	mux.HandleFunc("/openapi.json", readhackathon.OpenAPI)
	mux.Handle("/voice/docs", apidocs.Handler("Strata voice API", "/voice/openapi.json"))
	mux.HandleFunc("/voice/openapi.json", readvoice.OpenAPI)
	mux.HandleFunc("/api/v1/hackathons", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization"),
			APIKey: r.Header.Get("X-API-Key"), ContentType: r.Header.Get("Content-Type"), Body: string(body)})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Ratelimit-Remaining", "299")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"id":"0190d3a4-0000-7000-8000-000000000001"}`))
			return
		}
		_, _ = w.Write([]byte(`{"items":[],"total":0,"limit":5,"offset":0}`))
	})
	for path, page := range extra {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, page)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, func() []request {
		mu.Lock()
		defer mu.Unlock()
		return append([]request(nil), seen...)
	}
}

// TestPageRendersTheOperationsInChromium loads the page with the
// hackathon surface's description: every operation is listed (method,
// path, summary) under its tag, and a deep link opens one with its
// parameters, request body schema, responses and Try it form.
func TestPageRendersTheOperationsInChromium(t *testing.T) {
	chromium(t)
	srv, _ := docsServer(t, nil)
	doc, err := openapi3.NewLoader().LoadFromData(readhackathon.Spec())
	if err != nil {
		t.Fatal(err)
	}
	dom := dumpDOM(t, srv.URL+"/docs#op-createHackathon")
	checkListed(t, doc, dom)
	if !strings.Contains(dom, textEscape(doc.Info.Title)) || !strings.Contains(dom, "300 requests a minute per user") {
		t.Error("the API's info and description are not shown")
	}
	// The deep-linked operation is open with everything it documents.
	op := opened(t, dom, "createHackathon")
	for _, want := range []string{"Request body", "HackathonCreate", "start_date", "max_participants", "Responses", ">201<", ">400<",
		">429<"} {
		if !strings.Contains(op, want) {
			t.Errorf("the open operation does not show %q", want)
		}
	}
	if !strings.Contains(op, `<form class="try"`) || !strings.Contains(op, `name="body"`) || !strings.Contains(op, `name="authorization"`) {
		t.Error("the open operation has no Try it form with a body and a credential")
	}

	// The voice surface's description: its webhook too.
	vdoc, err := openapi3.NewLoader().LoadFromData(readvoice.Spec())
	if err != nil {
		t.Fatal(err)
	}
	vdom := dumpDOM(t, srv.URL+"/voice/docs#op-placeOutboundCall")
	checkListed(t, vdoc, vdom)
	if !strings.Contains(vdom, `id="webhooks"`) || !strings.Contains(vdom, `id="op-statusCallback"`) {
		t.Error("the voice description's callStatus webhook is not shown")
	}
	op = opened(t, vdom, "placeOutboundCall")
	for _, want := range []string{"OutboundCall", "from_number", "status_callback_url", ">201<", ">422<", ">451<", ">503<", "X-Organization-ID",
		`"+14155550123"`} {
		if !strings.Contains(op, want) {
			t.Errorf("placeOutboundCall does not show %q", want)
		}
	}
}

// opened is the operation's <details> element in dom; it must be open.
func opened(t *testing.T, dom, operationID string) string {
	t.Helper()
	i := strings.Index(dom, `id="op-`+operationID+`"`)
	if i < 0 {
		t.Fatalf("no operation %s", operationID)
	}
	j := strings.Index(dom[i:], "</details>")
	op := dom[i : i+j]
	if !strings.Contains(op, "open=") {
		t.Errorf("%s is not open", operationID)
	}
	return op
}

// checkListed checks dom lists every operation of doc (method, path,
// summary) and a section per tag.
func checkListed(t *testing.T, doc *openapi3.T, dom string) {
	t.Helper()
	if !strings.Contains(dom, `data-state="ready"`) {
		t.Fatalf("the page did not render the description (its script blocked or failed):\n%.3000s", dom)
	}
	n := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			n++
			tag := regexp.MustCompile(`<details class="op"[^>]*id="op-` + regexp.QuoteMeta(op.OperationID) + `"[^>]*>`).FindString(dom)
			if tag == "" || !strings.Contains(tag, `data-method="`+method+`"`) || !strings.Contains(tag, `data-path="`+path+`"`) {
				t.Errorf("%s %s (%s) is not listed: %q", method, path, op.OperationID, tag)
			}
			if op.Summary != "" && !strings.Contains(dom, ">"+textEscape(op.Summary)+"<") {
				t.Errorf("%s: summary %q not shown", op.OperationID, op.Summary)
			}
		}
	}
	for _, item := range doc.Webhooks {
		n += len(item.Operations()) // listed under Webhooks
	}
	if got := strings.Count(dom, `<details class="op"`); got != n {
		t.Errorf("%d operations listed, the description has %d", got, n)
	}
	for _, tag := range doc.Tags {
		if !strings.Contains(dom, `<h2>`+textEscape(tag.Name)+`</h2>`) {
			t.Errorf("tag %s has no section", tag.Name)
		}
	}
}

// driver is a page of the test server (no policy of its own) that frames
// the docs page, fills and sends Try it forms as a person would (typing a
// credential, choosing query parameters, sending the prefilled body) and
// copies what the page showed into its own DOM for --dump-dom.
const driver = `<!DOCTYPE html><html><body><iframe id="f" src="/docs" width="1200" height="900"></iframe><div id="out"></div>
<script>
const out = document.getElementById('out');
const frame = document.getElementById('f');
function log(id, v) { const p = document.createElement('pre'); p.id = id; p.textContent = v; out.appendChild(p); }
function until(cond, ms) {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    (function poll() {
      let v = null;
      try { v = cond(); } catch (e) {}
      if (v) return resolve(v);
      if (Date.now() - start > ms) return reject(new Error('timed out: ' + cond));
      setTimeout(poll, 25);
    })();
  });
}
async function open(d, id) {
  const op = d.getElementById(id);
  op.open = true;
  return until(() => op.querySelector('form.try'), 5000);
}
function type(input, v) { input.value = v; input.dispatchEvent(new Event('input', { bubbles: true })); }
(async () => {
  try {
    const d = await until(() => frame.contentDocument && frame.contentDocument.body &&
      frame.contentDocument.body.getAttribute('data-state') === 'ready' && frame.contentDocument, 10000);
    log('method-color', frame.contentWindow.getComputedStyle(d.querySelector('.method.get')).backgroundColor);

    const list = await open(d, 'op-listHackathons');
    list.querySelector('[name="param:query:status"]').value = 'LIVE';
    type(list.querySelector('[name="param:query:limit"]'), '5');
    type(list.querySelector('[name="authorization"]'), 'test-token');
    list.querySelector('button.send').click();
    const r1 = await until(() => list.querySelector('.result[data-state="done"]'), 10000);
    log('get-status', r1.getAttribute('data-status'));
    log('get-headers', r1.querySelector('.headers').textContent);
    log('get-body', r1.querySelector('.body').textContent);
    log('stored', frame.contentWindow.sessionStorage.getItem('apidocs.authorization') || '');

    const create = await open(d, 'op-createHackathon');
    log('post-auth-prefill', create.querySelector('[name="authorization"]').value);
    log('post-body-prefill', create.querySelector('[name="body"]').value);
    type(create.querySelector('[name="apikey"]'), 'sk_test_key');
    create.querySelector('button.send').click();
    const r2 = await until(() => create.querySelector('.result[data-state="done"]'), 10000);
    log('post-status', r2.getAttribute('data-status'));
    log('post-body', r2.querySelector('.body').textContent);

    const get = await open(d, 'op-getHackathon');
    get.querySelector('button.send').click();
    const r3 = await until(() => get.querySelector('.result[data-state]'), 5000);
    log('missing', r3.getAttribute('data-state') + ': ' + r3.textContent);
    log('done', 'yes');
  } catch (e) {
    log('error', String(e && e.stack || e));
  }
})();
</script></body></html>`

// TestTryItSendsRequestsInChromium fills and sends Try it forms in
// headless Chromium: the request carries the parameters, the credential
// (kept in sessionStorage for the next form) and the body prefilled from
// the schema, and the page shows the status, headers and body.
func TestTryItSendsRequestsInChromium(t *testing.T) {
	chromium(t)
	srv, seen := docsServer(t, map[string]string{"/drive": driver})
	dom := dumpDOM(t, srv.URL+"/drive")
	field := func(id string) string {
		m := regexp.MustCompile(`(?s)<pre id="` + id + `">(.*?)</pre>`).FindStringSubmatch(dom)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	if e := field("error"); e != "" || field("done") != "yes" {
		t.Fatalf("the driver did not finish: %s\n%.4000s", e, dom)
	}
	if got := field("method-color"); got != "rgb(9, 105, 218)" {
		t.Errorf("the stylesheet did not apply (blocked by the policy?): .method.get is %q", got)
	}

	reqs := seen()
	if len(reqs) != 2 {
		t.Fatalf("the fake API saw %d requests, want 2 (the third form lacked its required path parameter): %+v", len(reqs), reqs)
	}
	get, post := reqs[0], reqs[1]
	if get.Method != "GET" || get.Path != "/api/v1/hackathons" || get.Query != "status=LIVE&limit=5" || get.Authorization != "Bearer test-token" {
		t.Errorf("GET as sent: %+v", get)
	}
	if field("get-status") != "200" || !strings.Contains(field("get-headers"), "x-ratelimit-remaining: 299") ||
		!strings.Contains(field("get-body"), `"total": 0`) {
		t.Errorf("the answer shown: status %q headers %q body %q", field("get-status"), field("get-headers"), field("get-body"))
	}
	if field("stored") != "test-token" || field("post-auth-prefill") != "test-token" {
		t.Errorf("the credential was not kept in sessionStorage: stored %q, next form %q", field("stored"), field("post-auth-prefill"))
	}

	var prefilled map[string]any
	if err := json.Unmarshal([]byte(field("post-body-prefill")), &prefilled); err != nil {
		t.Fatalf("the body was not prefilled with JSON: %q", field("post-body-prefill"))
	}
	for _, k := range []string{"name", "start_date", "end_date"} {
		if _, ok := prefilled[k]; !ok {
			t.Errorf("the prefilled body lacks required %s: %v", k, prefilled)
		}
	}
	if post.Method != "POST" || post.ContentType != "application/json" || post.APIKey != "sk_test_key" || post.Authorization != "Bearer test-token" {
		t.Errorf("POST as sent: %+v", post)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(post.Body), &sent); err != nil || len(sent) != len(prefilled) {
		t.Errorf("POST body as sent: %q", post.Body)
	}
	if field("post-status") != "201" || !strings.Contains(field("post-body"), "0190d3a4-0000-7000-8000-000000000001") {
		t.Errorf("POST answer shown: %q %q", field("post-status"), field("post-body"))
	}
	if m := field("missing"); !strings.HasPrefix(m, "invalid: ") || !strings.Contains(m, "hackathon_id") {
		t.Errorf("a missing path parameter: %q", m)
	}
}
