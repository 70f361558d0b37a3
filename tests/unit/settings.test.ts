import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

// The settings read from the environment (src/config.ts): defaults, units, and a refusal that names the variable.

describe('loadConfig', () => {
  it('gives every default with an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './.data',
      appUrl: 'http://localhost:3000',
      corsOrigins: [],
      bodyLimit: 5 * 1024 * 1024,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 16_000,
      logLevel: 'info',
      production: false,
      playground: true,
      demoData: true,
      subscriptionConnectionsPerToken: 10,
      subscriptionsPerConnection: 20,
      subscriptionKeepAliveMs: 15_000,
      subscriptionInitTimeoutMs: 10_000,
      tokenCacheTtlMs: 5_000,
      tracesEndpoint: undefined,
      metricsPort: undefined,
    });
  });

  it('reads sizes with their units, durations in words or letters, and flags as 0/1/true/false', () => {
    expect(loadConfig({ BODY_LIMIT: '2kb' }).bodyLimit).toBe(2048);
    expect(loadConfig({ BODY_LIMIT: ' 3 MB ', ADMISSION_BYTES: '1gb' }).bodyLimit).toBe(3 * 1024 * 1024);
    expect(loadConfig({ BODY_LIMIT: '700' }).bodyLimit).toBe(700);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '2 minutes' }).subscriptionKeepAliveMs).toBe(120_000);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '1h' }).subscriptionKeepAliveMs).toBe(3_600_000);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '1500' }).subscriptionKeepAliveMs).toBe(1_500);
    expect(loadConfig({ DEMO_DATA: 'false' }).demoData).toBe(false);
    expect(loadConfig({ DEMO_DATA: '1' }).demoData).toBe(true);
  });

  it('turns the playground off in production unless PLAYGROUND=1, and lets it be turned off in development', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ production: true, playground: false });
    expect(loadConfig({ NODE_ENV: 'production', PLAYGROUND: '1' })).toMatchObject({ production: true, playground: true });
    expect(loadConfig({ PLAYGROUND: '0' }).playground).toBe(false);
  });

  it('reads the CORS origins as a trimmed list without trailing slashes, and the app URL without one', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://a.test/ ,http://b.test:8080,, ' }).corsOrigins).toEqual([
      'https://a.test',
      'http://b.test:8080',
    ]);
    expect(loadConfig({ APP_URL: 'https://school.test/app//' }).appUrl).toBe('https://school.test/app');
    expect(() => loadConfig({ CORS_ORIGINS: 'ftp://a.test' })).toThrow(/CORS_ORIGINS="ftp:\/\/a.test"/);
  });

  it('takes an empty DATABASE_URL as unset, and refuses another scheme', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u@h/db' })).toThrow(
      /DATABASE_URL="mysql:\/\/u@h\/db": expected a postgresql:\/\/ URL/,
    );
  });

  it('names every bad variable with the value given, all at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', TOKEN_CACHE_TTL: '2 minutes' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toMatch(/PORT="eighty"/);
    expect(message).toMatch(/LOG_LEVEL="loud"/);
    expect(message).toMatch(/TOKEN_CACHE_TTL="2 minutes": must be from 0 \(off\) to 1 minute/);
  });

  it('checks the settings that depend on each other', () => {
    expect(() => loadConfig({ BODY_LIMIT: '20mb' })).toThrow(/ADMISSION_BYTES \(10485760 bytes\) must not be less than BODY_LIMIT/);
    expect(() => loadConfig({ HEADERS_TIMEOUT: '1 minute' })).toThrow(
      /HEADERS_TIMEOUT \(60000 ms\) must not be longer than REQUEST_TIMEOUT/,
    );
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metricsPort).toBe(0);
  });
});
