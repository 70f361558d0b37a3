import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

// Settings read from the environment at start (src/config.ts): defaults, parsing, and a bad value stopping
// the start with a message naming it. What each setting does: the integration and system tests.

describe('RATE_LIMIT_MAX and RATE_LIMIT_WINDOW', () => {
  it('are validated', () => {
    expect(loadConfig({}).rateLimitMax).toBe(6000);
    expect(loadConfig({}).rateLimitWindowMs).toBe(60_000);
    expect(loadConfig({ RATE_LIMIT_WINDOW: '30 seconds' }).rateLimitWindowMs).toBe(30_000);
    expect(() => loadConfig({ RATE_LIMIT_MAX: '0' })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => loadConfig({ RATE_LIMIT_MAX: 'lots' })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: 'soon' })).toThrow(/RATE_LIMIT_WINDOW/);
  });
});

describe('RATE_LIMIT_REDIS_URL', () => {
  it('is validated', () => {
    expect(loadConfig({ RATE_LIMIT_REDIS_URL: 'redis://cache:6379/2' }).rateLimitRedisUrl).toBe('redis://cache:6379/2');
    expect(loadConfig({}).rateLimitRedisUrl).toBeUndefined();
    expect(() => loadConfig({ RATE_LIMIT_REDIS_URL: 'http://cache' })).toThrow(/RATE_LIMIT_REDIS_URL/);
  });
});

describe('SUBSCRIPTION_SEND_BUFFER', () => {
  it('is 1 MB by default, a size otherwise, and never under 64 KB', () => {
    expect(loadConfig({}).subscriptionSendBufferBytes).toBe(1024 * 1024);
    expect(loadConfig({ SUBSCRIPTION_SEND_BUFFER: '256kb' }).subscriptionSendBufferBytes).toBe(256 * 1024);
    expect(() => loadConfig({ SUBSCRIPTION_SEND_BUFFER: '1kb' })).toThrow(/SUBSCRIPTION_SEND_BUFFER="1kb".*at least 64kb/);
    expect(() => loadConfig({ SUBSCRIPTION_SEND_BUFFER: 'big' })).toThrow(/SUBSCRIPTION_SEND_BUFFER="big"/);
  });
});

describe('METRICS_PORT', () => {
  it('is off when unset, a port otherwise, and never the public port', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: 'yes' })).toThrow(/METRICS_PORT="yes"/);
    expect(() => loadConfig({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT \(4000\) must not be PORT/);
  });
});

describe('admission settings', () => {
  it('refuses a bad value, naming it', () => {
    expect(() => loadConfig({ ADMISSION_BYTES: '1mb' })).toThrow(/ADMISSION_BYTES .* must not be less than BODY_LIMIT/);
    expect(() => loadConfig({ ADMISSION_QUEUE: '-1' })).toThrow(/ADMISSION_QUEUE="-1"/);
    expect(() => loadConfig({ ADMISSION_QUEUE_TIMEOUT: '30s' })).toThrow(/ADMISSION_QUEUE_TIMEOUT .* must be shorter than REQUEST_TIMEOUT/);
    expect(() => loadConfig({ ADMISSION_THRESHOLD: 'large' })).toThrow(/ADMISSION_THRESHOLD="large"/);
    expect(loadConfig({})).toMatchObject({
      admissionBytes: 10 * 1024 * 1024,
      admissionQueue: 100,
      admissionQueueTimeoutMs: 15_000,
      admissionThreshold: 64 * 1024,
    });
  });
});

