import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fresh from 'fresh';
import vary from 'vary';
import type { CatalogueVersion } from './catalogue-version.ts';

// HTTP caching of public reads (docs/operations.md, HTTP caching): what a public answer carries (its
// Cache-Control, its tag, what it varies on), when a request may have one, and conditional requests
// (If-None-Match → 304). Every other answer is `private, no-store`.

export const PRIVATE_NO_STORE = 'private, no-store';

/** The headers a request's credentials come in (src/auth/authenticator.ts reads them). */
export type CredentialHeaders = { authorization?: string | undefined; cookie?: string | undefined };

/** The request header a conditional GET is judged by. */
export type ConditionalHeaders = { 'if-none-match'?: string | undefined };

export type PublicCacheOptions = {
  /** `max-age`, in seconds (PUBLIC_CACHE_MAX_AGE); more than 0. */
  maxAgeSeconds: number;
  catalogue: CatalogueVersion;
  /** Whether a request presents a credential, valid or not: its answer is never public. */
  presentsCredential: (headers: CredentialHeaders) => boolean;
  /** Whether cookies may carry credentials (AUTH_JWT_COOKIE, AUTH_SESSION_COOKIE): public answers then vary on Cookie. */
  readsCookies: boolean;
  /** What else an answer depends on besides the data and the request: the gateway's release (its version, its schemas). */
  release: string;
};

export class PublicCache {
  private readonly cacheControl: string;
  /** A shared cache keeps one answer per value of these: one to an anonymous request never answers one with a credential. */
  private readonly varyOn: string[];

  constructor(private readonly options: PublicCacheOptions) {
    this.cacheControl = `public, max-age=${options.maxAgeSeconds}`;
    this.varyOn = options.readsCookies ? ['Authorization', 'Cookie'] : ['Authorization'];
  }

  /** Whether the answer to this request may be public: a GET (or HEAD) presenting no credential. */
  mayBePublic(method: string, headers: CredentialHeaders): boolean {
    return (method === 'GET' || method === 'HEAD') && !this.options.presentsCredential(headers);
  }

  /** The catalogue's version, taken before the data is read; undefined when it cannot be vouched for (then nothing is public). */
  version(): Promise<string | undefined> {
    return this.options.catalogue.current();
  }

  /** The tag of a public answer: the catalogue's version, the release, and what was asked (`request`, one string per part). */
  tagFor(version: string, request: readonly string[]): string {
    const hash = createHash('sha256').update(`${this.options.release}\0${version}\0${request.join('\0')}`);
    return `W/"${hash.digest('base64url').slice(0, 27)}"`;
  }

  /**
   * Whether a conditional request's If-None-Match holds `tag` (weak comparison, as RFC 9110 has it), or is
   * `*`. Only that header counts: a request's `Cache-Control: no-cache` (which fetch() adds to a request
   * with If-None-Match) asks caches to check with the origin, and a 304 from the origin is that check.
   */
  notModified(headers: ConditionalHeaders, tag: string): boolean {
    return fresh({ 'if-none-match': headers['if-none-match'] }, { etag: tag });
  }

  /**
   * Whether a request names tags (not `*`, which only an existing answer matches: the operation must run to
   * know) among which `tag` is: it can be answered 304 before anything runs.
   */
  namesTag(headers: ConditionalHeaders, tag: string): boolean {
    const names = headers['if-none-match'];
    return names !== undefined && names.trim() !== '*' && this.notModified(headers, tag);
  }

  /** Whether a request carries If-None-Match at all. */
  isConditional(headers: ConditionalHeaders): boolean {
    return headers['if-none-match'] !== undefined;
  }

  /** A public answer's Cache-Control and ETag (a 304 carries them too). */
  publicHeaders(tag: string): [name: string, value: string][] {
    return [
      ['cache-control', this.cacheControl],
      ['etag', tag],
    ];
  }

  /**
   * Adds what an answer that may be public varies on to the reply's Vary (CORS may have put Origin there):
   * the credentials, and `also` (what else picks the answer, such as /graphql's Accept).
   */
  addVary(reply: FastifyReply, also: readonly string[] = []): void {
    reply.header('vary', vary.append(String(reply.getHeader('vary') ?? ''), [...also, ...this.varyOn]));
  }

  /** Makes the reply a public answer tagged `tag` (its Vary set by `addVary`). */
  markPublic(reply: FastifyReply, tag: string): void {
    for (const [name, value] of this.publicHeaders(tag)) reply.header(name, value);
  }
}

/**
 * Every answer that says nothing of caching (a read with credentials, classroom data, a mutation, an error,
 * a probe) is `private, no-store`: nothing is kept by a shared cache unless this gateway said it may be.
 */
export function registerPrivateByDefault(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', PRIVATE_NO_STORE);
    done(null, payload);
  });
}
