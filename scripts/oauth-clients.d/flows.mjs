// flows.mjs: sign-in flows of the official TypeScript SDK's OAuth client (@modelcontextprotocol/sdk,
// unmodified) against forgejo-mcp in front of the live test forge, with a script standing in for the
// browser (it signs in at the forge with the test user's password and approves). Run by
// scripts/oauth-clients, which starts the forge and builds the server; see that script.
//
// Usage: node flows.mjs SCENARIO...
//   registration    two clients without a client id register (RFC 7591) one after the other, the first
//                   asking for no scope, the second for "read:user write:repository"; both act as the user
//   document        a client identified by its metadata document on an https URL (CIMD)
//   preregistered   a client with its own application at the forge, passed through by the proxy
//   expiry          calls for OAUTH_CLIENTS_EXPIRY_SECONDS while the forge's tokens expire
//   revocation      the user revokes the grant at the forge; the next call must ask for a sign-in
//   clash           (no proxy) two clients sharing one pre-registered application with different scopes
// With OAUTH_CLIENTS_NO_PROXY=1 the server runs without --oauth-proxy, and expiry and revocation use a
// pre-registered application (the path before the proxy), for the figures before and after.
//
// Every scenario prints one line "RESULT <name> {json}"; the process exits 1 when one fails.

import { spawn } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const env = process.env;
const FORGE = env.FORGEJO_TEST_URL;
const USER = env.FORGEJO_TEST_USER;
const PASSWORD = env.FORGEJO_TEST_PASSWORD;
const BIN = env.OAUTH_CLIENTS_BINARY;
const TMP = env.OAUTH_CLIENTS_TMP;
const NO_PROXY = env.OAUTH_CLIENTS_NO_PROXY === '1';
const CALLBACK = 'http://127.0.0.1:1/callback'; // nothing listens: the browser stops there
if (!FORGE || !USER || !PASSWORD || !BIN || !TMP) {
  console.error('flows.mjs: FORGEJO_TEST_URL, FORGEJO_TEST_USER, FORGEJO_TEST_PASSWORD, OAUTH_CLIENTS_BINARY and OAUTH_CLIENTS_TMP are needed');
  process.exit(2);
}

const basic = 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

