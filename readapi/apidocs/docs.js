// Renders the OpenAPI description named by <body data-spec> and sends
// "Try it" requests to the same origin. Everything the description says is
// put on the page as text (never as HTML).
(function () {
  'use strict';
  var METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  var AUTH_KEY = 'apidocs.authorization';
  var APIKEY_KEY = 'apidocs.apikey';
  var main = document.getElementById('main');
  var specURL = document.body.getAttribute('data-spec') || 'openapi.json';
  var doc = null;

  // el builds an element: attrs are set as attributes (on* never), children
  // are nodes or strings (as text).
  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] !== undefined && attrs[k] !== null && k.slice(0, 2) !== 'on') e.setAttribute(k, attrs[k]);
      });
    }
    for (var i = 2; i < arguments.length; i++) add(e, arguments[i]);
    return e;
  }
  function add(parent, c) {
    if (c === undefined || c === null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(parent, x); }); return; }
    parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }

  // prose renders a description: paragraphs on blank lines, `code` spans.
  function prose(text) {
    if (!text) return null;
    return String(text).split(/\n\s*\n/).map(function (para) {
      var p = el('p');
      String(para).split('`').forEach(function (part, i) { add(p, i % 2 ? el('code', null, part) : part); });
      return p;
    });
  }

  var storage = (function () {
    try { var s = window.sessionStorage; s.setItem('apidocs.probe', '1'); s.removeItem('apidocs.probe'); return s; } catch (e) { return null; }
  })();
  function stored(key) { return storage ? storage.getItem(key) || '' : ''; }
  function store(key, v) {
    if (!storage) return;
    if (v) storage.setItem(key, v); else storage.removeItem(key);
  }

  // resolve follows a local $ref ("#/components/schemas/X").
  function resolve(node) {
    var guard = 0;
    while (node && typeof node === 'object' && typeof node.$ref === 'string' && guard++ < 32) {
      var ref = node.$ref;
      if (ref.charAt(0) !== '#') return {};
      var target = doc;
      ref.slice(2).split('/').forEach(function (part) {
        part = decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'));
        target = target && typeof target === 'object' ? target[part] : undefined;
      });
      node = target;
    }
    return node || {};
  }
  function refName(node) {
    return node && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : '';
  }

  function typeText(s) {
    s = resolve(s);
    var t = s.type;
    if (Array.isArray(t)) t = t.join(' | ');
    if (!t) {
      if (s.oneOf) return 'one of';
      if (s.anyOf) return 'any of';
      if (s.allOf) return 'all of';
      if (s.const !== undefined) return typeof s.const;
      if (s.properties) return 'object';
      return 'any';
    }
    if (s.type === 'array' || (Array.isArray(s.type) && s.type.indexOf('array') >= 0)) {
      var items = s.items || {};
      t = t.replace('array', 'array of ' + (refName(items) || typeText(items)));
    }
    if (s.format) t += ' (' + s.format + ')';
    return t;
  }

  function constraints(s) {
    s = resolve(s);
    var out = [];
    if (s.const !== undefined) out.push('= ' + JSON.stringify(s.const));
    if (s.enum) out.push('one of: ' + s.enum.map(function (v) { return JSON.stringify(v); }).join(', '));
    if (s.default !== undefined) out.push('default ' + JSON.stringify(s.default));
    if (s.minimum !== undefined) out.push('min ' + s.minimum);
    if (s.maximum !== undefined) out.push('max ' + s.maximum);
    if (s.exclusiveMinimum !== undefined) out.push('> ' + s.exclusiveMinimum);
    if (s.exclusiveMaximum !== undefined) out.push('< ' + s.exclusiveMaximum);
    if (s.minLength !== undefined) out.push('min length ' + s.minLength);
    if (s.maxLength !== undefined) out.push('max length ' + s.maxLength);
    if (s.minItems !== undefined) out.push('min items ' + s.minItems);
    if (s.maxItems !== undefined) out.push('max items ' + s.maxItems);
    if (s.maxProperties !== undefined) out.push('max entries ' + s.maxProperties);
    if (s.pattern) out.push('pattern ' + s.pattern);
    return out.length ? el('span', { 'class': 'constraint' }, ' ', out.join('; ')) : null;
  }

  // schemaView renders a schema as a nested list, following $refs (each
  // at most once on a branch).
  function schemaView(node, depth, seen) {
    seen = seen || [];
    var name = refName(node);
    var s = resolve(node);
    var ul = el('ul', { 'class': 'schema' });
    if (depth > 8 || (name && seen.indexOf(name) >= 0)) {
      ul.appendChild(el('li', null, el('span', { 'class': 'type' }, name || typeText(s)), ' (see above)'));
      return ul;
    }
    if (name) seen = seen.concat([name]);
    ['oneOf', 'anyOf', 'allOf'].forEach(function (k) {
      if (!Array.isArray(s[k])) return;
      s[k].forEach(function (alt, i) {
        ul.appendChild(el('li', null, el('span', { 'class': 'constraint' }, k + ' #' + (i + 1) + ': '),
          el('span', { 'class': 'type' }, refName(alt) || typeText(alt)), constraints(alt), schemaView(alt, depth + 1, seen)));
      });
    });
    var props = s.properties || {};
    var required = s.required || [];
    Object.keys(props).forEach(function (p) {
      var ps = props[p];
      var r = resolve(ps);
      var li = el('li', null, el('code', null, p), required.indexOf(p) >= 0 ? el('span', { 'class': 'req', title: 'required' }, ' *') : null,
        ' ', el('span', { 'class': 'type' }, refName(ps) || typeText(ps)), constraints(ps));
      if (r.description) li.appendChild(el('div', null, r.description));
      if (isComplex(r)) li.appendChild(schemaView(ps, depth + 1, seen));
      ul.appendChild(li);
    });
    var items = s.items;
    if (items && isComplex(resolve(items))) {
      ul.appendChild(el('li', null, el('span', { 'class': 'constraint' }, 'items: '), el('span', { 'class': 'type' }, refName(items) || typeText(items)),
        schemaView(items, depth + 1, seen)));
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      var ap = s.additionalProperties;
      ul.appendChild(el('li', null, el('span', { 'class': 'constraint' }, 'each other key: '),
        el('span', { 'class': 'type' }, refName(ap) || typeText(ap)), isComplex(resolve(ap)) ? schemaView(ap, depth + 1, seen) : null));
    }
    return ul.childNodes.length ? ul : null;
  }
  function isComplex(s) {
    return !!(s.properties || s.oneOf || s.anyOf || s.allOf || (s.items && isComplex(resolve(s.items))) ||
      (s.additionalProperties && typeof s.additionalProperties === 'object'));
  }

  // example makes a value for a schema: its own example, else one built
  // from its parts (the required properties of an object, or all of them
  // when none is required).
  function example(node, depth) {
    var s = resolve(node);
    depth = depth || 0;
    if (s.example !== undefined) return s.example;
    if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
    if (s.const !== undefined) return s.const;
    if (s.default !== undefined) return s.default;
    if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
    if (depth > 6) return null;
    if (s.allOf) {
      var merged = {};
      s.allOf.forEach(function (part) {
        var v = example(part, depth + 1);
        if (v && typeof v === 'object' && !Array.isArray(v)) Object.keys(v).forEach(function (k) { merged[k] = v[k]; });
      });
      return merged;
    }
    if (s.oneOf || s.anyOf) return example((s.oneOf || s.anyOf)[0], depth + 1);
    var t = Array.isArray(s.type) ? s.type.filter(function (x) { return x !== 'null'; })[0] : s.type;
    if (!t && s.properties) t = 'object';
    switch (t) {
      case 'object':
        var out = {};
        var keys = Object.keys(s.properties || {});
        var req = (s.required || []).filter(function (k) { return keys.indexOf(k) >= 0; });
        (req.length ? req : keys).forEach(function (k) { out[k] = example(s.properties[k], depth + 1); });
        return out;
      case 'array':
        return s.items ? [example(s.items, depth + 1)] : [];
      case 'integer':
      case 'number':
        return s.minimum !== undefined ? s.minimum : 0;
      case 'boolean':
        return false;
      case 'string':
        switch (s.format) {
          case 'date-time': return new Date().toISOString();
          case 'date': return new Date().toISOString().slice(0, 10);
          case 'uuid': return '00000000-0000-0000-0000-000000000000';
          case 'email': return 'name@example.com';
          case 'uri': return 'https://example.com/';
        }
        return 'string';
    }
    return null;
  }

  function mediaExample(mt) {
    if (!mt) return undefined;
    if (mt.example !== undefined) return mt.example;
    if (mt.examples) {
      var first = Object.keys(mt.examples)[0];
      if (first) {
        var ex = resolve(mt.examples[first]);
        if (ex.value !== undefined) return ex.value;
      }
    }
    return mt.schema ? example(mt.schema) : undefined;
  }

  function operations(items, webhook) {
    var ops = [];
    Object.keys(items || {}).forEach(function (path) {
      var item = resolve(items[path]);
      METHODS.forEach(function (m) {
        if (item[m]) ops.push({ path: path, method: m, op: item[m], shared: item.parameters || [], webhook: webhook });
      });
    });
    return ops;
  }

  function params(o) {
    var byKey = {};
    var order = [];
    o.shared.concat(o.op.parameters || []).forEach(function (p) {
      var r = resolve(p);
      var k = r.in + ':' + r.name;
      if (!byKey[k]) order.push(k);
      byKey[k] = r;
    });
    return order.map(function (k) { return byKey[k]; });
  }

  function security(o) {
    return o.op.security !== undefined ? o.op.security : doc.security || [];
  }

  function render(spec) {
    doc = spec;
    main.textContent = '';
    var info = spec.info || {};
    main.appendChild(el('section', { 'class': 'info' },
      el('h2', null, info.title || 'API'),
      el('div', { 'class': 'meta' }, 'Version ' + (info.version || '?') + ' · OpenAPI ' + (spec.openapi || '?') + ' · ',
        el('a', { href: specURL }, 'description (JSON)')),
      info.summary ? el('p', null, el('strong', null, info.summary)) : null,
      prose(info.description)));

    var all = operations(spec.paths, false);
    var groups = {};
    var order = [];
    (spec.tags || []).forEach(function (t) { groups[t.name] = { tag: t, ops: [] }; order.push(t.name); });
    all.forEach(function (o) {
      var tags = o.op.tags && o.op.tags.length ? o.op.tags : ['default'];
      tags.forEach(function (t) {
        if (!groups[t]) { groups[t] = { tag: { name: t }, ops: [] }; order.push(t); }
        groups[t].ops.push(o);
      });
    });
    var hooks = operations(spec.webhooks, true);
    var used = order.filter(function (t) { return groups[t].ops.length; });

    var toc = el('ul', { 'class': 'toc' });
    used.forEach(function (t) { toc.appendChild(el('li', null, el('a', { href: '#tag-' + slug(t) }, t + ' (' + groups[t].ops.length + ')'))); });
    if (hooks.length) toc.appendChild(el('li', null, el('a', { href: '#webhooks' }, 'Webhooks (' + hooks.length + ')')));
    main.appendChild(el('nav', { 'aria-label': 'Tags' }, toc));
    var filter = el('input', { 'class': 'filter', type: 'search', placeholder: 'Filter operations by path, summary or id', 'aria-label': 'Filter operations' });
    main.appendChild(filter);

    used.forEach(function (t) {
      var g = groups[t];
      var sec = el('section', { 'class': 'tag', id: 'tag-' + slug(t) }, el('h2', null, t), prose(g.tag.description));
      g.ops.forEach(function (o) { sec.appendChild(operation(o)); });
      main.appendChild(sec);
    });
    if (hooks.length) {
      var wsec = el('section', { 'class': 'tag', id: 'webhooks' }, el('h2', null, 'Webhooks'),
        el('p', null, 'Requests the API sends to you.'));
      hooks.forEach(function (o) { wsec.appendChild(operation(o)); });
      main.appendChild(wsec);
    }

    filter.addEventListener('input', function () {
      var q = filter.value.trim().toLowerCase();
      Array.prototype.forEach.call(main.querySelectorAll('details.op'), function (d) {
        d.classList.toggle('hidden', q !== '' && (d.getAttribute('data-search') || '').indexOf(q) < 0);
      });
    });
    document.body.setAttribute('data-state', 'ready');
    document.body.setAttribute('data-operations', String(all.length));
    openFromHash();
  }

  function slug(s) { return String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-'); }

  function operation(o) {
    var op = o.op;
    var id = 'op-' + (op.operationId || slug(o.method + ' ' + o.path));
    var d = el('details', { 'class': 'op', id: id, 'data-method': o.method.toUpperCase(), 'data-path': o.path,
      'data-search': [o.method, o.path, op.summary || '', op.operationId || ''].join(' ').toLowerCase() });
    d.appendChild(el('summary', null,
      el('span', { 'class': 'method ' + o.method }, o.method),
      el('span', { 'class': 'path' + (op.deprecated ? ' deprecated' : '') }, o.webhook ? o.path + ' (webhook)' : o.path),
      el('span', { 'class': 'sum' }, op.summary || '')));
    var body = el('div', { 'class': 'op-body' });
    d.appendChild(body);
    var built = false;
    // The body is built when first opened: large descriptions stay cheap.
    d.addEventListener('toggle', function () {
      if (d.open && !built) { built = true; fill(body, o); }
    });
    return d;
  }

  function fill(body, o) {
    var op = o.op;
    if (op.operationId) body.appendChild(el('div', { 'class': 'constraint' }, 'operationId ', el('code', null, op.operationId)));
    add(body, prose(op.description));
    var sec = security(o);
    if (!o.webhook) {
      body.appendChild(el('p', { 'class': 'constraint' }, sec.length === 0 ? 'No credentials needed.' :
        'Credentials: ' + sec.map(function (req) { return Object.keys(req).join(' + ') || 'none'; }).join(' or ') + '.'));
    }

    var ps = params(o);
    if (ps.length) {
      var tb = el('tbody');
      ps.forEach(function (p) {
        var schema = p.schema || (p.content && p.content[Object.keys(p.content)[0]].schema) || {};
        tb.appendChild(el('tr', null, el('td', null, el('code', null, p.name), p.required ? el('span', { 'class': 'req', title: 'required' }, ' *') : null),
          el('td', null, p.in), el('td', null, el('span', { 'class': 'type' }, typeText(schema)), constraints(schema)),
          el('td', null, p.description || resolve(schema).description || '')));
      });
      body.appendChild(el('h3', null, 'Parameters'));
      body.appendChild(el('table', null, el('thead', null, el('tr', null, el('th', null, 'Name'), el('th', null, 'In'), el('th', null, 'Schema'), el('th', null, 'Description'))), tb));
    }

    var rb = op.requestBody ? resolve(op.requestBody) : null;
    if (rb && rb.content) {
      body.appendChild(el('h3', null, 'Request body', rb.required ? el('span', { 'class': 'req', title: 'required' }, ' *') : ' (optional)'));
      add(body, prose(rb.description));
      Object.keys(rb.content).forEach(function (ct) {
        var mt = rb.content[ct];
        body.appendChild(el('div', null, el('code', null, ct), mt.schema ? [' ', el('span', { 'class': 'type' }, refName(mt.schema) || typeText(mt.schema)), constraints(mt.schema)] : null));
        if (mt.schema) add(body, schemaView(mt.schema, 0));
      });
    }

    var rs = op.responses || {};
    var codes = Object.keys(rs).sort();
    if (codes.length) {
      body.appendChild(el('h3', null, 'Responses'));
      var rt = el('tbody');
      codes.forEach(function (code) {
        var r = resolve(rs[code]);
        var cell = el('td', null, prose(r.description));
        if (r.headers) cell.appendChild(el('div', { 'class': 'constraint' }, 'Headers: ' + Object.keys(r.headers).join(', ')));
        Object.keys(r.content || {}).forEach(function (ct) {
          var mt = r.content[ct];
          cell.appendChild(el('div', null, el('code', null, ct), mt.schema ? [' ', el('span', { 'class': 'type' }, refName(mt.schema) || typeText(mt.schema))] : null));
          if (mt.schema) add(cell, schemaView(mt.schema, 0));
        });
        rt.appendChild(el('tr', null, el('td', null, el('span', { 'class': 'resp-code ' + (/^[23]/.test(code) ? 'ok' : 'err') }, code)), cell));
      });
      body.appendChild(el('table', { 'class': 'responses' }, rt));
    }

    if (!o.webhook) body.appendChild(tryIt(o, ps, rb, sec));
  }

  function tryIt(o, ps, rb, sec) {
    var form = el('form', { 'class': 'try', novalidate: 'novalidate' }, el('h3', null, 'Try it'));
    ps.forEach(function (p) {
      if (p.in === 'cookie') return;
      var schema = resolve(p.schema || {});
      var id = 'f-' + Math.random().toString(36).slice(2);
      var input;
      if (Array.isArray(schema.enum)) {
        input = el('select', { id: id, name: 'param:' + p.in + ':' + p.name }, el('option', { value: '' }, ''),
          schema.enum.map(function (v) { return el('option', { value: String(v) }, String(v)); }));
      } else {
        var ph = schema.default !== undefined ? String(schema.default) : (Array.isArray(schema.examples) ? String(schema.examples[0]) : typeText(schema));
        input = el('input', { id: id, name: 'param:' + p.in + ':' + p.name, placeholder: ph, autocomplete: 'off' });
      }
      form.appendChild(el('label', { 'for': id }, p.name, ' ', el('span', { 'class': 'hint' }, '(' + p.in + (p.required ? ', required' : '') + ')')));
      form.appendChild(input);
    });
    if (sec.length) {
      [['authorization', 'Authorization', 'Bearer <token>', AUTH_KEY], ['apikey', 'X-API-Key', '<API key>', APIKEY_KEY]].forEach(function (c) {
        var id = 'f-' + Math.random().toString(36).slice(2);
        var input = el('input', { id: id, name: c[0], placeholder: c[2], autocomplete: 'off', 'data-store': c[3] });
        input.value = stored(c[3]);
        input.addEventListener('input', function () {
          store(c[3], input.value);
          Array.prototype.forEach.call(document.querySelectorAll('input[data-store="' + c[3] + '"]'), function (other) {
            if (other !== input) other.value = input.value;
          });
        });
        form.appendChild(el('label', { 'for': id }, c[1], ' ', el('span', { 'class': 'hint' }, '(kept in this tab only)')));
        form.appendChild(input);
      });
    }
    var textarea = null;
    var bodyType = null;
    if (rb && rb.content) {
      var types = Object.keys(rb.content);
      bodyType = types.filter(function (t) { return /json/.test(t); })[0] || types[0];
      var ex = mediaExample(rb.content[bodyType]);
      var tid = 'f-' + Math.random().toString(36).slice(2);
      textarea = el('textarea', { id: tid, name: 'body', spellcheck: 'false' });
      textarea.defaultValue = ex === undefined ? '' : (/json/.test(bodyType) ? JSON.stringify(ex, null, 2) : String(ex));
      form.appendChild(el('label', { 'for': tid }, 'Body ', el('span', { 'class': 'hint' }, '(' + bodyType + (rb.required ? ', required' : ', optional') + ')')));
      form.appendChild(textarea);
    }
    var button = el('button', { type: 'submit', 'class': 'send' }, 'Send');
    form.appendChild(button);
    var result = el('div', { 'class': 'result', 'aria-live': 'polite' });
    form.appendChild(result);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      send(o, form, textarea, bodyType, result, button);
    });
    return form;
  }

  function send(o, form, textarea, bodyType, result, button) {
    result.textContent = '';
    result.removeAttribute('data-state');
    var path = o.path;
    var query = new URLSearchParams();
    var headers = { Accept: 'application/json, */*' };
    var missing = [];
    Array.prototype.forEach.call(form.querySelectorAll('[name^="param:"]'), function (f) {
      var parts = f.name.split(':');
      var where = parts[1];
      var name = parts.slice(2).join(':');
      var v = f.value;
      var p = params(o).filter(function (x) { return x.in === where && x.name === name; })[0] || {};
      if (v === '') {
        if (p.required) missing.push(name);
        return;
      }
      if (where === 'path') path = path.split('{' + name + '}').join(encodeURIComponent(v));
      else if (where === 'query') query.append(name, v);
      else if (where === 'header') headers[name] = v;
    });
    if (missing.length) {
      result.appendChild(el('p', { 'class': 'error' }, 'Required: ' + missing.join(', ')));
      result.setAttribute('data-state', 'invalid');
      return;
    }
    var auth = form.querySelector('[name="authorization"]');
    var key = form.querySelector('[name="apikey"]');
    if (auth && auth.value.trim()) {
      var a = auth.value.trim();
      headers.Authorization = /\s/.test(a) ? a : 'Bearer ' + a;
    }
    if (key && key.value.trim()) headers['X-API-Key'] = key.value.trim();
    var init = { method: o.method.toUpperCase(), headers: headers, credentials: 'same-origin', cache: 'no-store' };
    if (textarea && textarea.value.trim() !== '') {
      if (/json/.test(bodyType)) {
        try { JSON.parse(textarea.value); } catch (e) {
          result.appendChild(el('p', { 'class': 'error' }, 'The body is not JSON: ' + e.message));
          result.setAttribute('data-state', 'invalid');
          return;
        }
      }
      headers['Content-Type'] = bodyType;
      init.body = textarea.value;
    }
    var url = base() + path + (query.toString() ? '?' + query.toString() : '');
    button.disabled = true;
    var started = Date.now();
    fetch(url, init).then(function (res) {
      return res.arrayBuffer().then(function (buf) { show(result, init.method, url, res, buf, Date.now() - started); });
    }).catch(function (e) {
      result.appendChild(el('p', { 'class': 'error' }, 'The request failed: ' + e.message));
      result.setAttribute('data-state', 'failed');
    }).then(function () { button.disabled = false; });
  }

  function show(result, method, url, res, buf, ms) {
    var ct = res.headers.get('Content-Type') || '';
    var hs = [];
    res.headers.forEach(function (v, k) { hs.push(k + ': ' + v); });
    var text;
    if (/json|text|xml|javascript|html/.test(ct) || buf.byteLength === 0) {
      text = new TextDecoder().decode(buf);
      if (/json/.test(ct) && text) {
        try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* shown as sent */ }
      }
    } else {
      text = '(' + buf.byteLength + ' bytes of ' + (ct || 'unknown type') + ')';
    }
    result.appendChild(el('div', null, el('code', null, method + ' ' + url)));
    result.appendChild(el('div', { 'class': 'status' }, 'Status ' + res.status + ' ' + res.statusText + ' · ' + ms + ' ms'));
    result.appendChild(el('pre', { 'class': 'headers' }, hs.join('\n')));
    result.appendChild(el('pre', { 'class': 'body' }, text));
    result.setAttribute('data-status', String(res.status));
    result.setAttribute('data-state', 'done');
  }

  // base is the first server's URL, resolved against the page (the same
  // origin: the page's Content-Security-Policy allows no other).
  function base() {
    var s = (doc.servers && doc.servers[0] && doc.servers[0].url) || '/';
    var u = new URL(s, window.location.href);
    var b = u.origin === window.location.origin ? u.pathname : '/';
    return b.replace(/\/+$/, '');
  }

  function openFromHash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (target && target.tagName === 'DETAILS') {
      target.open = true;
      target.scrollIntoView();
    }
  }
  window.addEventListener('hashchange', openFromHash);

  fetch(specURL, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).then(function (res) {
    if (!res.ok) throw new Error('HTTP ' + res.status + ' fetching ' + specURL);
    return res.json();
  }).then(render).catch(function (e) {
    main.textContent = '';
    main.appendChild(el('p', { 'class': 'error' }, 'The API description could not be loaded: ' + e.message));
    document.body.setAttribute('data-state', 'failed');
  });
})();
