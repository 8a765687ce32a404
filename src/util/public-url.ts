import net from 'node:net';

/**
 * Where a deployed app listens and how the browser reaches it (config `deploy`, issue 15 point 2). Deploy and
 * builds stay on this machine; a remote browser may reach this machine by another name than 127.0.0.1 (a
 * container network's `host.docker.internal`, a tunnel). Pure functions, no I/O.
 */

/** The placeholder of `deploy.publicUrl` replaced with the OS-assigned port of the server to reach. */
export const PORT_PLACEHOLDER = '{port}';

/** The interface Cookie's servers bind when `deploy.host` is not set: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** The `deploy` settings the servers and the browser session need (a subset of the resolved config). */
export interface Serving {
  /** Interface the app's server (and the evaluation's fence proxy) binds: an IP address; `0.0.0.0` / `::` = every interface. */
  host: string;
  /** How the browser reaches a port of this machine: an origin template with `{port}` (e.g. `http://host.docker.internal:{port}`). Unset: the local URL. */
  publicUrl?: string | undefined;
}

/** A problem of a `deploy` field: what is wrong and how to fix it (shown as `field: problem. Fix: fix`). */
export interface FieldProblem {
  problem: string;
  fix: string;
}

const EXAMPLES = 'http://host.docker.internal:{port} (a container reaching this machine), http://192.168.1.20:{port} (this machine on a LAN), https://{port}.tunnel.example (a tunnel that routes by name to this machine\'s port)';

/** `template` with every `{port}` replaced by `port`. */
export function substitutePort(template: string, port: number | string): string {
  return template.split(PORT_PLACEHOLDER).join(String(port));
}

/**
 * What is wrong with a `deploy.publicUrl` template, or null when it is usable: it must name `{port}` (every app
 * is served on its own OS-assigned port, so one fixed URL could reach at most one of them), and with the port
 * filled in be an http(s) origin: no path, query, fragment or credentials.
 */
