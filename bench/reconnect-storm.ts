import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { hashToken, newToken, tokenPrefix } from '../src/auth/tokens.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type SqlRead } from '../src/db/client.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { importData } from '../src/import/import-data.ts';
import { lessonEventId } from '../src/modules/classroom-activities/lesson-events.ts';
import { createPgliteFolder, createPostgresDatabase, DEFAULT_ADMIN_URL } from './fresh-database.ts';
import type { ChildMessage, ParentMessage, SubscriberSpec } from './subscribers.ts';

// node --import tsx bench/reconnect-storm.ts [--subscribers N] [--lessons N] [--clients N] [--concurrency N] [--pglite]
// A reconnect storm (docs/performance.md, A reconnect storm): every lesson has events stored, and all its
// students resume at once `after` a cursor before them (as after an instance's restart). Measures the time
// until every subscriber has caught up, the gateway's peak memory, and the statements that read backlogs:
// one per lesson (a batch of lessons each), not one per subscriber.

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    lessons: { type: 'string', default: '300' },
    clients: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '100' },
    pglite: { type: 'boolean', default: false },
  },
});
const SUBSCRIBERS = Number(values.subscribers);
const LESSONS = Number(values.lessons);
const CLIENTS = Number(values.clients);
/** Sockets each client process has connecting at once (the pool of 10 connections checks their tokens). */
const CONCURRENCY = Number(values.concurrency);
const TEACHER_ID = 1;
const FIRST_STUDENT_ID = 1_000;
const started = Date.now();
const log = (message: string) => process.stderr.write(`[storm ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);

const fresh = values.pglite ? await createPgliteFolder() : await createPostgresDatabase(DEFAULT_ADMIN_URL);
const env = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DEMO_DATA: '0',
  RATE_LIMIT_MAX: '1000000',
  DATABASE_URL: fresh.kind === 'postgresql' ? fresh.url : '',
  DATA_DIR: fresh.kind === 'pglite' ? fresh.dataDir : 'memory://',
};
const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });

// Students with a token each, a classroom per lesson, the lesson assigned to its students.
const students = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
  userId: FIRST_STUDENT_ID + i,
  token: newToken(),
  lessonId: (i % LESSONS) + 1,
}));
const teacherToken = newToken();
await database.prisma.$executeRawUnsafe(
  `INSERT INTO users (id, name, role) SELECT id, 'Student ' || id, 'student' FROM unnest($1::int[]) AS id`,
  students.map((student) => student.userId),
);
await database.prisma.$executeRawUnsafe(
  'INSERT INTO access_tokens (user_id, token_hash, token_prefix) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])',
  students.map((student) => student.userId),
  students.map((student) => hashToken(student.token)),
  students.map((student) => tokenPrefix(student.token)),
);
const lessonIds = Array.from({ length: LESSONS }, (_, i) => i + 1);
await inTransaction(database.prisma, (tx) =>
  importData(tx, {
    users: [{ id: TEACHER_ID, name: 'Bench Teacher', email: 'teacher@example.org', role: 'teacher', token: teacherToken }],
    classrooms: lessonIds.map((id) => ({ id, name: `Period ${id}`, teachers: [{ userId: TEACHER_ID, role: 'owner' }] })),
    classifications: [{ id: 1, key: 'lessons', name: 'Quill Lessons' }],
    activities: [{ id: 1, uid: 'bench-storm-activity', name: 'Lesson', classificationId: 1 }],
    classroomActivities: lessonIds.map((id) => ({
      id,
      classroomId: id,
      activityId: 1,
      assignedStudentIds: students.filter((student) => student.lessonId === id).map((student) => student.userId),
    })),
  }),
);
log(`loaded ${SUBSCRIBERS} students over ${LESSONS} lessons (${fresh.describe})`);

// The gateway in this process, its backlog reads counted (the statement the event hub batches them into).
const backlog = { statements: 0, lessons: 0 };
const counted: SqlRead = (statement, params) => {
  if (typeof statement !== 'string' && statement.name === 'lesson_events_after') {
    backlog.statements += 1;
    backlog.lessons += (params[0] as unknown[]).length;
  }
  return database.read(statement, params);
};
const config = loadConfig({ ...env, SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '10' });
const app = await buildApp({ config, database: { ...database, read: counted } });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };

// Each lesson launched and locked: two stored events every student resumes to.
for (const id of lessonIds)
  for (const mutation of ['launchLesson', 'unpinAndLock']) {
    const answer = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${teacherToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `mutation ($id: ID!) { ${mutation}(id: $id) { id } }`, variables: { id: String(id) } }),
    });
    if (answer.statusCode !== 200 || answer.json().errors) throw new Error(`${mutation} failed: ${answer.body}`);
  }
log(`${LESSONS * 2} events stored`);

type ClientProcess = {
  child: ChildProcess;
  ask<T extends ChildMessage['type']>(message: ParentMessage, answer: T): Promise<Extract<ChildMessage, { type: T }>>;
};
const startClient = (): ClientProcess => {
  const child = fork(join(root, 'bench', 'subscribers.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    child,
    ask: (message, answer) =>
      new Promise((resolve) => {
        const onMessage = (reply: ChildMessage) => {
          if (reply.type !== answer) return;
          child.off('message', onMessage);
          resolve(reply as never);
        };
        child.on('message', onMessage);
        child.send(message);
      }),
  };
};
const clients = Array.from({ length: CLIENTS }, startClient);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const rssBefore = process.memoryUsage().rss;
const statementsBefore = database.statementCount();
const stormStarted = Date.now();
const specs: SubscriberSpec[] = students.map(({ token, lessonId }) => ({ token, lessonId, after: lessonEventId(lessonId, 0) }));
const opened = await Promise.all(
  clients.map((client, c) =>
    client.ask(
      {
        type: 'open',
        url: `ws://127.0.0.1:${port}/graphql`,
        subscribers: specs.filter((_, i) => i % CLIENTS === c),
        concurrency: CONCURRENCY,
      },
      'opened',
    ),
  ),
);
const openMs = Date.now() - stormStarted;
let caughtUp = 0;
while (caughtUp < SUBSCRIBERS && Date.now() - stormStarted < 300_000) {
  caughtUp = (await Promise.all(clients.map((client) => client.ask({ type: 'count', kind: 'LOCKED' }, 'count')))).reduce(
    (n, r) => n + r.received,
    0,
  );
  if (caughtUp < SUBSCRIBERS) await new Promise((resolve) => setTimeout(resolve, 100));
}
const caughtUpMs = Date.now() - stormStarted;
clearInterval(sampler);
const statements = database.statementCount() - statementsBefore;

const result = {
  subscribers: SUBSCRIBERS,
  lessons: LESSONS,
  database: fresh.kind,
  connected: opened.reduce((n, o) => n + o.connected, 0),
  refused: opened.reduce((n, o) => n + o.failed, 0),
  problems: opened.flatMap((o) => o.problems).slice(0, 5),
  openMs,
  caughtUp,
  caughtUpMs,
  backlogStatements: backlog.statements,
  lessonsPerBacklogStatement: Math.round((backlog.lessons / Math.max(1, backlog.statements)) * 10) / 10,
  statementsPerSubscriber: Math.round((statements / SUBSCRIBERS) * 100) / 100,
  gatewayRssMb: { before: Math.round(rssBefore / 2 ** 20), peak: Math.round(peakRss / 2 ** 20) },
};
log(JSON.stringify(result, null, 2));
await mkdir(join(root, 'bench', 'results'), { recursive: true });
await writeFile(join(root, 'bench', 'results', 'reconnect-storm-latest.json'), `${JSON.stringify(result, null, 2)}\n`);

for (const { child } of clients) child.send({ type: 'close' } satisfies ParentMessage);
await Promise.all(clients.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
await app.close();
await database.close();
await fresh.remove();