async function api(method, path, body) {
  const res = await fetch(FORGE + '/api/v1' + path, {
    method,
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: body && JSON.stringify(body)
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return res.status === 204 ? null : res.json();
}

// An OAuth2 application at the forge; deleted at the end.
const apps = [];
async function createApp(name, redirects, confidential) {
  const app = await api('POST', '/user/applications/oauth2', { name, redirect_uris: redirects, confidential_client: confidential });
  apps.push(app.id);
  return app;
}

// The browser: a cookie jar (every server here is on 127.0.0.1) and the steps a person takes.
class Browser {
  jar = new Map();
  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(res) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const gone = attrs.some(a => /^\s*max-age=(0|-)/i.test(a)) || attrs.some(a => /^\s*expires=.*19(70|69)/i.test(a));
      if (gone) this.jar.delete(name);
      else this.jar.set(name, pair.slice(i + 1).trim());
    }
  }
  async go(url, init = {}) {
    const headers = { ...(init.headers || {}), cookie: this.cookieHeader() };
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.keep(res);
    return res;
  }
  async form(url, fields, origin) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields).toString()
    });
  }
  async login() {
    const page = await (await this.go(FORGE + '/user/login')).text();
    const csrf = page.match(/name="_csrf" value="([^"]+)"/)?.[1];
    const res = await this.form(FORGE + '/user/login', { user_name: USER, password: PASSWORD, ...(csrf ? { _csrf: csrf } : {}) }, FORGE);
    if (res.status !== 303 && res.status !== 302) throw new Error(`sign-in at the forge failed: ${res.status}`);
  }
  // approve follows an authorization URL to the client's callback, approving on the proxy's page
  // and on the forge's as a person would; it returns the callback's query and the pages seen.
  async approve(start) {
    let url = new URL(start);
    let res = await this.go(url);
    const seen = [];
    for (let hop = 0; hop < 12; hop++) {
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get('location'), url);
        if (url.href.startsWith(CALLBACK)) return { query: url.searchParams, seen };
        res = await this.go(url);
        continue;
      }
      const page = await res.text();
      if (res.status !== 200) throw new Error(`${url.origin}${url.pathname} answered ${res.status}: ${page.slice(0, 200)}`);
      const request = page.match(/name="request" value="([^"]+)"/)?.[1];
      if (request) {
        seen.push('proxy consent');
        res = await this.form(url.origin + '/oauth/consent', { request: unescapeHTML(request), decision: 'allow' }, url.origin);
        continue;
      }
      const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map(m => [m[1], unescapeHTML(m[2])]));
      if (hidden.client_id) {
        seen.push('forge consent');
        res = await this.form(FORGE + '/login/oauth/grant', { ...hidden, granted: 'true' }, FORGE);
        continue;
      }
      throw new Error(`no consent form at ${url.origin}${url.pathname}`);
    }
    throw new Error('too many hops');
  }
  // revoke revokes a grant in the forge's settings, as the user does there.
  async revoke(grant) {
    const page = await (await this.go(FORGE + '/user/settings/applications')).text();
    const csrf = page.match(/name="_csrf" (?:value|content)="([^"]+)"/)?.[1] ?? page.match(/csrfToken:\s*'([^']+)'/)?.[1];
    const res = await this.form(`${FORGE}/user/settings/applications/oauth2/0/revoke/${grant}`, csrf ? { _csrf: csrf } : {}, FORGE);
    if (res.status !== 200) throw new Error(`revoking grant ${grant}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
}

function unescapeHTML(s) {
  return s.replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

// An OAuthClientProvider kept in memory, as a client keeps its credentials; counts what it saves.
class Provider {
  constructor(name, { scope, documentURL, clientID } = {}) {
    this.name = name;
    this.scope = scope;
    this.clientMetadataUrl = documentURL;
    this.info = clientID ? { client_id: clientID } : undefined;
    this.saved = 0;
    this.registered = 0;
  }
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {})
    };
  }
  state() {
    this.lastState = Math.random().toString(36).slice(2);
    return this.lastState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
    this.registered++;
  }
  tokens() {
    return this.tokenSet;
  }
  saveTokens(t) {
    this.tokenSet = t;
    this.saved++;
  }
  redirectToAuthorization(url) {
    this.authURL = url;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope) {
    if (scope === 'all' || scope === 'tokens') this.tokenSet = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
}

// A fetch that counts the server's 401 answers.
function counting() {
  const f = async (url, init) => {
    const res = await fetch(url, init);
    if (res.status === 401) f.unauthorized++;
    return res;
  };
  f.unauthorized = 0;
  return f;
}

// connect signs provider in (through the browser when it must) and returns a connected client.
async function connect(endpoint, provider, browser, fetchFn) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const client = new Client({ name: 'ts-sdk-oauth-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider, fetch: fetchFn });
    try {
      await client.connect(transport);
      return client;
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || attempt > 0) throw e;
      const { query, seen } = await browser.approve(provider.authURL);
      provider.pages = seen;
      if (query.get('error')) throw new Error(`sign-in refused: ${query.get('error')}: ${query.get('error_description')}`);
      if (query.get('state') !== provider.lastState) throw new Error('the state came back changed');
      await transport.finishAuth(query.get('code'));
    }
  }
}

async function whoami(client) {
  const res = await client.callTool({ name: 'get_my_user_info', arguments: {} });
  if (res.isError) return { error: res.content?.[0]?.text ?? 'isError' };
  return { login: JSON.parse(res.content[0].text).login };
}

// The server: the built binary on a free loopback port, with the proxy unless NO_PROXY.
const servers = [];
async function startServer(extraArgs = [], extraEnv = {}, addr = '127.0.0.1:0') {
  const args = ['--transport', 'http', '--http-addr', addr, ...extraArgs];
  const proc = spawn(BIN, args, { env: { PATH: env.PATH, HOME: env.HOME, FORGEJO_URL: FORGE, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  servers.push(proc);
  let log = '';
  const endpoint = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start: ' + log)), 15000);
    proc.stderr.on('data', d => {
      log += d;
      const m = log.match(/msg="serving MCP over streamable HTTP".* endpoint=(http:\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', code => reject(new Error(`the server exited (${code}): ${log}`)));
  });
  return { endpoint, root: endpoint.replace(/\/mcp$/, ''), log: () => log };
}

// proxyServer starts the server with the proxy in front of a confidential application registered
// for its callback. The forge's API gives the application a new secret whenever its redirect URIs
// change, so the port is chosen first.
async function proxyServer(extraArgs = [], extraEnv = {}) {
  const port = await freePort();
  const root = `http://127.0.0.1:${port}`;
  const app = await createApp('forgejo-mcp oauth-clients ' + Date.now(), [root + '/oauth/callback'], true);
  writeFileSync(join(TMP, 'secret'), app.client_secret + '\n', { mode: 0o600 });
  writeFileSync(join(TMP, 'key'), randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
  const s = await startServer(['--oauth-proxy', '--oauth-client-id', app.client_id, '--oauth-client-secret-file', join(TMP, 'secret'),
    '--oauth-key-file', join(TMP, 'key'), ...extraArgs], extraEnv, `127.0.0.1:${port}`);
  return { ...s, app };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A public application of the user's own (the pre-registered path), any loopback port.
async function ownApp() {
  return createApp('forgejo-mcp oauth-clients own ' + Date.now(), ['http://127.0.0.1/callback'], false);
}

const scenarios = {
  async registration() {
    const s = await proxyServer();
    const b = new Browser();
    await b.login();
    const a = new Provider('TS SDK, no scope');
    const ca = await connect(s.endpoint, a, b);
    const wa = await whoami(ca);
    const p = new Provider('TS SDK, scoped', { scope: 'read:user write:repository' });
    const cp = await connect(s.endpoint, p, b);
    const wp = await whoami(cp);
    const again = await whoami(ca);
    const ok = wa.login === USER && wp.login === USER && again.login === USER && a.registered === 1 && p.registered === 1;
    return { ok, first: { ...wa, pages: a.pages }, second: { ...wp, pages: p.pages }, firstAfterSecond: again };
  },

  async document() {
    const key = readFileSync(join(TMP, 'doc-key.pem'));
    const cert = readFileSync(join(TMP, 'doc-cert.pem'));
    let docURL;
    const docs = https.createServer({ key, cert }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ client_id: docURL, client_name: 'TS SDK by document', redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
    });
    await new Promise(r => docs.listen(0, '127.0.0.1', r));
    docURL = `https://127.0.0.1:${docs.address().port}/client.json`;
    try {
      const s = await proxyServer(['--oauth-cimd-allow-private'], { SSL_CERT_FILE: join(TMP, 'doc-cert.pem') });
      const b = new Browser();
      await b.login();
      const p = new Provider('unused', { documentURL: docURL });
      const c = await connect(s.endpoint, p, b);
      const w = await whoami(c);
      return { ok: w.login === USER && p.info?.client_id === docURL && p.registered === 1, ...w, clientID: p.info?.client_id, pages: p.pages };
    } finally {
      docs.close();
    }
  },

  async preregistered() {
    const s = await proxyServer();
    const own = await ownApp();
    const b = new Browser();
    await b.login();
    const p = new Provider('TS SDK, pre-registered', { clientID: own.client_id });
    const c = await connect(s.endpoint, p, b);
    const w = await whoami(c);
    // The SDK stamps the client information with the issuer; the id stays the forge's.
    return { ok: w.login === USER && p.info?.client_id === own.client_id, ...w, pages: p.pages };
  },

  async expiry() {
    const seconds = Number(env.OAUTH_CLIENTS_EXPIRY_SECONDS || 25);
    const every = Number(env.OAUTH_CLIENTS_CALL_EVERY_MS || 1000);
    const s = NO_PROXY ? await startServer() : await proxyServer();
    const b = new Browser();
    await b.login();
    const p = NO_PROXY ? new Provider('TS SDK, pre-registered', { clientID: (await ownApp()).client_id }) : new Provider('TS SDK, expiry');
    const f = counting();
    const c = await connect(s.endpoint, p, b, f);
    const start = Date.now();
    const signedIn = p.saved;
    let calls = 0, failed = 0, thrown = 0;
    const failures = [];
    while (Date.now() - start < seconds * 1000) {
      calls++;
      try {
        const w = await whoami(c);
        if (w.login !== USER) {
          failed++;
          failures.push(w.error);
        }
      } catch (e) {
        thrown++;
        failures.push(String(e.message || e));
      }
      await new Promise(r => setTimeout(r, every));
    }
    const refreshes = p.saved - signedIn;
    return { ok: failed === 0 && thrown === 0 && refreshes > 0, seconds, calls, failedToolCalls: failed, failedRequests: thrown,
      refreshes, unauthorizedAnswers: f.unauthorized, failures: [...new Set(failures)].slice(0, 3), proxy: !NO_PROXY };
  },

  async revocation() {
    const s = NO_PROXY ? await startServer() : await proxyServer();
    const b = new Browser();
    await b.login();
    const p = NO_PROXY ? new Provider('TS SDK, pre-registered', { clientID: (await ownApp()).client_id }) : new Provider('TS SDK, revocation');
    const f = counting();
    let c = await connect(s.endpoint, p, b, f);
    const before = await whoami(c);
    const grant = JSON.parse(Buffer.from(p.tokenSet.access_token.split('.')[1], 'base64url')).gnt;
    await b.revoke(grant);
    const after = [];
    let askedToSignIn = 0, failedToolCalls = 0;
    for (let i = 0; i < 3 && !askedToSignIn; i++) {
      try {
        const w = await whoami(c);
        after.push(w.error ? 'tool error: ' + w.error.slice(0, 80) : 'ok');
        if (w.error) failedToolCalls++;
      } catch (e) {
        after.push((e instanceof UnauthorizedError ? 'UnauthorizedError' : e.constructor.name) + ': ' + String(e.message).slice(0, 80));
        if (e instanceof UnauthorizedError) askedToSignIn++;
      }
    }
    c = await connect(s.endpoint, p, b, f);
    const again = await whoami(c);
    return { ok: before.login === USER && failedToolCalls === 0 && askedToSignIn === 1 && again.login === USER,
      grant, callsAfterRevocation: after, failedToolCalls, signedInAgain: again.login === USER, proxy: !NO_PROXY };
  },

  async clash() {
    const s = await startServer();
    const own = await ownApp();
    const b = new Browser();
    await b.login();
    const out = {};
    for (const scope of [undefined, 'read:user write:repository']) {
      const p = new Provider('TS SDK ' + (scope || 'no scope'), { clientID: own.client_id, scope });
      try {
        const c = await connect(s.endpoint, p, b);
        out[scope || 'none'] = (await whoami(c)).login ?? 'failed';
      } catch (e) {
        out[scope || 'none'] = String(e.message).slice(0, 160);
      }
    }
    // Without the proxy the forge refuses the second scope: the "before".
    return { ok: out.none === USER && /different scope/.test(out['read:user write:repository']), ...out };
  }
};

let failed = 0;
try {
  for (const name of process.argv.slice(2)) {
    if (!scenarios[name]) throw new Error('unknown scenario ' + name);
    const t0 = Date.now();
    let result;
    try {
      result = await scenarios[name]();
    } catch (e) {
      result = { ok: false, error: String(e.stack || e) };
    }
    result.ms = Date.now() - t0;
    if (!result.ok) failed++;
    console.log(`RESULT ${name} ${JSON.stringify(result)}`);
    while (servers.length) servers.pop().kill('SIGTERM');
  }
} finally {
  for (const s of servers) s.kill('SIGTERM');
  for (const id of apps) await api('DELETE', `/user/applications/oauth2/${id}`).catch(() => {});
}
process.exit(failed ? 1 : 0);