export function publicUrlProblem(template: string): FieldProblem | null {
  if (!template.includes(PORT_PLACEHOLDER)) {
    return { problem: `"${template}" has no ${PORT_PLACEHOLDER}: every app is served on its own port, which the OS assigns, so one fixed URL cannot reach them`, fix: `put ${PORT_PLACEHOLDER} where the port goes, e.g. ${EXAMPLES}` };
  }
  let u: URL;
  try {
    u = new URL(substitutePort(template, 41234));
  } catch {
    return { problem: `"${template}" is not a URL (with ${PORT_PLACEHOLDER} = 41234)`, fix: `write a full origin such as ${EXAMPLES}` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { problem: `"${template}" uses ${u.protocol}; the browser opens apps over http or https`, fix: `use http:// or https://, e.g. ${EXAMPLES}` };
  if (u.username || u.password) return { problem: `"${template}" carries credentials`, fix: 'remove the user:password@ part (the page would see it in its own URL)' };
  if (u.pathname !== '/' || u.search || u.hash) return { problem: `"${template}" has a path, query or fragment; it must be an origin (scheme, host, port), because apps use absolute paths such as /style.css`, fix: `drop everything after the host and port, e.g. ${EXAMPLES}` };
  if (u.hostname.includes('{') || u.hostname.includes('}')) return { problem: `"${template}" has a brace in its host name other than ${PORT_PLACEHOLDER}`, fix: `write ${PORT_PLACEHOLDER} exactly` };
  if (substitutePort(template, 41234) === substitutePort(template, 41235)) return { problem: `"${template}" does not change with the port`, fix: `put ${PORT_PLACEHOLDER} in the host or port` };
  return null;
}

/** What is wrong with a `deploy.host`, or null: it must be an IP address of an interface (a name belongs in `deploy.publicUrl`). */
export function hostProblem(host: string): FieldProblem | null {
  if (net.isIP(host)) return null;
  return { problem: `"${host}" is not an IP address`, fix: `use the address of an interface of this machine: 127.0.0.1 (default, this machine only), 0.0.0.0 (every interface, e.g. for a container network) or one interface's address; the name a remote browser reaches this machine by goes in deploy.publicUrl` };
}

/** Is `host` (an IP address) loopback-only, so that nothing outside this machine can connect? */
export function isLoopbackHost(host: string): boolean {
  return host === '::1' || /^127\./.test(host) || host.toLowerCase() === '::ffff:127.0.0.1';
}

/** Is `host` a wildcard (every interface)? */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '::0';
}

/**
 * The origin at which this machine reaches a server bound to `host`:`port`: loopback for a wildcard bind
 * (`0.0.0.0` → 127.0.0.1, `::` → [::1]), else the address itself (IPv6 in brackets).
 */
export function localOriginOf(host: string, port: number | string): string {
  const addr = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '::0' ? '::1' : host;
  return `http://${net.isIPv6(addr) ? `[${addr}]` : addr}:${port}`;
}

/** The origin a browser uses to reach `port` of this machine, per a `deploy.publicUrl` template (checked by {@link publicUrlProblem}). */
export function publicOriginFor(template: string, port: number): string {
  return new URL(substitutePort(template, port)).origin;
}

/** Host name and effective port of an http(s)/ws(s) origin (the default port filled in): what a CONNECT names. */
export function hostAndPort(origin: string): { hostname: string; port: string } {
  const u = new URL(origin);
  const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
  return { hostname: u.hostname, port };
}

/**
 * The host a browser must be allowed to resolve to reach `publicUrl`, as a pattern for Chromium's
 * `--host-resolver-rules` `EXCLUDE` (`{port}` in a host name becomes `*`; an IPv6 address without brackets), or
 * null when Cookie's rules already let it through (localhost, 127.0.0.1). IP literals count: Cookie's
 * `MAP * ~NOTFOUND` refuses them too (measured: `http://127.0.0.2:<port>` and `http://[::1]:<port>` fail with
 * ERR_NAME_NOT_RESOLVED until excluded).
 */
export function resolvablePattern(template: string): string | null {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(template)?.[1];
  if (!authority) return null;
  const hostPart = authority.replace(/^.*@/, '');
  const v6 = /^\[([^\]]+)\]/.exec(hostPart);
  if (v6) return v6[1]!.toLowerCase();
  const name = hostPart.replace(/:(\d+|\{port\})$/, '').toLowerCase();
  if (!name || name === 'localhost' || name === '127.0.0.1') return null;
  return name.split(PORT_PLACEHOLDER).join('*');
}

/**
 * Notes for a run's `deploy` settings that are allowed but worth saying (printed once per run): a public URL with
 * a browser launched here, an app exposed on the network, a Chromium Cookie cannot configure.
 * @param c the resolved config's `deploy` and `browser`
 */
export function deployNotes(c: { deploy: Serving; browser: { wsEndpoint?: string | undefined; cdpEndpoint?: string | undefined } }): string[] {
  const notes: string[] = [];
  const { host, publicUrl } = c.deploy;
  const remote = !!(c.browser.wsEndpoint || c.browser.cdpEndpoint);
  if (publicUrl && !remote) {
    notes.push(`deploy.publicUrl is set but no remote browser is (browser.wsEndpoint / browser.cdpEndpoint): the browser Cookie launches on this machine opens each app at ${substitutePort(publicUrl, '<port>')} — wherever that leads (a tunnel or a forwarded port you mean to test) — instead of ${localOriginOf(host, '<port>')}; remove deploy.publicUrl to open the local URL`);
  }
  if (!isLoopbackHost(host)) {
    notes.push(`deploy.host is ${host}: while it is evaluated, each candidate app (untrusted code) and its fence proxy listen on ${isWildcardHost(host) ? 'every interface of this machine' : `${host}`}, reachable by anything on that network (README "Security and containment")`);
  }
  const pattern = publicUrl ? resolvablePattern(publicUrl) : null;
  if (pattern && c.browser.cdpEndpoint && !c.browser.wsEndpoint) {
    notes.push(`browser.cdpEndpoint: Cookie cannot set the flags of a Chromium you started; if it runs with Cookie's --host-resolver-rules, add ", EXCLUDE ${pattern}" to them, or it cannot reach the host of deploy.publicUrl (Cookie's MAP * rule refuses every other name and address)`);
  }
  return notes;
}