describe('HEADERS_TIMEOUT, REQUEST_TIMEOUT, KEEP_ALIVE_TIMEOUT and MAX_CONNECTIONS', () => {
  it('have production defaults', () => {
    const config = loadConfig({});
    expect(config.headersTimeoutMs).toBe(10_000);
    expect(config.requestTimeoutMs).toBe(30_000);
    expect(config.keepAliveTimeoutMs).toBe(5_000);
    expect(config.maxConnections).toBe(16_000);
  });

  it('read durations as RATE_LIMIT_WINDOW does, down to 100 ms', () => {
    const config = loadConfig({
      HEADERS_TIMEOUT: '500ms',
      REQUEST_TIMEOUT: '2 minutes',
      KEEP_ALIVE_TIMEOUT: '65 seconds',
      MAX_CONNECTIONS: '20',
    });
    expect(config.headersTimeoutMs).toBe(500);
    expect(config.requestTimeoutMs).toBe(120_000);
    expect(config.keepAliveTimeoutMs).toBe(65_000);
    expect(config.maxConnections).toBe(20);
  });

  it('stop on a bad value, naming the setting', () => {
    for (const name of ['HEADERS_TIMEOUT', 'REQUEST_TIMEOUT', 'KEEP_ALIVE_TIMEOUT']) {
      for (const value of ['soon', '0', '50ms', '-5s', '2 days', ''])
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}=`));
    }
    for (const value of ['0', '-1', '1.5', 'many', '', '2000000'])
      expect(() => loadConfig({ MAX_CONNECTIONS: value }), value).toThrow(/MAX_CONNECTIONS=/);
    // Node refuses a headers timeout longer than the request timeout; say so by name.
    expect(() => loadConfig({ HEADERS_TIMEOUT: '40s' })).toThrow(
      /HEADERS_TIMEOUT \(40000 ms\) must not be longer than REQUEST_TIMEOUT \(30000 ms\)/,
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT: '5s' })).toThrow(/HEADERS_TIMEOUT \(10000 ms\) .*REQUEST_TIMEOUT \(5000 ms\)/);
  });
});

describe('the OTLP endpoint setting', () => {
  it('turns tracing on, says where spans go, and stops the start when it is not an http(s) URL', () => {
    expect(loadConfig({}).tracesEndpoint).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).tracesEndpoint).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracesEndpoint).toBe('http://collector:4318/v1/traces');
    const both = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
    };
    expect(loadConfig(both).tracesEndpoint).toBe('https://traces.example/otlp');
    expect(loadConfig({ ...both, OTEL_SDK_DISABLED: 'true' }).tracesEndpoint).toBeUndefined();
    for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'])
      expect(() => loadConfig({ [name]: 'collector:4318' })).toThrow(new RegExp(`${name}="collector:4318"`));
  });
});

describe('loadConfig', () => {
  it('gives every default with an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      databaseDirectUrl: undefined,
      databasePreparedStatements: true,
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
      lessonEventsRetentionMs: 7 * 86_400_000,
      subscriptionInitTimeoutMs: 10_000,
      tokenCacheTtlMs: 5_000,
      publicCacheMaxAgeMs: 60_000,
      tracesEndpoint: undefined,
      metricsPort: undefined,
    });
  });

  it('CORS_MAX_AGE: 10 minutes by default, whole seconds up to 24 hours, 0 allowed', () => {
    expect(loadConfig({}).corsMaxAgeSeconds).toBe(600);
    expect(loadConfig({ CORS_MAX_AGE: '2 hours' }).corsMaxAgeSeconds).toBe(7_200);
    expect(loadConfig({ CORS_MAX_AGE: '0' }).corsMaxAgeSeconds).toBe(0);
    expect(() => loadConfig({ CORS_MAX_AGE: '1500ms' })).toThrow(/CORS_MAX_AGE="1500ms": must be whole seconds, from 0 to 24 hours/);
    expect(() => loadConfig({ CORS_MAX_AGE: '25h' })).toThrow(/CORS_MAX_AGE="25h"/);
  });

  it('reads sizes with their units, durations in words or letters, and flags as 0/1/true/false', () => {
    expect(loadConfig({ BODY_LIMIT: '2kb' }).bodyLimit).toBe(2048);
    expect(loadConfig({ BODY_LIMIT: ' 3 MB ', ADMISSION_BYTES: '1gb' }).bodyLimit).toBe(3 * 1024 * 1024);
    expect(loadConfig({ BODY_LIMIT: '700' }).bodyLimit).toBe(700);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '2 minutes' }).subscriptionKeepAliveMs).toBe(120_000);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '1h' }).subscriptionKeepAliveMs).toBe(3_600_000);
    expect(loadConfig({ SUBSCRIPTION_KEEP_ALIVE: '1500' }).subscriptionKeepAliveMs).toBe(1_500);
    expect(loadConfig({ LESSON_EVENTS_RETENTION: '2 days' }).lessonEventsRetentionMs).toBe(2 * 86_400_000);
    expect(loadConfig({ LESSON_EVENTS_RETENTION: '1s' }).lessonEventsRetentionMs).toBe(1_000);
    expect(() => loadConfig({ LESSON_EVENTS_RETENTION: '500ms' })).toThrow(
      /LESSON_EVENTS_RETENTION="500ms": must be from 1 second to 366 days/,
    );
    expect(() => loadConfig({ LESSON_EVENTS_RETENTION: 'a week' })).toThrow(
      /LESSON_EVENTS_RETENTION="a week": expected a number with a unit/,
    );
    expect(loadConfig({ PUBLIC_CACHE_MAX_AGE: '0' }).publicCacheMaxAgeMs).toBe(0);
    expect(loadConfig({ PUBLIC_CACHE_MAX_AGE: '2 minutes' }).publicCacheMaxAgeMs).toBe(120_000);
    expect(() => loadConfig({ PUBLIC_CACHE_MAX_AGE: '1500ms' })).toThrow(/PUBLIC_CACHE_MAX_AGE="1500ms": must be whole seconds/);
    expect(() => loadConfig({ PUBLIC_CACHE_MAX_AGE: '25h' })).toThrow(
      /PUBLIC_CACHE_MAX_AGE="25h": must be whole seconds, from 0 \(off\) to 24 hours/,
    );
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

  it('reads the pooler settings: the server behind the pooler, and named statements on or off', () => {
    const pooled = loadConfig({
      DATABASE_URL: 'postgresql://app@pooler:6432/lessons',
      DATABASE_DIRECT_URL: ' postgresql://app@db:5432/lessons ',
      DATABASE_PREPARED_STATEMENTS: '0',
    });
    expect(pooled).toMatchObject({
      databaseUrl: 'postgresql://app@pooler:6432/lessons',
      databaseDirectUrl: 'postgresql://app@db:5432/lessons',
      databasePreparedStatements: false,
    });
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'true' }).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_DIRECT_URL: '' }).databaseDirectUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://app@pooler/db', DATABASE_DIRECT_URL: 'http://db/lessons' })).toThrow(
      /DATABASE_DIRECT_URL="http:\/\/db\/lessons": expected a postgresql:\/\/ URL/,
    );
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' })).toThrow(/DATABASE_PREPARED_STATEMENTS="off"/);
    // The server behind a pooler, with no pooler: the embedded database would be used, and the setting ignored.
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgresql://app@db/lessons' })).toThrow(
      /DATABASE_DIRECT_URL is set without DATABASE_URL/,
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
