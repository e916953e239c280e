/**
 * The one request layer (spec 7, 8). Every call of the console goes through `request`, so the
 * token header, language, parameter conventions and the error catalogue live in one place.
 */
import type { EasyDarwinEnvelope, V2Envelope } from '@opencvr/shared';
import i18n, { currentLang } from '../i18n';
import { useSession } from './stores/session';
import { useUi } from './stores/ui';
import { clearSession } from './session';
import { currentPath, isPublicPlayerPath, navigateTo } from './navigation';
import { notify } from './notify';
import { forcedPromptPending } from './forcedPrompt';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Scalar = string | number | boolean | null | undefined;
export type Payload = Record<string, unknown>;

export interface RequestOptions {
  method?: Method;
  /** GET: query parameters; other methods: the body. May carry `path_params` and `ServerHost`. */
  data?: Payload;
  /** Force (true) or refuse (false) form encoding; by default chosen from the path (FORM_PATHS). */
  form?: boolean;
  /** Pass failures on without any notice (browse page stream/token calls, stream info). */
  quiet?: boolean;
  /** DELETE only: send `data` as a JSON body instead of the query (DELETE /api/v1/devices {devices}). */
  deleteBody?: boolean;
  signal?: AbortSignal;
  /** Let the call outlive the page (fetch keepalive): a PTZ stop sent as the tab closes or reloads. */
  keepalive?: boolean;
}

/** A failed call: HTTP status (or 0 when the network failed) and the server's text. */
export class RequestError extends Error {
  constructor(
    public readonly code: number,
    public readonly msg: string,
    public readonly body?: unknown,
  ) {
    super(msg);
    this.name = 'RequestError';
  }
}

/**
 * POSTs the spec names as form-encoded (users, roles, labels, cascade, whites, clear alarm,
 * set initial, other config); EasyCVR's handlers read them as form fields.
 */
const FORM_PATHS: RegExp[] = [
  /\/api\/v1\/(adduser|updateuser|deleteuser|modifypassword)$/,
  /\/api\/v1\/(addrole|role|deleterole)$/,
  /\/api\/v1\/(addlabel|updatelabelName|updatelabel|deletelabel|sharelabel)$/,
  /\/api\/v1\/label\//,
  /\/api\/v1\/cascade\//,
  /\/api\/v1\/(addwhite|editwhite|delwhite|delwhites)$/,
  /\/api\/v1\/(clearalarm|clearehomealarm)$/,
  /\/api\/v1\/setinitial$/,
  /\/api\/v1\/setotherconfig$/,
];

export function isFormPath(path: string): boolean {
  return FORM_PATHS.some((re) => re.test(path));
}

function scalarString(v: Scalar): string {
  return v === null || v === undefined ? '' : String(v);
}

/** `path_params` (a string, or an object whose values are taken in order) appended to the path. */
export function appendPathParams(path: string, pathParams: unknown): string {
  if (pathParams === undefined || pathParams === null || pathParams === '') return path;
  const parts =
    typeof pathParams === 'object'
      ? Object.values(pathParams as Record<string, Scalar>).map(scalarString)
      : [scalarString(pathParams as Scalar)];
  const tail = parts
    .filter((p) => p !== '')
    .map((p) => encodeURIComponent(p))
    .join('/');
  if (!tail) return path;
  return `${path.replace(/\/+$/, '')}/${tail}`;
}

function toEntries(data: Payload): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((item) => out.push([k, scalarString(item as Scalar)]));
    else if (v !== null && typeof v === 'object') out.push([k, JSON.stringify(v)]);
    else out.push([k, scalarString(v as Scalar)]);
  }
  return out;
}

export interface BuiltRequest {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
}

/** Pure part of a call: url, headers and body. Exported for tests. */
export function buildRequest(path: string, opts: RequestOptions = {}, now: number = Date.now()): BuiltRequest {
  const method = opts.method ?? 'GET';
  const { path_params: pathParams, ServerHost: serverHost, ...rest } = opts.data ?? {};
  const base = typeof serverHost === 'string' && serverHost ? serverHost.replace(/\/+$/, '') : '';
  let url = base + appendPathParams(path, pathParams);

  const headers: Record<string, string> = { 'Accept-Language': currentLang() };
  const token = useSession.getState().token;
  if (token) headers.token = token;

  const init: BuiltRequest['init'] = { method, headers };
  if (method === 'GET' || (method === 'DELETE' && !opts.deleteBody)) {
    // s_time defeats caches between the console and the server (old proxies, IE-style caching).
    const query = new URLSearchParams([...toEntries(rest), ['s_time', String(now)]]);
    url += (url.includes('?') ? '&' : '?') + query.toString();
  } else {
    const useForm = opts.form ?? isFormPath(path);
    if (useForm) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      init.body = new URLSearchParams(toEntries(rest)).toString();
    } else {
      headers['Content-Type'] = 'application/json;charset=UTF-8';
      init.body = JSON.stringify(rest);
    }
  }
  return { url, init };
}

/** The text a server error carries: top-level msg, else the v1 header's ErrorString. */
export function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as { msg?: unknown; EasyDarwin?: { Header?: { ErrorString?: unknown } } };
    if (typeof b.msg === 'string' && b.msg) return b.msg;
    const es = b.EasyDarwin?.Header?.ErrorString;
    if (typeof es === 'string' && es) return es;
  }
  if (typeof body === 'string' && body.trim()) return body.trim();
  return fallback;
}

/**
 * The answer's body: JSON, or the text itself. A text/plain answer stays text, whatever it reads as:
 * querymonthly's day flags are digits, and a month recorded from its 1st ('1111…10') parsed as
 * JSON was the number 1.111111111111111e+29, whose characters flagged the 2nd and the 18th on as
 * unrecorded (found with a year of recordings, session 25).
 */
async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  if (/^text\/plain\b/i.test(res.headers.get('Content-Type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function onLoginPage(): boolean {
  return currentPath().startsWith('/login');
}

/**
 * Spec 8. Returns a value to resolve with (426 while the prompt is already up), otherwise throws.
 */
function handleFailure(status: number, body: unknown, opts: RequestOptions): { code: number; msg: string } {
  const text = errorText(body, status ? `HTTP ${status}` : i18n.t('common.networkError'));
  const path = currentPath();
  const login = onLoginPage();

  if (status === 426) {
    // A forced dialog (initialisation, wizard, network, password) is showing or about to: the
    // answer is expected, so resolve quietly instead of stacking a notice on the dialog.
    if (!forcedPromptPending() && !login) {
      useUi.getState().openModifyPwd(true);
      notify.error(text);
    } else {
      return { code: 426, msg: text };
    }
  } else if (status === 401 && !login) {
    if (!isPublicPlayerPath(path)) {
      // Clean up once the login page is showing, so the guard does not add its own ?redirect=.
      void navigateTo(`/login?${new URLSearchParams({ msg: text, type: '401' }).toString()}`).finally(clearSession);
    }
  } else if (status === 400) {
    if (!opts.quiet && !login) notify.error(text);
  } else if (!opts.quiet && !login) {
    notify.failure(i18n.t('common.requestFailed'), text);
  }
  throw new RequestError(status, text, body);
}

/** Performs a call and returns the raw answer (callers read `EasyDarwin.Body` or `data`). */
export async function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const { url, init } = buildRequest(path, opts);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: opts.signal, ...(opts.keepalive ? { keepalive: true } : {}) });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    // No answer: the browser's own text ("Failed to fetch") means nothing to a user; the fallback
    // says the connection to the server is down, in the console's language.
    return handleFailure(0, null, opts) as T;
  }
  const body = await readBody(res);
  if (!res.ok) return handleFailure(res.status, body, opts) as T;
  return body as T;
}

/** Body of a /api/v1 answer. */
export function v1Body<B>(raw: EasyDarwinEnvelope<B> | null | undefined): B {
  if (!raw || !raw.EasyDarwin) throw new RequestError(0, i18n.t('common.badAnswer'), raw);
  return raw.EasyDarwin.Body;
}

/** data of a /api/v2 answer. */
export function v2Data<D>(raw: V2Envelope<D> | null | undefined): D {
  if (!raw || typeof raw !== 'object' || !('data' in raw)) throw new RequestError(0, i18n.t('common.badAnswer'), raw);
  return raw.data;
}

export const getV1 = async <B>(path: string, data?: Payload, extra?: Omit<RequestOptions, 'data' | 'method'>) =>
  v1Body(await request<EasyDarwinEnvelope<B>>(path, { ...extra, data }));

export const postV1 = async <B>(path: string, data?: Payload, extra?: Omit<RequestOptions, 'data' | 'method'>) =>
  v1Body(await request<EasyDarwinEnvelope<B>>(path, { ...extra, method: 'POST', data }));

export const getV2 = async <D>(path: string, data?: Payload, extra?: Omit<RequestOptions, 'data' | 'method'>) =>
  v2Data(await request<V2Envelope<D>>(path, { ...extra, data }));
